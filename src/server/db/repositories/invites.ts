import type { InviteRow } from '../schema.js';
import { pageAndCount, type Paged } from './paging.js';
import { escapeLike, searchTerm } from './search.js';
import type { SearchPage } from './users.js';
import type { Db } from './workspaces.js';
import { sql } from 'kysely';

export async function insertInvite(db: Db, row: InviteRow): Promise<void> {
  await db.insertInto('invites').values(row).execute();
}

export function findInvite(db: Db, workspaceId: string, id: string): Promise<InviteRow | undefined> {
  return db
    .selectFrom('invites')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findPendingInviteByEmail(db: Db, workspaceId: string, email: string): Promise<InviteRow | undefined> {
  return db
    .selectFrom('invites')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
}

export function listPendingInvites(db: Db, workspaceId: string, page: SearchPage): Promise<Paged<InviteRow>> {
  let query = db.selectFrom('invites').where('workspace_id', '=', workspaceId).where('accepted_at', 'is', null);
  const q = searchTerm(page.q);
  if (q) query = query.where('email', 'like', sql<string>`${`%${escapeLike(q)}%`} escape '\\'`);
  return pageAndCount(
    query.selectAll().orderBy('last_sent', 'desc').orderBy('id').limit(page.limit).offset(page.cursor).execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  );
}

export async function renewInvite(
  db: Db,
  workspaceId: string,
  id: string,
  codeHash: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('invites')
    .set({ code_hash: codeHash, last_sent: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** Marks an invite accepted; false when it was accepted already (single use, race-safe). */
export async function acceptInvite(db: Db, workspaceId: string, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('invites')
    .set({ accepted_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
