import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import type { Operation } from '../../contract/operation.js';
import { pageOperations, sectionPageOperations } from '../../contract/operations/pages.js';
import { DOOR_NAMES, doorOperationName, type DoorVerb } from '../../contract/page-doors.js';
import { PAGE_SECTIONS, type PageSection } from '../../domain/pages.js';
import type { ServerContext } from '../context.js';
import { route, routes } from '../operations.js';
import type { Caller } from '../services/accounts/auth.js';
import { exportServicePages, exportWorkspacePages } from '../services/pages/page-export.js';
import {
  createDraftPage,
  deleteDraftPage,
  getDraftPage,
  getPublishedPage,
  listDraftPages,
  listPublishedPages,
  publishDraftPage,
  unpublishDraftPage,
  updateDraftPage,
  type DraftInput,
} from '../services/pages/pages.js';

function sendZip(reply: FastifyReply, { filename, stream }: { filename: string; stream: Readable }) {
  return reply
    .header('content-type', 'application/zip')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(stream);
}

/** Both doors onto pages (docs/decisions.md#pages): the generic one, then each section's. */
export function pageRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) => {
    routes(ctx, app, pageOperations, {
      listPublishedPages: ({ caller, params, query }) => listPublishedPages(ctx, caller, params.service, query),
      getPublishedPage: ({ caller, params }) => getPublishedPage(ctx, caller, params),
      listDraftPages: ({ caller, params, query }) => listDraftPages(ctx, caller, params.service, query),
      createDraftPage: ({ caller, params, body }) => createDraftPage(ctx, caller, params.service, body.section, body),
      getDraftPage: ({ caller, params }) => getDraftPage(ctx, caller, params),
      updateDraftPage: ({ caller, params, body }) => updateDraftPage(ctx, caller, params, body),
      deleteDraftPage: async ({ caller, params }) => {
        await deleteDraftPage(ctx, caller, params);
        return null;
      },
      publishDraftPage: ({ caller, params }) => publishDraftPage(ctx, caller, params),
      unpublishDraftPage: ({ caller, params }) => unpublishDraftPage(ctx, caller, params),
      exportServicePages: async ({ caller, params, reply }) =>
        sendZip(reply, await exportServicePages(ctx, caller, params.service)),
      exportWorkspacePages: async ({ caller, reply }) => sendZip(reply, await exportWorkspacePages(ctx, caller)),
    });

    // Each section's door: the same handlers, the section fixed by the door, the page named by id.
    for (const section of PAGE_SECTIONS) {
      const operations = sectionPageOperations[section] as Record<string, Operation>;
      const { one, many } = DOOR_NAMES[section];
      for (const [verb, handler] of Object.entries(doorHandlers(ctx, section))) {
        const operation = operations[doorOperationName(verb as DoorVerb, one, many)];
        if (operation) route(ctx, app, operation, handler as never);
      }
    }
  };
}

interface DoorArgs {
  caller: Caller;
  params: { service?: string; id?: string };
  query: { cursor: number; limit: number };
  body: DraftInput & { lock: number };
}

/** What each verb of a section's door does. */
function doorHandlers(ctx: ServerContext, section: PageSection): Record<DoorVerb, (args: DoorArgs) => unknown> {
  const byId = (params: DoorArgs['params']) => ({ section, id: params.id! });
  return {
    list: ({ caller, params, query }) => listPublishedPages(ctx, caller, params.service!, { ...query, section }),
    get: ({ caller, params }) => getPublishedPage(ctx, caller, byId(params)),
    listDrafts: ({ caller, params, query }) => listDraftPages(ctx, caller, params.service!, { ...query, section }),
    createDraft: ({ caller, params, body }) => createDraftPage(ctx, caller, params.service!, section, body),
    getDraft: ({ caller, params }) => getDraftPage(ctx, caller, byId(params)),
    updateDraft: ({ caller, params, body }) => updateDraftPage(ctx, caller, byId(params), body),
    deleteDraft: async ({ caller, params }) => {
      await deleteDraftPage(ctx, caller, byId(params));
      return null;
    },
    publishDraft: ({ caller, params }) => publishDraftPage(ctx, caller, byId(params)),
    unpublishDraft: ({ caller, params }) => unpublishDraftPage(ctx, caller, byId(params)),
    // API docs and specs keep their content on a page of its own, which is the draft's content here.
    getContent: ({ caller, params }) => getPublishedPage(ctx, caller, byId(params)),
    getDraftContent: ({ caller, params }) => getDraftPage(ctx, caller, byId(params)),
    updateDraftContent: ({ caller, params, body }) => updateDraftPage(ctx, caller, byId(params), body),
    // Spec: deleting the content page removes the page's text; the draft stays.
    deleteDraftContent: async ({ caller, params }) => {
      const draft = await getDraftPage(ctx, caller, byId(params));
      return updateDraftPage(ctx, caller, byId(params), { content: '', lock: draft.lock });
    },
  };
}
