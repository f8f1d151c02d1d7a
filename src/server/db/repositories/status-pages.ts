import { CompiledQuery } from 'kysely';
import { isSqlite, sideReaderOf } from '../connect.js';
import type { Health } from '../../../domain/catalogue.js';
import type { StatusPageComponentsTable, StatusPageRow, StatusPagesTable, NoticesTable } from '../schema.js';
import type { Db } from './workspaces.js';

/** Status pages (docs/decisions.md#status-pages): settings, components, and what a page shows, read per workspace. */

export function listStatusPageRows(db: Db, workspaceId: string): Promise<StatusPageRow[]> {
  return db.selectFrom('status_pages').selectAll().where('workspace_id', '=', workspaceId).orderBy('title').execute();
}

/** The workspace's public pages (subscribers have no account: only these tell them news). */
export function listPublicStatusPages(db: Db, workspaceId: string): Promise<StatusPageRow[]> {
  return db
    .selectFrom('status_pages')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('access', '=', 'public')
    .execute();
}

/** What a subscriber is told of a notice's service. */
export function findServiceOfNews(db: Db, workspaceId: string, serviceId: string) {
  return db
    .selectFrom('services')
    .select(['id', 'handle', 'name', 'visibility', 'health'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', serviceId)
    .executeTakeFirst();
}

export function findStatusPage(db: Db, workspaceId: string, handle: string): Promise<StatusPageRow | undefined> {
  return db
    .selectFrom('status_pages')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('handle', '=', handle)
    .executeTakeFirst();
}

/** The page holding `domain` verified (at most one: migration 039's unique index). */
export function findVerifiedPageByDomain(db: Db, domain: string): Promise<StatusPageRow | undefined> {
  return db
    .selectFrom('status_pages')
    .selectAll()
    .where('custom_domain', '=', domain)
    .where('custom_domain_verified_at', 'is not', null)
    .executeTakeFirst();
}

/** Whether some page names `domain`, proved or not. */
export async function isDomainNamed(db: Db, domain: string): Promise<boolean> {
  const row = await db
    .selectFrom('status_pages')
    .select('id')
    .where('custom_domain', '=', domain)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Pages whose custom domain is due to be looked for again, the longest due first. */
export function dueDomainChecks(db: Db, now: number, limit: number): Promise<StatusPageRow[]> {
  return db
    .selectFrom('status_pages')
    .selectAll()
    .where('custom_domain_next_check_at', '<=', now)
    .where('custom_domain', 'is not', null)
    .orderBy('custom_domain_next_check_at')
    .limit(limit)
    .execute();
}

/**
 * Claims a page's due domain check by moving its next check on to `nextCheckAt`; false when another process moved
 * it first (the row no longer has the `dueAt` it was read with).
 */
export async function claimDomainCheck(
  db: Db,
  id: string,
  dueAt: StatusPageRow['custom_domain_next_check_at'],
  nextCheckAt: number,
): Promise<boolean> {
  const claimed = await db
    .updateTable('status_pages')
    .set({ custom_domain_next_check_at: nextCheckAt })
    .where('id', '=', id)
    .where('custom_domain_next_check_at', '=', dueAt)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0;
}

/** A status subscription's sealed webhook secret; undefined once it is gone (unsubscribed or removed). */
export async function subscriptionSecretOf(db: Db, subscriptionId: string): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('status_subscriptions')
    .select(['secret_sealed'])
    .where('id', '=', subscriptionId)
    .executeTakeFirst();
  return row?.secret_sealed;
}

/** Forgets status page news told (or given up) before `before`, ISO time. */
export async function deleteToldNews(db: Db, before: string): Promise<void> {
  await db.deleteFrom('status_news').where('status', '!=', 'pending').where('created_at', '<', before).execute();
}

export function findStatusPageById(db: Db, id: string): Promise<StatusPageRow | undefined> {
  return db.selectFrom('status_pages').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertStatusPage(db: Db, row: StatusPagesTable): Promise<void> {
  await db.insertInto('status_pages').values(row).execute();
}

export async function updateStatusPageRow(db: Db, id: string, patch: Partial<StatusPagesTable>): Promise<void> {
  await db.updateTable('status_pages').set(patch).where('id', '=', id).execute();
}

/** Writes a domain check's outcome, unless the page's domain or token changed since the check read them. */
export async function updateDomainCheck(
  db: Db,
  id: string,
  checked: { domain: string; token: string },
  patch: Partial<StatusPagesTable>,
): Promise<void> {
  await db
    .updateTable('status_pages')
    .set(patch)
    .where('id', '=', id)
    .where('custom_domain', '=', checked.domain)
    .where('custom_domain_token', '=', checked.token)
    .execute();
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

/** What a request for a status page reads first: which page it is, and what the page was made from. */
export interface StatusPageProbe {
  workspace_id: string;
  workspace_domain: string;
  workspace_status: string;
  page_id: string;
  page_handle: string;
  /** The status versions of the workspace and of those it links to (migration 025), in one text: a page made at them holds while they stay. */
  versions: string;
}

/** A workspace's part of a probe, read again by its id once the page is known. */
export type WorkspaceProbe = Pick<StatusPageProbe, 'workspace_domain' | 'workspace_status' | 'versions'>;

type ProbeBy = 'host' | 'custom domain' | 'workspace';

/**
 * The probe's SQL. Read by a workspace's id, it is one search by primary key and two by their tables' keys,
 * with no choice of plan left: SQLite (built with STAT4) prepares a statement again whenever a bound value
 * could change its plan, which made the joins by host or domain cost ten times as much once ANALYZE had run.
 * Those run only when a page is first asked for, or after something on it changed.
 */
function probeText(engine: 'sqlite' | 'postgres', by: ProbeBy): string {
  const param = (n: number) => (engine === 'sqlite' ? '?' : `$${n}`);
  const remote = `r.remote_workspace_id || '=' || v.version`;
  // In the order of the remotes' key, the primary key's own order.
  const linked = `from workspace_remotes r join status_versions v on v.workspace_id = r.remote_workspace_id
    where r.workspace_id = w.id`;
  const remotes =
    engine === 'sqlite'
      ? `(select group_concat(${remote}, ',') ${linked})`
      : `(select string_agg(${remote}, ',' order by r.remote_workspace_id) ${linked})`;
  const own = `(select v.version from status_versions v where v.workspace_id = w.id)`;
  const workspace = `w.domain as workspace_domain, w.status as workspace_status,
    coalesce(${own}, 0) || ';' || coalesce(${remotes}, '') as versions`;
  if (by === 'workspace') return `select ${workspace} from workspaces w where w.id = ${param(1)}`;
  const from =
    by === 'host'
      ? `from workspaces w join status_pages p on p.workspace_id = w.id
         where w.domain = ${param(1)} and p.handle = ${param(2)}`
      : // Only a proved domain serves its page (migration 039's partial unique index finds it).
        `from status_pages p join workspaces w on w.id = p.workspace_id
         where p.custom_domain = ${param(1)} and p.custom_domain_verified_at is not null`;
  return `select w.id as workspace_id, p.id as page_id, p.handle as page_handle, ${workspace} ${from}`;
}

const PROBES = {
  sqlite: {
    host: probeText('sqlite', 'host'),
    'custom domain': probeText('sqlite', 'custom domain'),
    workspace: probeText('sqlite', 'workspace'),
  },
  postgres: {
    host: probeText('postgres', 'host'),
    'custom domain': probeText('postgres', 'custom domain'),
    workspace: probeText('postgres', 'workspace'),
  },
};

async function probe<T extends { versions: string }>(db: Db, by: ProbeBy, values: readonly string[]) {
  const side = sideReaderOf(db);
  if (side) return side.row(PROBES.sqlite[by], values) as T | undefined;
  const text = PROBES[isSqlite(db) ? 'sqlite' : 'postgres'][by];
  const { rows } = await db.executeQuery<T>(CompiledQuery.raw(text, [...values]));
  return rows[0] && { ...rows[0], versions: String(rows[0].versions) };
}

/**
 * The page a request names, by its workspace's host label and handle or by its custom domain, with the versions
 * in one read: synchronous where it can be (SQLite's side reader). Undefined when there is no such page.
 */
export function probeStatusPage(
  db: Db,
  by: 'host' | 'custom domain',
  values: readonly string[],
): Promise<StatusPageProbe | undefined> {
  return probe<StatusPageProbe>(db, by, values);
}

/** A known page's workspace read again (its domain, status and versions): what every later request costs. */
export function probeWorkspace(db: Db, workspaceId: string): Promise<WorkspaceProbe | undefined> {
  return probe<WorkspaceProbe>(db, 'workspace', [workspaceId]);
}
