import { z } from 'zod';
import { PAGE_SECTIONS } from '../domain/pages.js';
import { HANDLE_PATTERN, HANDLE_RULE } from '../domain/validators.js';
import { line, text } from './common.js';

export { PAGE_SECTIONS };
/** Page sections (docs/decisions.md#pages). */
export const pageSection = z.enum(PAGE_SECTIONS);
export type PageSection = z.infer<typeof pageSection>;

/** Who last saved a page. */
const updatedBy = z.object({ name: z.string() });

/**
 * The title is also answered as `name` (announcements, release notes) or `version` (API docs, specs):
 * docs/decisions.md#pages. Requests may send any of the three.
 */
const titleAliases = { name: z.string().optional(), version: z.string().optional() };

/** A draft (spec/catalogue.md section 3; docs/decisions.md#pages): `lock` is its version, `revisions` its saves. */
export const draftPage = z
  .object({
    id: z.string(),
    handle: z.string(),
    section: pageSection,
    title: z.string(),
    ...titleAliases,
    content: z.string(),
    lock: z.number().int(),
    is_published: z.boolean(),
    published_at: z.string().nullable(),
    updated_at: z.string(),
    updated_by: updatedBy,
    revisions: z.number().int(),
  })
  .meta({ id: 'DraftPage' });
export type DraftPage = z.infer<typeof draftPage>;

/** docs/decisions.md#pages: a stale lock is 412 with the draft as the server holds it, beside the message. */
export const staleDraft = draftPage.extend({ message: z.string() }).meta({ id: 'StaleDraft' });

/** A draft in a list: everything but its content. */
export const draftSummary = draftPage.omit({ content: true }).meta({ id: 'DraftSummary' });
export type DraftSummary = z.infer<typeof draftSummary>;

/** A published page: what readers see, as it was when last published. */
export const publishedPage = z
  .object({
    id: z.string(),
    handle: z.string(),
    section: pageSection,
    title: z.string(),
    ...titleAliases,
    content: z.string(),
    published_at: z.string(),
    updated_at: z.string(),
    updated_by: updatedBy,
  })
  .meta({ id: 'PublishedPage' });
export type PublishedPage = z.infer<typeof publishedPage>;

/** A published page in a list: everything but its content. */
export const publishedSummary = publishedPage.omit({ content: true }).meta({ id: 'PublishedSummary' });
export type PublishedSummary = z.infer<typeof publishedSummary>;

const pageTitle = () => line().trim().min(1).max(200);
/** A page's content: markdown, or an OpenAPI document in YAML or JSON (docs/decisions.md#pages). */
const pageContent = () => text().max(1_000_000);
const pageHandle = () => line().min(1).max(64).regex(HANDLE_PATTERN, HANDLE_RULE);

/** Spec: a create sends title (or name, or version) and content; the handle comes from the title unless given. */
const createShape = {
  title: pageTitle().optional(),
  name: pageTitle().optional(),
  version: pageTitle().optional(),
  content: pageContent().optional(),
  handle: pageHandle().optional(),
};
const titleGiven = [
  (body: { title?: string | undefined; name?: string | undefined; version?: string | undefined }) =>
    Boolean(body.title ?? body.name ?? body.version),
  { message: 'A title is required', path: ['title'] },
] satisfies [unknown, { message: string; path: string[] }];

/** A section's door: the section is the door's. */
export const draftCreateFields = z.strictObject(createShape).refine(...titleGiven);

/** The generic door names the section in the body. */
export const draftPageCreate = z.strictObject({ section: pageSection, ...createShape }).refine(...titleGiven);
export type DraftPageCreate = z.infer<typeof draftPageCreate>;

/** Spec: a draft update sends title, content and the lock it read (a stale lock is 412). */
export const draftPageUpdate = z.strictObject({
  title: pageTitle().optional(),
  name: pageTitle().optional(),
  version: pageTitle().optional(),
  content: pageContent().optional(),
  lock: z.number().int().min(1),
});
export type DraftPageUpdate = z.infer<typeof draftPageUpdate>;

/** The content page of an API doc or spec draft (`pages/index.md`, `pages/openapi.yml`): content and lock. */
export const draftContentUpdate = z.strictObject({
  content: pageContent(),
  lock: z.number().int().min(1),
});

export const draftPageParams = z.strictObject({
  service: line().min(1).max(64),
  section: pageSection,
  handle: line().min(1).max(64),
});

export const publishedPageParams = z.strictObject({
  service: line().min(1).max(64),
  section: pageSection,
  page: line().min(1).max(64),
});

/** A page by its id (the per-section doors: `/announcements/{id}`, `/announcement-drafts/{id}`, ...). */
export const pageIdParams = z.strictObject({ id: line().min(1).max(64) });

/** Lists: `section` (the generic door), then the usual paging (docs/api.md#conventions). */
export const pageListQuery = z.strictObject({
  section: pageSection.optional(),
  cursor: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const sectionListQuery = pageListQuery.omit({ section: true });
