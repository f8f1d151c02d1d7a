import type { Updateable } from 'kysely';
import type { ClientRow, ClientsTable, WorkspaceRow } from '../schema.js';
import { JOINED_WORKSPACE_COLUMNS, splitJoinedWorkspace, type Db } from './workspaces.js';

export async function insertClient(db: Db, row: ClientRow): Promise<void> {
  await db.insertInto('clients').values(row).execute();
}

/** A client row's scopes: the column holds them as a JSON array. */
export function scopesOfClient(row: Pick<ClientRow, 'scopes'>): string[] {
  return JSON.parse(row.scopes) as string[];
}

/** A team's clients by name. */
export function listTeamClients(db: Db, workspaceId: string, teamId: string): Promise<ClientRow[]> {
  return db
    .selectFrom('clients')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('team_id', '=', teamId)
    .orderBy('name')
    .orderBy('handle')
    .execute();
}

/** Paths name a client by handle; its client_id is accepted too. */
export async function findTeamClient(
  db: Db,
  workspaceId: string,
  teamId: string,
  handleOrClientId: string,
): Promise<ClientRow | undefined> {
  const ofTeam = db
    .selectFrom('clients')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('team_id', '=', teamId);
  return (
    (await ofTeam.where('handle', '=', handleOrClientId).executeTakeFirst()) ??
    ofTeam.where('client_id', '=', handleOrClientId).executeTakeFirst()
  );
}

export async function clientHandleTaken(db: Db, workspaceId: string, handle: string): Promise<boolean> {
  const row = await db
    .selectFrom('clients')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('handle', '=', handle)
    .executeTakeFirst();
  return Boolean(row);
}

/** The client behind a client_id on the workspace named by `domain`, with the workspace (one query). */
export async function findClientOnWorkspace(
  db: Db,
  by: { clientId: string } | { id: string },
  domain: string,
): Promise<{ client: ClientRow; workspace: WorkspaceRow } | undefined> {
  const row = await db
    .selectFrom('clients')
    .innerJoin('workspaces', 'workspaces.id', 'clients.workspace_id')
    .selectAll('clients')
    .select(JOINED_WORKSPACE_COLUMNS)
    .$if('clientId' in by, (qb) => qb.where('clients.client_id', '=', (by as { clientId: string }).clientId))
    .$if('id' in by, (qb) => qb.where('clients.id', '=', (by as { id: string }).id))
    .where('workspaces.domain', '=', domain)
    .executeTakeFirst();
  if (!row) return undefined;
  const { row: client, workspace } = splitJoinedWorkspace(row);
  return { client, workspace };
}

export type ClientPatch = Omit<
  Updateable<ClientsTable>,
  'id' | 'workspace_id' | 'team_id' | 'client_id' | 'created_at'
>;

export async function updateClient(db: Db, workspaceId: string, id: string, patch: ClientPatch): Promise<void> {
  await db.updateTable('clients').set(patch).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

export async function deleteClient(db: Db, workspaceId: string, id: string): Promise<void> {
  await db.deleteFrom('clients').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/**
 * Disables the clients whose workspace-wide scopes `userId` granted (they lost the right to grant them): a new
 * secret version revokes their live tokens. Answers the clients disabled.
 */
export async function disableClientsGrantedBy(
  db: Db,
  workspaceId: string,
  userId: string,
  reason: string,
  now: string,
): Promise<ClientRow[]> {
  const rows = await db
    .selectFrom('clients')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('granted_by', '=', userId)
    .where('disabled_reason', 'is', null)
    .execute();
  if (rows.length === 0) return [];
  await db
    .updateTable('clients')
    .set((eb) => ({ disabled_reason: reason, secret_version: eb('secret_version', '+', 1), updated_at: now }))
    .where('workspace_id', '=', workspaceId)
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  return rows;
}
