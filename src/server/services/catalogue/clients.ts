import { randomBytes, randomUUID } from 'node:crypto';
import type { Client, ClientCreate, ClientUpdate } from '../../../contract/clients.js';
import { isoNow, type ServerContext } from '../../context.js';
import {
  clientHandleTaken,
  deleteClient as deleteClientRow,
  findTeamClient,
  insertClient,
  listTeamClients,
  scopesOfClient,
  updateClient as updateClientRow,
} from '../../db/repositories/clients.js';
import type { ClientRow } from '../../db/schema.js';
import { isAdminRole } from '../../../domain/roles.js';
import { workspaceWideScopes, type ClientScope } from '../../../domain/scopes.js';
import { forbidden, notFound } from '../../errors.js';
import type { Caller } from '../accounts/auth.js';
import { chooseHandle, withFreeHandle } from './handles.js';
import { randomToken, sha256 } from '../../crypto/secrets.js';
import { adminTeam } from './teams.js';
import { callersOf } from '../../cache/caller-cache.js';

/**
 * Team API clients (spec/catalogue.md sections 2.3, 3, 5 and 7): team admins (and workspace admins and owners)
 * only. The secret is shown once, in the answer to create or update-secret; only its SHA-256 is stored (a
 * 256-bit random secret needs no slow hash). A new secret, or deleting the client, revokes its tokens.
 */
const CLIENT_NOT_FOUND = 'The client was not found';

/**
 * A client never holds more than the person who made it may do (docs/api.md, "API clients"): the scopes of
 * `asked` that reach beyond the team and that `caller` may not grant, when it is not a workspace admin or owner.
 * `held` are those the client holds already (and may keep through an edit of something else).
 */
function refuseUngrantable(caller: Caller, asked: readonly ClientScope[], held: readonly string[] = []): void {
  if (isAdminRole(caller.user.role)) return;
  const granted = workspaceWideScopes(asked).filter((scope) => !held.includes(scope));
  if (granted.length > 0) {
    throw forbidden(`Only a workspace admin or owner can grant the scope ${granted.join(', ')}`);
  }
}

/** Who the client's workspace-wide scopes are granted by: the caller when it holds any, else nobody. */
function grantedBy(caller: Caller, scopes: readonly string[]): string | null {
  return workspaceWideScopes(scopes).length > 0 ? caller.user.id : null;
}

/** Whether `scopes` hold the same workspace-wide scopes as the client does (a team admin's edit keeps its granter). */
function sameWideScopes(row: ClientRow, scopes: readonly string[]): boolean {
  const before = workspaceWideScopes(scopesOfClient(row));
  const after = workspaceWideScopes(scopes);
  return before.length === after.length && before.every((scope) => after.includes(scope));
}

function toClient(row: ClientRow, team: { id: string; handle: string }, secret?: string): Client {
  return {
    id: row.id,
    handle: row.handle,
    name: row.name,
    description: row.description,
    scopes: scopesOfClient(row) as Client['scopes'],
    client_id: row.client_id,
    ...(secret !== undefined ? { client_secret: secret } : {}),
    team: { id: team.id, handle: team.handle },
    disabled_reason: row.disabled_reason,
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
  refuseUngrantable(caller, input.scopes);
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
    granted_by: grantedBy(caller, input.scopes),
    disabled_reason: null,
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
  // A disabled client's scopes are not held: granting them again is a grant.
  if (input.scopes !== undefined)
    refuseUngrantable(caller, input.scopes, row.disabled_reason ? [] : scopesOfClient(row));
  const patch = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    // New scopes are granted by whoever sets them, which ends a disabling (what was refused is granted or gone).
    ...(input.scopes !== undefined
      ? {
          scopes: JSON.stringify(input.scopes),
          granted_by:
            sameWideScopes(row, input.scopes) && !row.disabled_reason
              ? row.granted_by
              : grantedBy(caller, input.scopes),
          disabled_reason: null,
        }
      : {}),
  };
  if (Object.keys(patch).length === 0) return toClient(row, team);
  const updated = { ...row, ...patch, updated_at: isoNow(ctx) };
  await updateClientRow(ctx.database.db, caller.workspace.id, row.id, { ...patch, updated_at: updated.updated_at });
  // Narrower scopes apply to live tokens at once.
  if (input.scopes !== undefined) callersOf(ctx).forgetClient(row.id);
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
  const wide = workspaceWideScopes(scopesOfClient(row));
  if (wide.length > 0 && !isAdminRole(caller.user.role)) {
    throw forbidden(
      `Only a workspace admin or owner can rotate the secret of a client with the scope ${wide.join(', ')}`,
    );
  }
  const secret = randomToken();
  const patch = { secret_hash: sha256(secret), secret_version: row.secret_version + 1, updated_at: isoNow(ctx) };
  await updateClientRow(ctx.database.db, caller.workspace.id, row.id, patch);
  callersOf(ctx).forgetClient(row.id);
  return toClient({ ...row, ...patch }, team, secret);
}

export async function deleteClient(ctx: ServerContext, caller: Caller, teamIdOrHandle: string, handle: string) {
  const { row } = await teamClient(ctx, caller, teamIdOrHandle, handle);
  await deleteClientRow(ctx.database.db, caller.workspace.id, row.id);
  callersOf(ctx).forgetClient(row.id);
}
