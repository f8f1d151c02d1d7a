import type { Insertable, Selectable } from 'kysely';
import type { NoticeType } from '../../../domain/notices.js';
import type { NoticeHistoryTable, NoticesTable } from '../schema.js';
import { pageAndCount, type Paged } from './paging.js';
import type { Db } from './workspaces.js';

export type NoticeRow = Selectable<NoticesTable>;
export type NoticeHistoryRow = Selectable<NoticeHistoryTable>;

export interface NoticeListFilter {
  types: readonly NoticeType[];
  /** true: open notices only; false: closed only; undefined: both. */
  open?: boolean;
}

/** A service's notices matching the filter, newest first, with the total. */
export function listNotices(
  db: Db,
  workspaceId: string,
  serviceId: string,
  filter: NoticeListFilter,
  page: { cursor: number; limit: number },
): Promise<Paged<NoticeRow>> {
  // No type asked for (`type=`): nothing matches, as in the app's filter; PostgreSQL refuses an empty `in ()`.
  if (filter.types.length === 0) return Promise.resolve({ rows: [], total: 0 });
  let base = db
    .selectFrom('notices')
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId)
    .where('type', 'in', [...filter.types]);
  if (filter.open !== undefined) base = base.where('open', '=', filter.open ? 1 : 0);
  return pageAndCount(
    base.selectAll().orderBy('created_at', 'desc').orderBy('id').offset(page.cursor).limit(page.limit).execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  );
}

export function findNotice(db: Db, workspaceId: string, id: string): Promise<NoticeRow | undefined> {
  return db
    .selectFrom('notices')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Open maintenance windows, across workspaces, that start within [from, soonTo] or end within [from, endTo]
 * (ISO times): what jobs/maintenance-reminders.ts may have to tell.
 */
export function listMaintenanceWindowsDue(db: Db, range: { from: string; soonTo: string; endTo: string }) {
  const { from, soonTo, endTo } = range;
  return db
    .selectFrom('notices')
    .select(['id', 'workspace_id', 'service_id', 'type', 'title', 'status', 'open', 'starts_at', 'ends_at'])
    .where('type', '=', 'maintenance')
    .where('open', '=', 1)
    .where((eb) =>
      eb.or([
        eb.and([eb('starts_at', '>=', from), eb('starts_at', '<=', soonTo)]),
        eb.and([eb('ends_at', '>=', from), eb('ends_at', '<=', endTo)]),
      ]),
    )
    .execute();
}

/** The history of each notice, oldest first. */
export async function listNoticeHistory(db: Db, noticeIds: string[]): Promise<Map<string, NoticeHistoryRow[]>> {
  const byNotice = new Map<string, NoticeHistoryRow[]>(noticeIds.map((id) => [id, []]));
  if (noticeIds.length === 0) return byNotice;
  const rows = await db
    .selectFrom('notice_history')
    .selectAll()
    .where('notice_id', 'in', noticeIds)
    .orderBy('notice_id')
    .orderBy('seq')
    .execute();
  for (const row of rows) byNotice.get(row.notice_id)?.push(row);
  return byNotice;
}

export async function insertNotice(db: Db, row: Insertable<NoticesTable>): Promise<void> {
  await db.insertInto('notices').values(row).execute();
}

export async function updateNotice(
  db: Db,
  workspaceId: string,
  id: string,
  patch: Pick<NoticesTable, 'status' | 'open' | 'updated_at'> & { health?: NoticesTable['health'] },
): Promise<void> {
  await db.updateTable('notices').set(patch).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/** Appends a history entry after the last one. */
export async function appendNoticeHistory(db: Db, entry: Omit<NoticeHistoryTable, 'seq'>): Promise<void> {
  const last = await db
    .selectFrom('notice_history')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('notice_id', '=', entry.notice_id)
    .executeTakeFirst();
  const seq = last?.seq === null || last?.seq === undefined ? 0 : Number(last.seq) + 1;
  await db
    .insertInto('notice_history')
    .values({ ...entry, seq })
    .execute();
}
