import type { Kysely } from 'kysely';
import type { Database, WorkspaceRow } from '../schema.js';

export type Db = Kysely<Database>;

export function findWorkspaceByDomain(db: Db, domain: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('domain', '=', domain).executeTakeFirst();
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
