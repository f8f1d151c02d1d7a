import { sql } from 'kysely';
import type { Health } from '../../../domain/catalogue.js';
import type { StatusPageComponentsTable, StatusPageRow, StatusPagesTable, NoticesTable } from '../schema.js';
import type { Db } from './workspaces.js';

/** Status pages (DESIGN.md 13): settings, components, and what a page shows, read per workspace. */

export function listStatusPageRows(db: Db, workspaceId: string): Promise<StatusPageRow[]> {
  return db.selectFrom('status_pages').selectAll().where('workspace_id', '=', workspaceId).orderBy('title').execute();
}

export function findStatusPage(db: Db, workspaceId: string, handle: string): Promise<StatusPageRow | undefined> {
  return db
    .selectFrom('status_pages')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('handle', '=', handle)
    .executeTakeFirst();
}

export function findStatusPageByDomain(db: Db, domain: string): Promise<StatusPageRow | undefined> {
  return db.selectFrom('status_pages').selectAll().where('custom_domain', '=', domain).executeTakeFirst();
}

export async function insertStatusPage(db: Db, row: StatusPagesTable): Promise<void> {
  await db.insertInto('status_pages').values(row).execute();
}

export async function updateStatusPageRow(db: Db, id: string, patch: Partial<StatusPagesTable>): Promise<void> {
  await db.updateTable('status_pages').set(patch).where('id', '=', id).execute();
}

export async function deleteStatusPageRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('status_page_components').where('page_id', '=', id).execute();
  await db.deleteFrom('status_pages').where('id', '=', id).execute();
}

export async function replaceComponents(db: Db, pageId: string, rows: StatusPageComponentsTable[]): Promise<void> {
  await db.deleteFrom('status_page_components').where('page_id', '=', pageId).execute();
  if (rows.length > 0) await db.insertInto('status_page_components').values(rows).execute();
}

export interface ComponentRow {
  page_id: string;
  group_name: string;
  position: number;
  service_id: string;
  handle: string;
  name: string;
  health: Health;
  created_at: string;
}

/** The components of `pageIds`, in their order, with their services as they are now. */
export function listComponents(db: Db, workspaceId: string, pageIds: readonly string[]): Promise<ComponentRow[]> {
  if (pageIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('status_page_components as c')
    .innerJoin('services as s', 's.id', 'c.service_id')
    .select([
      'c.page_id',
      'c.group_name',
      'c.position',
      'c.service_id',
      's.handle',
      's.name',
      's.health',
      's.created_at',
    ])
    .where('c.workspace_id', '=', workspaceId)
    .where('c.page_id', 'in', pageIds)
    .orderBy('c.position')
    .execute();
}

export interface ServiceRefRow {
  id: string;
  handle: string;
  name: string;
  health: Health;
  visibility: string;
}

export function findServicesByHandle(
  db: Db,
  workspaceId: string,
  handles: readonly string[],
): Promise<ServiceRefRow[]> {
  if (handles.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('services')
    .select(['id', 'handle', 'name', 'health', 'visibility'])
    .where('workspace_id', '=', workspaceId)
    .where('handle', 'in', handles)
    .execute();
}

/** Every service of the workspace that anyone in it may see (owner-only ones are never named upstream). */
export function listOpenServices(db: Db, workspaceId: string): Promise<ServiceRefRow[]> {
  return db
    .selectFrom('services')
    .select(['id', 'handle', 'name', 'health', 'visibility'])
    .where('workspace_id', '=', workspaceId)
    .where('visibility', '<>', 'owner')
    .execute();
}

export function listWorkspaceEdges(db: Db, workspaceId: string) {
  return db
    .selectFrom('service_dependencies')
    .select(['service_id', 'dependency_id'])
    .where('workspace_id', '=', workspaceId)
    .execute();
}

export type StatusNoticeRow = Pick<
  NoticesTable,
  | 'id'
  | 'service_id'
  | 'type'
  | 'title'
  | 'status'
  | 'open'
  | 'created_at'
  | 'updated_at'
  | 'starts_at'
  | 'ends_at'
  | 'postmortem'
>;

/** What a status page shows of a notice. */
const STATUS_NOTICE_COLUMNS = [
  'id',
  'service_id',
  'type',
  'title',
  'status',
  'open',
  'created_at',
  'updated_at',
  'starts_at',
  'ends_at',
  'postmortem',
] as const;

export function findPageNotice(db: Db, workspaceId: string, id: string): Promise<StatusNoticeRow | undefined> {
  return db
    .selectFrom('notices')
    .select(STATUS_NOTICE_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The notices of `serviceIds`: every open one, and the closed ones updated since `closedSince`, newest first. */
export function listPageNotices(
  db: Db,
  workspaceId: string,
  serviceIds: readonly string[],
  closedSince: string,
): Promise<StatusNoticeRow[]> {
  if (serviceIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('notices')
    .select(STATUS_NOTICE_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('service_id', 'in', serviceIds)
    .where((eb) => eb.or([eb('open', '=', 1), eb('updated_at', '>=', closedSince)]))
    .orderBy('created_at', 'desc')
    .execute();
}

/** Closed notices of `serviceIds`, newest first, a page at a time, with their total. */
export async function listClosedNotices(
  db: Db,
  workspaceId: string,
  serviceIds: readonly string[],
  page: { cursor: number; limit: number },
): Promise<{ rows: StatusNoticeRow[]; total: number }> {
  if (serviceIds.length === 0) return { rows: [], total: 0 };
  const closed = db
    .selectFrom('notices')
    .where('workspace_id', '=', workspaceId)
    .where('service_id', 'in', serviceIds)
    .where('open', '=', 0);
  const [rows, count] = await Promise.all([
    closed
      .select(STATUS_NOTICE_COLUMNS)
      .orderBy('updated_at', 'desc')
      .orderBy('id')
      .limit(page.limit)
      .offset(page.cursor)
      .execute(),
    closed.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * The status versions of the workspace and of every workspace it links to (migration 025): a kept rendering
 * is good while these are unchanged.
 */
export async function readStatusVersions(db: Db, workspaceId: string): Promise<string> {
  const { rows } = await sql<{ id: string; version: number | string }>`
    select v.workspace_id as id, v.version as version from status_versions v where v.workspace_id = ${workspaceId}
    union all
    select v.workspace_id, v.version
    from workspace_remotes r join status_versions v on v.workspace_id = r.remote_workspace_id
    where r.workspace_id = ${workspaceId}
  `.execute(db);
  return rows
    .map((row) => `${row.id}=${row.version}`)
    .sort()
    .join(',');
}
