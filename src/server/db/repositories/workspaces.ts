import type { Kysely } from 'kysely';
import type { Database, WorkspaceRow } from '../schema.js';

export type Db = Kysely<Database>;

/** A workspace's columns renamed `ws_*`, for a query that returns another row with its workspace. */
export const JOINED_WORKSPACE_COLUMNS = [
  'workspaces.domain as ws_domain',
  'workspaces.name as ws_name',
  'workspaces.status as ws_status',
  'workspaces.login as ws_login',
  'workspaces.created_at as ws_created_at',
] as const;

export interface JoinedWorkspace {
  workspace_id: string;
  ws_domain: string;
  ws_name: string;
  ws_status: WorkspaceRow['status'];
  ws_login: string | null;
  ws_created_at: string;
}

/** Splits a row selected with JOINED_WORKSPACE_COLUMNS into the row itself and its workspace. */
export function splitJoinedWorkspace<R extends JoinedWorkspace>(joined: R) {
  const { ws_domain, ws_name, ws_status, ws_login, ws_created_at, ...row } = joined;
  const workspace: WorkspaceRow = {
    id: joined.workspace_id,
    domain: ws_domain,
    name: ws_name,
    status: ws_status,
    login: ws_login,
    created_at: ws_created_at,
  };
  return { row, workspace };
}

export function findWorkspaceByDomain(db: Db, domain: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('domain', '=', domain).executeTakeFirst();
}

export function findWorkspaceById(db: Db, id: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertWorkspace(db: Db, row: WorkspaceRow): Promise<void> {
  await db.insertInto('workspaces').values(row).execute();
}

export async function setWorkspaceStatus(db: Db, id: string, status: WorkspaceRow['status']): Promise<void> {
  await db.updateTable('workspaces').set({ status }).where('id', '=', id).execute();
}

export async function countWorkspaces(db: Db): Promise<number> {
  const row = await db
    .selectFrom('workspaces')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
