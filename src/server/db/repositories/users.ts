import { randomUUID } from 'node:crypto';
import { isSqlite } from '../connect.js';
import { precompile } from '../precompiled.js';
import type { NewUser, UserPatch, UserRow } from '../schema.js';
import { pageAndCount, precompiledPage, type Paged } from './paging.js';
import { searchTerm, whereSearchTextContains } from './search.js';
import type { Db } from './workspaces.js';

const userByHandle = precompile<{ workspaceId: string; handle: string }, UserRow>((db, param) =>
  db
    .selectFrom('users')
    .selectAll()
    .where('workspace_id', '=', param('workspaceId'))
    .where('handle', '=', param('handle')),
);

export async function findUserByHandle(db: Db, workspaceId: string, handle: string): Promise<UserRow | undefined> {
  return (await userByHandle(db, { workspaceId, handle }))[0];
}

/**
 * Paths that name a user by id also accept the handle (docs/decisions.md#api-conventions). Two indexed lookups: an
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

/** The workspace's users of these ids (those that exist): id, handle and name. */
export function listUserRefsByIds(db: Db, workspaceId: string, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .select(['id', 'handle', 'name'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...ids])
    .execute();
}

/** The workspace's users of these handles (those that exist): id, handle and name. */
export function listUsersByHandles(db: Db, workspaceId: string, handles: readonly string[]) {
  // PostgreSQL refuses an empty `in ()`.
  if (handles.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .select(['id', 'handle', 'name'])
    .where('workspace_id', '=', workspaceId)
    .where('handle', 'in', handles)
    .execute();
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

/**
 * Inside a guarded transaction (db/transactions.ts): waits for any other change of this workspace's roles and
 * keeps the next ones waiting until commit. PostgreSQL locks the workspace row (NO KEY UPDATE: inserts that
 * reference the workspace go on); SQLite's IMMEDIATE transaction already holds the write lock.
 */
export async function lockWorkspaceRoles(db: Db, workspaceId: string): Promise<void> {
  if (isSqlite(db)) return;
  await db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forNoKeyUpdate().execute();
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
const USER_COLUMNS = [
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

type UsersPageValues = { workspaceId: string; limit: number; offset: number };

/** Every user of the workspace, a page by name, and how many there are (no `q`: the common read). */
const everyUserPage = precompiledPage(
  precompile<UsersPageValues, UserRow>((db, param) =>
    db
      .selectFrom('users')
      .where('users.workspace_id', '=', param('workspaceId'))
      .select(USER_COLUMNS)
      .orderBy('users.name')
      .orderBy('users.handle')
      .limit(param('limit'))
      .offset(param('offset')),
  ),
  precompile<UsersPageValues, { n: number | string }>((db, param) =>
    db
      .selectFrom('users')
      .where('users.workspace_id', '=', param('workspaceId'))
      .select((eb) => eb.fn.countAll<number | string>().as('n')),
  ),
);

/**
 * Users of one workspace whose name, handle or email contains `q`, ordered by name, with the total (a page and
 * a count).
 */
export async function searchUsers(db: Db, workspaceId: string, page: SearchPage): Promise<Paged<UserRow>> {
  if (!searchTerm(page.q)) return everyUserPage(db, { workspaceId, limit: page.limit, offset: page.cursor });
  const ofWorkspace = db.selectFrom('users').where('users.workspace_id', '=', workspaceId);
  const query = whereSearchTextContains(db, ofWorkspace, 'users', page.q);
  // The page stops after `limit` rows in name order; a window count would read and sort every user each time.
  return pageAndCount(
    query
      .select(USER_COLUMNS)
      .orderBy('users.name')
      .orderBy('users.handle')
      .limit(page.limit)
      .offset(page.cursor)
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  );
}
