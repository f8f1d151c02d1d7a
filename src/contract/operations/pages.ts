import { z } from 'zod';
import type { ClientScope } from '../../domain/scopes.js';
import { serviceParams } from '../catalogue.js';
import { defineOperations, type OperationSpec } from '../operation.js';
import { doorOperationName, type DoorNames, type DoorVerb } from '../page-doors.js';
import {
  draftContentUpdate,
  draftCreateFields,
  draftPage,
  draftPageCreate,
  draftPageParams,
  draftPageUpdate,
  draftSummary,
  pageIdParams,
  pageListQuery,
  publishedPage,
  publishedPageParams,
  publishedSummary,
  sectionListQuery,
  staleDraft,
  type PageSection,
} from '../pages.js';

const tags = ['pages'];
const readErrors = [400, 401, 403, 404] as const;
const writeErrors = [400, 401, 403, 404, 412, 422] as const;
/**
 * Publishing an OpenAPI spec that does not parse or is not a valid OpenAPI document is 422 (docs/decisions.md#pages).
 */
const publishErrors = [400, 401, 403, 404, 422] as const;

/**
 * Pages and drafts (spec/catalogue.md section 7, docs/decisions.md#pages): the generic door, which names the
 * section in the path or the query. Readers of a service read its published pages; drafts and every write are
 * for its editors (the owning team's members, workspace admins and owners).
 */
export const pageOperations = defineOperations({
  listPublishedPages: {
    method: 'GET',
    path: '/services/:service/published-pages',
    summary: 'Published pages of a service, newest first, optionally of one section; total in the `total` header',
    tags,
    access: 'beacon.service.read',
    params: serviceParams,
    query: pageListQuery,
    response: z.array(publishedSummary),
    paged: true,
    errors: readErrors,
  },
  getPublishedPage: {
    method: 'GET',
    path: '/services/:service/published-pages/:section/:page',
    summary: 'A published page by id or handle',
    tags,
    access: 'beacon.service.read',
    params: publishedPageParams,
    response: publishedPage,
    errors: readErrors,
  },
  listDraftPages: {
    method: 'GET',
    path: '/services/:service/draft-pages',
    summary: 'Drafts of a service, latest saved first, optionally of one section (editors)',
    tags,
    access: 'beacon.service.manage',
    params: serviceParams,
    query: pageListQuery,
    response: z.array(draftSummary),
    paged: true,
    errors: readErrors,
  },
  createDraftPage: {
    replayable: true,
    method: 'POST',
    path: '/services/:service/draft-pages',
    summary: 'Create a draft; the handle comes from the title unless given; a taken handle is 422 (editors)',
    tags,
    access: 'beacon.service.manage',
    params: serviceParams,
    body: draftPageCreate,
    response: draftPage,
    status: 201,
    errors: writeErrors,
  },
  getDraftPage: {
    method: 'GET',
    path: '/services/:service/draft-pages/:section/:handle',
    summary: 'A draft with its content and lock (editors)',
    tags,
    access: 'beacon.service.manage',
    params: draftPageParams,
    response: draftPage,
    errors: readErrors,
  },
  updateDraftPage: {
    replayable: true,
    method: 'PATCH',
    path: '/services/:service/draft-pages/:section/:handle',
    summary: 'Save a draft with the lock it read; a stale lock is 412 with the current draft (editors)',
    tags,
    access: 'beacon.service.manage',
    params: draftPageParams,
    body: draftPageUpdate,
    response: draftPage,
    errors: writeErrors,
    errorBodies: { 412: staleDraft },
  },
  deleteDraftPage: {
    replayable: true,
    method: 'DELETE',
    path: '/services/:service/draft-pages/:section/:handle',
    summary: 'Delete a draft and its published page (editors)',
    tags,
    access: 'beacon.service.manage',
    params: draftPageParams,
    response: null,
    errors: readErrors,
  },
  publishDraftPage: {
    replayable: true,
    method: 'POST',
    path: '/services/:service/draft-pages/:section/:handle/actions/publish',
    summary:
      'Publish the draft as it is saved: readers see this text from now on; an OpenAPI spec that does not parse ' +
      'or is not a valid OpenAPI 3.x or Swagger 2.0 document is 422 naming `content` (editors)',
    tags,
    access: 'beacon.service.manage',
    params: draftPageParams,
    response: draftPage,
    errors: publishErrors,
  },
  unpublishDraftPage: {
    replayable: true,
    method: 'POST',
    path: '/services/:service/draft-pages/:section/:handle/actions/unpublish',
    summary: 'Take the page out of the published lists; the draft stays (editors)',
    tags,
    access: 'beacon.service.manage',
    params: draftPageParams,
    response: draftPage,
    errors: readErrors,
  },
  exportServicePages: {
    method: 'GET',
    path: '/services/:service/pages/actions/export',
    summary: "A zip of the service's published pages and drafts, with manifest.json (editors)",
    tags,
    access: 'beacon.service.manage',
    params: serviceParams,
    response: z.string().describe('application/zip'),
    produces: ['application/zip'],
    errors: readErrors,
  },
  exportWorkspacePages: {
    method: 'GET',
    path: '/pages/actions/export',
    summary: "A zip of every service's published pages and drafts, with manifest.json (admins and owners)",
    tags,
    access: 'user',
    response: z.string().describe('application/zip'),
    produces: ['application/zip'],
    errors: [401, 403],
  },
});

