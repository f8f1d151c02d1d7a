/**
 * Pages and drafts (docs/decisions.md#pages): one service behind both doors of the API (the generic `draft-pages`
 * routes and each section's own). Readers of a service read its published pages; drafts and writes are for its
 * editors. A save carries the lock it read: a stale one is 412 with the draft as it is now.
 */
import { randomUUID } from 'node:crypto';
import type {
  DraftPage,
  DraftPageUpdate,
  DraftSummary,
  PublishedPage,
  PublishedSummary,
} from '../../../contract/pages.js';
import { PAGE_SECTION_ITEM, pageHandleFromTitle, titleAlias, type PageSection } from '../../../domain/pages.js';
import { isoNow, type ServerContext } from '../../context.js';
import { recordEvent } from '../events/record-event.js';
import {
  deletePage,
  findPageById,
  findServicePage,
  insertPage,
  insertRevision,
  listServicePages,
  savePage,
  setPublished,
  unpublishPage,
  type PageListQuery,
} from '../../db/repositories/pages.js';
import type { PageRow } from '../../db/schema.js';
import type { Db } from '../../db/repositories/workspaces.js';
import { HttpError, notFound, preconditionFailed } from '../../errors.js';
import { agentColumns, agentOf, type Agent } from '../accounts/agents.js';
import type { Caller } from '../accounts/auth.js';
import { editableService, visibleService } from '../catalogue/services.js';
import { assertPublishableSpec } from './spec-validation.js';
import { flagSpecChecks, relinkSpecChecks } from '../health/spec-checks.js';

export const PAGE_NOT_FOUND = 'Page not found';
/** Spec: a draft create or update whose handle is taken answers 422 with this text. */
export const HANDLE_TAKEN = 'The handle has already been taken.';

type PageListRow = Omit<PageRow, 'content' | 'published_content'>;

function aliased(section: PageSection, title: string) {
  return { title, [titleAlias(section)]: title };
}

function toDraftSummary(row: PageListRow): DraftSummary {
  return {
    id: row.id,
    handle: row.handle,
    section: row.section,
    ...aliased(row.section, row.title),
    lock: row.lock,
    is_published: row.published_at !== null,
    published_at: row.published_at,
    updated_at: row.updated_at,
    updated_by: { name: row.updated_by },
    revisions: row.revisions,
  };
}

export function toDraftPage(row: PageRow): DraftPage {
  return { ...toDraftSummary(row), content: row.content };
}

function toPublishedSummary(row: PageListRow): PublishedSummary {
  return {
    id: row.id,
    handle: row.handle,
    section: row.section,
    ...aliased(row.section, row.published_title ?? row.title),
    published_at: row.published_at!,
    updated_at: row.published_updated_at ?? row.updated_at,
    updated_by: { name: row.published_by ?? row.updated_by },
  };
}

function toPublishedPage(row: PageRow): PublishedPage {
  return { ...toPublishedSummary(row), content: row.published_content ?? '' };
}

/** The service, visible to the caller (404 otherwise), and whether they may edit its pages. */
async function serviceOf(ctx: ServerContext, caller: Caller, idOrHandle: string, edit: boolean) {
  return (await (edit ? editableService : visibleService)(ctx, caller, idOrHandle)).row;
}

/** A page reached by id (the section doors): its service must be visible, and editable for drafts. */
async function pageById(ctx: ServerContext, caller: Caller, section: PageSection, id: string, edit: boolean) {
  const page = await findPageById(ctx.database.db, caller.workspace.id, id);
  if (!page || page.section !== section) throw notFound(PAGE_NOT_FOUND);
  try {
    await serviceOf(ctx, caller, page.service_id, edit);
  } catch (error) {
    throw error instanceof HttpError && error.statusCode === 404 ? notFound(PAGE_NOT_FOUND) : error;
  }
  return page;
}

async function pageOfService(
  ctx: ServerContext,
  caller: Caller,
  service: string,
  section: PageSection,
  idOrHandle: string,
  edit: boolean,
) {
  const row = await serviceOf(ctx, caller, service, edit);
  const page = await findServicePage(ctx.database.db, caller.workspace.id, row.id, section, idOrHandle);
  if (!page) throw notFound(PAGE_NOT_FOUND);
  return page;
}

