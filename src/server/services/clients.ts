import { randomBytes, randomUUID } from 'node:crypto';
import type { Client, ClientCreate, ClientUpdate } from '../../contract/clients.js';
import { isoNow, type ServerContext } from '../context.js';
import {
  clientHandleTaken,
  deleteClient as deleteClientRow,
  findTeamClient,
  insertClient,
  listTeamClients,
  updateClient as updateClientRow,
} from '../db/repositories/clients.js';
import type { ClientRow } from '../db/schema.js';
import { notFound } from '../errors.js';
import type { Caller } from './auth.js';
import { chooseHandle, withFreeHandle } from './handles.js';
import { randomToken, sha256 } from './secrets.js';
import { adminTeam } from './teams.js';

/**
 * Team API clients (spec/catalogue.md sections 2.3, 3, 5 and 7): team admins (and workspace admins and owners)
 * only. The secret is shown once, in the answer to create or update-secret; only its SHA-256 is stored (a
 * 256-bit random secret needs no slow hash). A new secret, or deleting the client, revokes its tokens.
 */
const CLIENT_NOT_FOUND = 'The client was not found';

function toClient(row: ClientRow, team: { id: string; handle: string }, secret?: string): Client {
  return {
    id: row.id,
    handle: row.handle,
    name: row.name,
    description: row.description,
    scopes: JSON.parse(row.scopes) as Client['scopes'],
    client_id: row.client_id,
    ...(secret !== undefined ? { client_secret: secret } : {}),
    team: { id: team.id, handle: team.handle },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function listClients(ctx: ServerContext, caller: Caller, teamIdOrHandle: string): Promise<Client[]> {
  const team = await adminTeam(ctx, caller, teamIdOrHandle);
  const rows = await listTeamClients(ctx.database.db, caller.workspace.id, team.id);
  return rows.map((row) => toClient(row, team));
}

async function teamClient(ctx: ServerContext, caller: Caller, teamIdOrHandle: string, handle: string) {
  const team = await adminTeam(ctx, caller, teamIdOrHandle);
  const row = await findTeamClient(ctx.database.db, caller.workspace.id, team.id, handle);
  if (!row) throw notFound(CLIENT_NOT_FOUND);
  return { team, row };
}

export async function getClient(ctx: ServerContext, caller: Caller, teamIdOrHandle: string, handle: string) {
  const { team, row } = await teamClient(ctx, caller, teamIdOrHandle, handle);
  return toClient(row, team);
}

export async function createClient(
  ctx: ServerContext,
  caller: Caller,
  teamIdOrHandle: string,
  input: ClientCreate,
): Promise<Client> {
  const team = await adminTeam(ctx, caller, teamIdOrHandle);
  const { db } = ctx.database;
  const workspaceId = caller.workspace.id;
  const taken = (handle: string) => clientHandleTaken(db, workspaceId, handle);
  const handle = await chooseHandle(input, 'client', taken);
  const secret = randomToken();
  const now = isoNow(ctx);
  const row: ClientRow = {
    id: randomUUID(),
    workspace_id: workspaceId,
    team_id: team.id,
    handle,
    name: input.name,
    description: input.description,
    scopes: JSON.stringify(input.scopes),
    client_id: randomBytes(18).toString('base64url'),
    secret_hash: sha256(secret),
    secret_version: 1,
    created_at: now,
    updated_at: now,
  };
  await withFreeHandle(
    () => taken(handle),
    () => insertClient(db, row),
  );
  return toClient(row, team, secret);
}

export async function updateClient(
  ctx: ServerContext,
  caller: Caller,
  teamIdOrHandle: string,
  handle: string,
  input: ClientUpdate,
): Promise<Client> {
  const { team, row } = await teamClient(ctx, caller, teamIdOrHandle, handle);
  const patch = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.scopes !== undefined ? { scopes: JSON.stringify(input.scopes) } : {}),
  };
  if (Object.keys(patch).length === 0) return toClient(row, team);
  const updated = { ...row, ...patch, updated_at: isoNow(ctx) };
  await updateClientRow(ctx.database.db, caller.workspace.id, row.id, { ...patch, updated_at: updated.updated_at });
  // Narrower scopes apply to live tokens at once.
  if (input.scopes !== undefined) ctx.callers.forgetClient(row.id);
  return toClient(updated, team);
}

/** A new secret, shown once; tokens issued with the old one stop working. */
export async function updateClientSecret(
  ctx: ServerContext,
  caller: Caller,
  teamIdOrHandle: string,
  handle: string,
): Promise<Client> {
  const { team, row } = await teamClient(ctx, caller, teamIdOrHandle, handle);
  const secret = randomToken();
  const patch = { secret_hash: sha256(secret), secret_version: row.secret_version + 1, updated_at: isoNow(ctx) };
  await updateClientRow(ctx.database.db, caller.workspace.id, row.id, patch);
  ctx.callers.forgetClient(row.id);
  return toClient({ ...row, ...patch }, team, secret);
}

export async function deleteClient(ctx: ServerContext, caller: Caller, teamIdOrHandle: string, handle: string) {
  const { row } = await teamClient(ctx, caller, teamIdOrHandle, handle);
  await deleteClientRow(ctx.database.db, caller.workspace.id, row.id);
  ctx.callers.forgetClient(row.id);
}
