import type { PageRow, PagesTable } from '../schema.js';
import type { Db } from './workspaces.js';

export type PageSection = PagesTable['section'];

/** A page by its id, in the workspace. */
export function findPageById(db: Db, workspaceId: string, id: string): Promise<PageRow | undefined> {
  return db
    .selectFrom('pages')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The handles of these pages of the workspace. */
export function listPageHandlesByIds(db: Db, workspaceId: string, ids: readonly string[]) {
  return db
    .selectFrom('pages')
    .select(['id', 'handle'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .execute();
}

/** These pages, of one workspace, or of any (`workspaceId` null: the shared runner's checks are of every workspace). */
export function listPagesByIds(db: Db, workspaceId: string | null, ids: readonly string[]): Promise<PageRow[]> {
  return db
    .selectFrom('pages')
    .selectAll()
    .where('id', 'in', ids)
    .$if(workspaceId !== null, (qb) => qb.where('workspace_id', '=', workspaceId!))
    .execute();
}

/** A page of a service's section by handle or id. */
export function findServicePage(
  db: Db,
  workspaceId: string,
  serviceId: string,
  section: PageSection,
  idOrHandle: string,
): Promise<PageRow | undefined> {
  return db
    .selectFrom('pages')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId)
    .where('section', '=', section)
    .where((eb) => eb.or([eb('handle', '=', idOrHandle), eb('id', '=', idOrHandle)]))
    .executeTakeFirst();
}

export interface PageListQuery {
  section?: PageSection | undefined;
  cursor: number;
  limit: number;
}

/** A service's pages, one page of the list and the total; published ones newest published first. */
export async function listServicePages(
  db: Db,
  workspaceId: string,
  serviceId: string,
  published: boolean,
  query: PageListQuery,
): Promise<{ rows: Omit<PageRow, 'content' | 'published_content'>[]; total: number }> {
  const base = db
    .selectFrom('pages')
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId)
    .$if(query.section !== undefined, (qb) => qb.where('section', '=', query.section!))
    .$if(published, (qb) => qb.where('published_at', 'is not', null));
  const [rows, count] = await Promise.all([
    base
      .select([
        'id',
        'workspace_id',
        'service_id',
        'section',
        'handle',
        'title',
        'lock',
        'revisions',
        'created_at',
        'updated_at',
        'updated_by',
        'published_title',
        'published_at',
        'published_updated_at',
        'published_by',
      ])
      .orderBy(published ? 'published_at' : 'updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset(query.cursor)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function insertPage(db: Db, row: PageRow): Promise<void> {
  await db.insertInto('pages').values(row).execute();
}

/**
 * Writes a save when the lock is still `lock`; false when someone saved meanwhile (the caller answers 412). The
 * lock moves on and the save is kept as a revision, in the caller's transaction.
 */
export async function savePage(
  db: Db,
  page: PageRow,
  lock: number,
  change: { title: string; content: string; updated_at: string; updated_by: string },
): Promise<boolean> {
  const result = await db
    .updateTable('pages')
    .set({ ...change, lock: lock + 1, revisions: page.revisions + 1 })
    .where('id', '=', page.id)
    .where('lock', '=', lock)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await insertRevision(db, page.id, page.revisions + 1, change);
  return true;
}

export async function insertRevision(
  db: Db,
  pageId: string,
  seq: number,
  change: { title: string; content: string; updated_at: string; updated_by: string },
): Promise<void> {
  await db
    .insertInto('page_revisions')
    .values({
      page_id: pageId,
      seq,
      title: change.title,
      content: change.content,
      saved_at: change.updated_at,
      saved_by: change.updated_by,
    })
    .execute();
}

/**
 * Writes a page's next revision and publishes it at once, whatever its lock (a catalogue file's spec replaces
 * the page: services/descriptors/apply.ts); the caller keeps the revision with insertRevision.
 */
export async function writePublishedRevision(
  db: Db,
  pageId: string,
  patch: Pick<
    PageRow,
    | 'title'
    | 'content'
    | 'updated_at'
    | 'updated_by'
    | 'published_title'
    | 'published_content'
    | 'published_at'
    | 'published_updated_at'
    | 'published_by'
    | 'lock'
    | 'revisions'
  >,
): Promise<void> {
  await db.updateTable('pages').set(patch).where('id', '=', pageId).execute();
}

export async function setPublished(
  db: Db,
  pageId: string,
  published: Pick<
    PageRow,
    'published_title' | 'published_content' | 'published_at' | 'published_updated_at' | 'published_by'
  >,
): Promise<void> {
  await db.updateTable('pages').set(published).where('id', '=', pageId).execute();
}

export async function unpublishPage(db: Db, pageId: string): Promise<void> {
  await db.updateTable('pages').set({ published_at: null }).where('id', '=', pageId).execute();
}

export async function deletePage(db: Db, pageId: string): Promise<void> {
  await db.deleteFrom('pages').where('id', '=', pageId).execute();
}

/** Every page of one service, or of the workspace (the export), by service, section and handle. */
export function listPagesOfServices(db: Db, workspaceId: string, serviceId?: string) {
  return db
    .selectFrom('pages')
    .innerJoin('services', 'services.id', 'pages.service_id')
    .selectAll('pages')
    .select('services.handle as service_handle')
    .where('pages.workspace_id', '=', workspaceId)
    .$if(serviceId !== undefined, (qb) => qb.where('pages.service_id', '=', serviceId!))
    .orderBy('services.handle')
    .orderBy('pages.section')
    .orderBy('pages.handle')
    .execute();
}