/** Where a draft is: by service, section and handle (generic door) or by id (a section's door). */
export type DraftRef = { service: string; section: PageSection; handle: string } | { section: PageSection; id: string };

function draftOf(ctx: ServerContext, caller: Caller, ref: DraftRef) {
  return 'id' in ref
    ? pageById(ctx, caller, ref.section, ref.id, true)
    : pageOfService(ctx, caller, ref.service, ref.section, ref.handle, true);
}

// ---- reading ----

export async function listPublishedPages(ctx: ServerContext, caller: Caller, service: string, query: PageListQuery) {
  const row = await serviceOf(ctx, caller, service, false);
  const { rows, total } = await listServicePages(ctx.database.db, caller.workspace.id, row.id, true, query);
  return { items: rows.map(toPublishedSummary), total };
}

/** A published page by service and id or handle, or by id alone; drafts never published are not found. */
export async function getPublishedPage(
  ctx: ServerContext,
  caller: Caller,
  ref: { service: string; section: PageSection; page: string } | { section: PageSection; id: string },
): Promise<PublishedPage> {
  const page =
    'id' in ref
      ? await pageById(ctx, caller, ref.section, ref.id, false)
      : await pageOfService(ctx, caller, ref.service, ref.section, ref.page, false);
  if (page.published_at === null) throw notFound(PAGE_NOT_FOUND);
  return toPublishedPage(page);
}

export async function listDraftPages(ctx: ServerContext, caller: Caller, service: string, query: PageListQuery) {
  const row = await serviceOf(ctx, caller, service, true);
  const { rows, total } = await listServicePages(ctx.database.db, caller.workspace.id, row.id, false, query);
  return { items: rows.map(toDraftSummary), total };
}

export async function getDraftPage(ctx: ServerContext, caller: Caller, ref: DraftRef): Promise<DraftPage> {
  return toDraftPage(await draftOf(ctx, caller, ref));
}

// ---- writing ----

export interface DraftInput {
  title?: string | undefined;
  name?: string | undefined;
  version?: string | undefined;
  content?: string | undefined;
  handle?: string | undefined;
}

/** The title a request gave, under any of its names. */
function titleOf(input: Pick<DraftInput, 'title' | 'name' | 'version'>): string | undefined {
  return input.title ?? input.name ?? input.version;
}

/** A new draft at lock 1 (spec), its first revision kept; the handle from the title unless given. */
export async function createDraftPage(
  ctx: ServerContext,
  caller: Caller,
  service: string,
  section: PageSection,
  input: DraftInput,
): Promise<DraftPage> {
  const row = await serviceOf(ctx, caller, service, true);
  const title = titleOf(input)!;
  const handle = input.handle ?? pageHandleFromTitle(title);
  const { db } = ctx.database;
  const taken = () => findServicePage(db, caller.workspace.id, row.id, section, handle);
  if (await taken()) throw new HttpError(422, HANDLE_TAKEN, { handle: [HANDLE_TAKEN] });
  const now = isoNow(ctx);
  const page: PageRow = {
    id: randomUUID(),
    workspace_id: caller.workspace.id,
    service_id: row.id,
    section,
    handle,
    title,
    content: input.content ?? '',
    lock: 1,
    revisions: 1,
    created_at: now,
    updated_at: now,
    updated_by: caller.user.name,
    published_title: null,
    published_content: null,
    published_at: null,
    published_updated_at: null,
    published_by: null,
  };
  try {
    await db.transaction().execute(async (trx) => {
      await insertPage(trx, page);
      await insertRevision(trx, page.id, 1, page);
    });
  } catch (error) {
    // Created concurrently: the unique constraint refused the second.
    if (await taken()) throw new HttpError(422, HANDLE_TAKEN, { handle: [HANDLE_TAKEN] });
    throw error;
  }
  return toDraftPage(page);
}