/** How one section is reached through its own door (spec/catalogue.md section 7). */
interface SectionDoor {
  section: PageSection;
  /** `/services/{h}/{published}` lists, `/{published}/{id}` reads. */
  published: string;
  /** `/services/{h}/{drafts}` lists and creates, `/{drafts}/{id}` reads and writes. */
  drafts: string;
  /** API docs and specs keep their content on a page of its own: `pages/index.md`, `pages/openapi.yml`. */
  contentPage?: string;
  read: ClientScope;
  manage: ClientScope;
}

/** Renames a door's specs by `doorOperationName`. */
function named<const O extends string, const M extends string, S extends Record<string, OperationSpec>>(
  one: O,
  many: M,
  specs: S,
) {
  return defineOperations(
    Object.fromEntries(
      Object.entries(specs).map(([verb, spec]) => [doorOperationName(verb as DoorVerb, one, many), spec]),
    ) as { [K in keyof S & DoorVerb as DoorNames<O, M>[K]]: S[K] },
  );
}

/** The operations of one section's door. */
function sectionDoor<const O extends string, const M extends string>(one: O, many: M, door: SectionDoor) {
  const what = door.section.replace(/-/g, ' ');
  const specs = {
    list: {
      method: 'GET',
      path: `/services/:service/${door.published}`,
      summary: `Published ${what} of a service, newest first; total in the \`total\` header`,
      tags,
      access: door.read,
      params: serviceParams,
      query: sectionListQuery,
      response: z.array(publishedSummary),
      paged: true,
      errors: readErrors,
    },
    get: {
      method: 'GET',
      path: `/${door.published}/:id`,
      summary: `A published page of ${what}`,
      tags,
      access: door.read,
      params: pageIdParams,
      response: publishedPage,
      errors: readErrors,
    },
    listDrafts: {
      method: 'GET',
      path: `/services/:service/${door.drafts}`,
      summary: `Drafts of ${what} of a service (editors); total in the \`total\` header`,
      tags,
      access: door.manage,
      params: serviceParams,
      query: sectionListQuery,
      response: z.array(draftSummary),
      paged: true,
      errors: readErrors,
    },
    createDraft: {
      replayable: true,
      method: 'POST',
      path: `/services/:service/${door.drafts}`,
      summary: `Create a draft of ${what}; a taken handle is 422 (editors)`,
      tags,
      access: door.manage,
      params: serviceParams,
      body: draftCreateFields,
      response: draftPage,
      status: 201,
      errors: writeErrors,
    },
    getDraft: {
      method: 'GET',
      path: `/${door.drafts}/:id`,
      summary: `A draft of ${what} (editors)`,
      tags,
      access: door.manage,
      params: pageIdParams,
      response: draftPage,
      errors: readErrors,
    },
    updateDraft: {
      replayable: true,
      method: 'PATCH',
      path: `/${door.drafts}/:id`,
      summary: `Save a draft of ${what} with the lock it read; a stale lock is 412 (editors)`,
      tags,
      access: door.manage,
      params: pageIdParams,
      body: draftPageUpdate,
      response: draftPage,
      errors: writeErrors,
      errorBodies: { 412: staleDraft },
    },
    deleteDraft: {
      replayable: true,
      method: 'DELETE',
      path: `/${door.drafts}/:id`,
      summary: `Delete a draft of ${what} and its published page (editors)`,
      tags,
      access: door.manage,
      params: pageIdParams,
      response: null,
      errors: readErrors,
    },
    publishDraft: {
      replayable: true,
      method: 'POST',
      path: `/${door.drafts}/:id/actions/publish`,
      summary:
        door.section === 'open-api-specs'
          ? `Publish a draft of ${what}; a document that does not parse or is not a valid OpenAPI 3.x or ` +
            'Swagger 2.0 document is 422 naming `content` (editors)'
          : `Publish a draft of ${what} (editors)`,
      tags,
      access: door.manage,
      params: pageIdParams,
      response: draftPage,
      errors: door.section === 'open-api-specs' ? publishErrors : readErrors,
    },
    unpublishDraft: {
      replayable: true,
      method: 'POST',
      path: `/${door.drafts}/:id/actions/unpublish`,
      summary: `Unpublish a page of ${what} (editors)`,
      tags,
      access: door.manage,
      params: pageIdParams,
      response: draftPage,
      errors: readErrors,
    },
  } satisfies Partial<Record<DoorVerb, OperationSpec>>;
  return named(one, many, specs);
}

