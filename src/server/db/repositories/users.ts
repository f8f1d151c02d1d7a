import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { NewUser, UserPatch, UserRow } from '../schema.js';
import { isSqlite } from '../connect.js';
import type { Db } from './workspaces.js';

export function findUserByHandle(db: Db, workspaceId: string, handle: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('handle', '=', handle)
    .executeTakeFirst();
}

/**
 * Paths that name a user by id also accept the handle (DESIGN.md section 4a). Two indexed lookups: an
 * `id = ? or handle = ?` condition would scan the workspace's users.
 */
export async function findUserByIdOrHandle(
  db: Db,
  workspaceId: string,
  idOrHandle: string,
): Promise<UserRow | undefined> {
  return (
    (await findUserByHandle(db, workspaceId, idOrHandle)) ??
    db
      .selectFrom('users')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', idOrHandle)
      .executeTakeFirst()
  );
}

export function findUserByEmail(db: Db, workspaceId: string, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
}

/** A new user row: the given identity, everything else empty. */
export function newUserRow(
  fields: Pick<NewUser, 'workspace_id' | 'handle' | 'name' | 'email' | 'password_hash' | 'role'> &
    Partial<Pick<NewUser, 'id' | 'super_admin' | 'bio' | 'description' | 'created_at'>>,
): NewUser {
  return {
    id: fields.id ?? randomUUID(),
    bio: null,
    profile: null,
    description: null,
    icon_asset_id: null,
    super_admin: 0,
    last_login: null,
    created_at: new Date().toISOString(),
    ...fields,
    email: fields.email.toLowerCase(),
  };
}

export async function insertUser(db: Db, row: NewUser): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function updateUser(db: Db, workspaceId: string, id: string, patch: UserPatch): Promise<void> {
  await db.updateTable('users').set(patch).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

export async function deleteUser(db: Db, workspaceId: string, id: string): Promise<void> {
  await db.deleteFrom('users').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

export async function countOwners(db: Db, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface SearchPage {
  q?: string;
  cursor: number;
  limit: number;
}

/** The user columns (never the generated search text). */
export const USER_COLUMNS = [
  'users.id',
  'users.workspace_id',
  'users.handle',
  'users.name',
  'users.email',
  'users.password_hash',
  'users.bio',
  'users.profile',
  'users.description',
  'users.icon_asset_id',
  'users.role',
  'users.super_admin',
  'users.last_login',
  'users.created_at',
] as const;

/**
 * Users of one workspace whose name, handle or email contains `q`, ordered by name, with the total, in one
 * query (a window count). On SQLite the trigram FTS index finds the candidates; on PostgreSQL the pg_trgm
 * index serves the LIKE directly.
 */
export async function searchUsers(
  db: Db,
  workspaceId: string,
  page: SearchPage,
): Promise<{ rows: UserRow[]; total: number }> {
  let query = db.selectFrom('users').where('users.workspace_id', '=', workspaceId);
  const q = page.q?.trim().toLowerCase();
  if (q) {
    const literal = !/[\\%_]/.test(q);
    if (isSqlite(db) && literal) {
      // Joined (not `rowid in (...)`) so the planner starts from the few index hits, not the workspace's users.
      // FTS5's trigram LIKE takes no ESCAPE clause, so only plain text goes through the index.
      query = query
        .innerJoin('users_fts', (join) => join.on(sql<boolean>`users_fts.rowid = users.rowid`))
        .where('users_fts.search_text', 'like', `%${q}%`);
    } else {
      query = query.where(sql<boolean>`users.search_text like ${`%${escapeLike(q)}%`} escape '\\'`);
    }
  }
  const rows = await query
    .select(USER_COLUMNS)
    .select(sql<number | string>`count(*) over ()`.as('total'))
    .orderBy('users.name')
    .orderBy('users.handle')
    .limit(page.limit)
    .offset(page.cursor)
    .execute();
  if (rows.length > 0) {
    return { rows: rows.map(({ total: _total, ...user }) => user), total: Number(rows[0]!.total) };
  }
  // Past the last page the window has no row to ride on; count separately.
  const count =
    page.cursor > 0
      ? await query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()
      : { n: 0 };
  return { rows: [], total: Number(count.n) };
}

/** Escapes LIKE wildcards so a search for "50%" means the text. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