/** Saves title and content on the lock the editor read; a stale lock is 412 with the draft as it is now. */
export async function updateDraftPage(
  ctx: ServerContext,
  caller: Caller,
  ref: DraftRef,
  input: Pick<DraftPageUpdate, 'title' | 'name' | 'version' | 'content' | 'lock'>,
): Promise<DraftPage> {
  const page = await draftOf(ctx, caller, ref);
  const { db } = ctx.database;
  const stale = () =>
    preconditionFailed(
      'The draft was changed since you read it',
      toDraftPage(page) as unknown as Record<string, unknown>,
    );
  if (input.lock !== page.lock) throw stale();
  const change = {
    title: titleOf(input) ?? page.title,
    content: input.content ?? page.content,
    updated_at: isoNow(ctx),
    updated_by: caller.user.name,
  };
  const saved = await db.transaction().execute((trx) => savePage(trx, page, input.lock, change));
  if (!saved) {
    // Someone saved between our read and our write: answer with what they saved.
    const current = await findPageById(db, caller.workspace.id, page.id);
    if (!current) throw notFound(PAGE_NOT_FOUND);
    throw preconditionFailed(
      'The draft was changed since you read it',
      toDraftPage(current) as unknown as Record<string, unknown>,
    );
  }
  return toDraftPage({ ...page, ...change, lock: input.lock + 1, revisions: page.revisions + 1 });
}

export async function deleteDraftPage(ctx: ServerContext, caller: Caller, ref: DraftRef): Promise<void> {
  const page = await draftOf(ctx, caller, ref);
  await ctx.database.db.transaction().execute(async (trx) => {
    if (page.section === 'open-api-specs')
      await flagSpecChecks(trx, caller.workspace.id, page.id, 'deleted', isoNow(ctx));
    await deletePage(trx, page.id);
  });
}

/**
 * Copies the saved draft to what readers see, and tells the feeds. Both doors publish here: an OpenAPI spec is
 * published only when it parses and is a valid OpenAPI or Swagger document (422 naming `content` otherwise).
 */
export async function publishDraftPage(ctx: ServerContext, caller: Caller, ref: DraftRef): Promise<DraftPage> {
  const page = await draftOf(ctx, caller, ref);
  if (page.section === 'open-api-specs') await assertPublishableSpec(page.content);
  const now = isoNow(ctx);
  const published = {
    published_title: page.title,
    published_content: page.content,
    published_at: now,
    published_updated_at: page.updated_at,
    published_by: page.updated_by,
  };
  await ctx.database.db.transaction().execute(async (trx) => {
    await setPublished(trx, page.id, published);
    await recordPagePublished(trx, caller.workspace.id, agentOf(caller), page, now);
  });
  return toDraftPage({ ...page, ...published });
}

/** Tells the feeds a page was published: by hand, or as a catalogue file's API. */
export async function recordPagePublished(
  trx: Db,
  workspaceId: string,
  agent: Agent,
  page: Pick<PageRow, 'id' | 'service_id' | 'section' | 'title'>,
  at: string,
): Promise<void> {
  await recordEvent(trx, {
    workspace_id: workspaceId,
    profile_type: 'service',
    profile_id: page.service_id,
    type: 'page.published',
    ...agentColumns(agent),
    data: { page: page.id, type: PAGE_SECTION_ITEM[page.section], title: page.title },
    created_at: at,
  });
  // Checks made from an earlier version follow this one (docs/decisions.md#spec-checks).
  if (page.section === 'open-api-specs') await relinkSpecChecks(trx, workspaceId, page.id, at);
}

export async function unpublishDraftPage(ctx: ServerContext, caller: Caller, ref: DraftRef): Promise<DraftPage> {
  const page = await draftOf(ctx, caller, ref);
  await ctx.database.db.transaction().execute(async (trx) => {
    await unpublishPage(trx, page.id);
    if (page.section === 'open-api-specs')
      await flagSpecChecks(trx, caller.workspace.id, page.id, 'unpublished', isoNow(ctx));
  });
  return toDraftPage({ ...page, published_at: null });
}