/** The content page of API docs and specs: `/{published}/{id}/pages/{file}` and `/{drafts}/{id}/pages/{file}`. */
function contentPages<const O extends string, const M extends string>(
  one: O,
  many: M,
  door: Required<Pick<SectionDoor, 'published' | 'drafts' | 'contentPage' | 'read' | 'manage'>>,
) {
  const specs = {
    getContent: {
      method: 'GET',
      path: `/${door.published}/:id/pages/${door.contentPage}`,
      summary: `The published content page (${door.contentPage})`,
      tags,
      access: door.read,
      params: pageIdParams,
      response: publishedPage,
      errors: readErrors,
    },
    getDraftContent: {
      method: 'GET',
      path: `/${door.drafts}/:id/pages/${door.contentPage}`,
      summary: `The draft's content page (${door.contentPage}) (editors)`,
      tags,
      access: door.manage,
      params: pageIdParams,
      response: draftPage,
      errors: readErrors,
    },
    updateDraftContent: {
      replayable: true,
      method: 'PATCH',
      path: `/${door.drafts}/:id/pages/${door.contentPage}`,
      summary: `Write the draft's content page (${door.contentPage}) with the lock it read (editors)`,
      tags,
      access: door.manage,
      params: pageIdParams,
      body: draftContentUpdate,
      response: draftPage,
      errors: writeErrors,
      errorBodies: { 412: staleDraft },
    },
    deleteDraftContent: {
      replayable: true,
      method: 'DELETE',
      path: `/${door.drafts}/:id/pages/${door.contentPage}`,
      summary: `Remove the draft's content page (${door.contentPage}): its content is emptied (editors)`,
      tags,
      access: door.manage,
      params: pageIdParams,
      response: draftPage,
      errors: readErrors,
    },
  } satisfies Partial<Record<DoorVerb, OperationSpec>>;
  return named(one, many, specs);
}

const apiDocsDoor = {
  section: 'api-docs',
  published: 'api-docs',
  drafts: 'api-docs-drafts',
  contentPage: 'index.md',
  read: 'beacon.api-docs.read',
  manage: 'beacon.api-docs.manage',
} as const;
const specsDoor = {
  section: 'open-api-specs',
  published: 'open-api-specs',
  drafts: 'open-api-spec-drafts',
  contentPage: 'openapi.yml',
  read: 'beacon.api-docs.read',
  manage: 'beacon.api-docs.manage',
} as const;

/** Each section's own door onto the same pages (docs/decisions.md#pages). */
export const sectionPageOperations = {
  announcements: sectionDoor('Announcement', 'Announcements', {
    section: 'announcements',
    published: 'announcements',
    drafts: 'announcement-drafts',
    read: 'beacon.announcement.read',
    // The spec names no announcement manage scope among a client's options: clients manage with the service's.
    manage: 'beacon.service.manage',
  }),
  'release-notes': sectionDoor('ReleaseNote', 'ReleaseNotes', {
    section: 'release-notes',
    published: 'release-notes',
    drafts: 'release-notes-drafts',
    read: 'beacon.release-notes.read',
    manage: 'beacon.release-notes.manage',
  }),
  'api-docs': { ...sectionDoor('ApiDoc', 'ApiDocs', apiDocsDoor), ...contentPages('ApiDoc', 'ApiDocs', apiDocsDoor) },
  'open-api-specs': {
    ...sectionDoor('OpenApiSpec', 'OpenApiSpecs', specsDoor),
    ...contentPages('OpenApiSpec', 'OpenApiSpecs', specsDoor),
  },
} as const satisfies Record<PageSection, object>;
