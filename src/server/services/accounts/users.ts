import type { User } from '../../../contract/accounts.js';
import { isAdminRole, roleChangeDenial, type Role } from '../../../domain/roles.js';
import { workspaceWideScopes } from '../../../domain/scopes.js';
import { isoNow, type ServerContext } from '../../context.js';
import { removeIcon, replaceIcon } from './icons.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { deleteAsset } from '../../db/repositories/assets.js';
import { disableClientsGrantedBy, scopesOfClient } from '../../db/repositories/clients.js';
import { recordEvent } from '../events/record-event.js';
import { revokeUserSessions } from '../../db/repositories/sessions.js';
import { guardedTransaction } from '../../db/transactions.js';
import {
  countOwners,
  deleteUser as deleteUserRow,
  findUserByIdOrHandle,
  lockWorkspaceRoles,
  searchUsers as searchUserRows,
  updateUser as updateUserRow,
  type SearchPage,
} from '../../db/repositories/users.js';
import type { Db } from '../../db/repositories/workspaces.js';
import type { UserRow } from '../../db/schema.js';
import type { Caller } from './auth.js';
import { callersOf } from '../../cache/caller-cache.js';

export function assetUrl(assetId: string | null): string | null {
  return assetId ? `/api/assets/${assetId}` : null;
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    handle: row.handle,
    name: row.name,
    email: row.email,
    bio: row.bio,
    profile: row.profile,
    description: row.description,
    thumbnail_url: assetUrl(row.icon_asset_id),
    last_login: row.last_login,
    role: row.role,
    super_admin: row.super_admin === 1,
  };
}

export async function findUserOr404(ctx: ServerContext, workspaceId: string, idOrHandle: string): Promise<UserRow> {
  const user = await findUserByIdOrHandle(ctx.database.db, workspaceId, idOrHandle);
  if (!user) throw notFound('User not found');
  return user;
}

export async function getUser(ctx: ServerContext, caller: Caller, idOrHandle: string): Promise<User> {
  return toUser(await findUserOr404(ctx, caller.workspace.id, idOrHandle));
}

export async function searchUsers(ctx: ServerContext, caller: Caller, page: SearchPage) {
  const { rows, total } = await searchUserRows(ctx.database.db, caller.workspace.id, page);
  return { users: rows.map(toUser), total };
}

/** The user a path names, when it is the caller; 403 with `refusal` for anyone else (404 for no one). */
export async function requireSelf(
  ctx: ServerContext,
  caller: Caller,
  username: string,
  refusal = 'You can only change your own profile',
): Promise<UserRow> {
  // Handles are unique in a workspace: the caller's own needs no lookup.
  if (username === caller.user.handle) return caller.user;
  const target = await findUserOr404(ctx, caller.workspace.id, username);
  if (caller.user.id !== target.id) throw forbidden(refusal);
  return target;
}

/** The user as changed, their cached sessions forgotten so the next request sees the change. */
async function changedUser(ctx: ServerContext, workspaceId: string, userId: string): Promise<User> {
  callersOf(ctx).forgetUser(userId);
  return toUser(await findUserOr404(ctx, workspaceId, userId));
}

export async function updateProfile(
  ctx: ServerContext,
  caller: Caller,
  username: string,
  patch: { name?: string; bio?: string | null; profile?: string | null; description?: string | null },
): Promise<User> {
  const target = await requireSelf(ctx, caller, username);
  const workspaceId = caller.workspace.id;
  if (Object.keys(patch).length > 0) await updateUserRow(ctx.database.db, workspaceId, target.id, patch);
  return changedUser(ctx, workspaceId, target.id);
}

export async function setUserIcon(ctx: ServerContext, caller: Caller, username: string, data: Buffer): Promise<User> {
  const target = await requireSelf(ctx, caller, username);
  const workspaceId = caller.workspace.id;
  await replaceIcon(ctx, workspaceId, target.icon_asset_id, data, (trx, assetId) =>
    updateUserRow(trx, workspaceId, target.id, { icon_asset_id: assetId }),
  );
  return changedUser(ctx, workspaceId, target.id);
}

export async function clearUserIcon(ctx: ServerContext, caller: Caller, username: string): Promise<User> {
  const target = await requireSelf(ctx, caller, username);
  const workspaceId = caller.workspace.id;
  if (!target.icon_asset_id) return toUser(target);
  await removeIcon(ctx, workspaceId, target.icon_asset_id, (trx) =>
    updateUserRow(trx, workspaceId, target.id, { icon_asset_id: null }),
  );
  return changedUser(ctx, workspaceId, target.id);
}

/**
 * A user who is no longer a workspace admin or owner (demoted or deleted) no longer vouches for the clients they
 * granted workspace-wide scopes: each is disabled, with an event on its team, in the caller's transaction.
 */
async function disableClientsOfFormerAdmin(
  ctx: ServerContext,
  trx: Db,
  workspaceId: string,
  former: { id: string; name: string },
): Promise<string[]> {
  const now = isoNow(ctx);
  const reason = `${former.name}, who granted its workspace-wide scopes, is no longer a workspace admin or owner`;
  const disabled = await disableClientsGrantedBy(trx, workspaceId, former.id, reason, now);
  for (const client of disabled) {
    await recordEvent(trx, {
      workspace_id: workspaceId,
      profile_type: 'team',
      profile_id: client.team_id,
      type: 'client.disabled',
      actor_id: null,
      agent_name: 'Beacon',
      data: {
        client: client.handle,
        name: client.name,
        scopes: workspaceWideScopes(scopesOfClient(client)),
      },
      created_at: now,
    });
  }
  return disabled.map((client) => client.id);
}

/** A super admin deletes another user (never themself, never the last owner). */
export async function deleteUser(ctx: ServerContext, caller: Caller, handle: string): Promise<void> {
  const { workspace, user: actor } = caller;
  if (actor.super_admin !== 1) throw forbidden('Only a super admin can delete users');
  const { id } = await findUserOr404(ctx, workspace.id, handle);
  if (id === actor.id) throw badRequest('You cannot delete yourself');
  let disabled: string[] = [];
  await guardedTransaction(ctx.database.db, async (trx) => {
    await lockWorkspaceRoles(trx, workspace.id);
    // Read after the lock: another request may have changed the target's role meanwhile.
    const target = await findUserByIdOrHandle(trx, workspace.id, id);
    if (!target) throw notFound('User not found');
    if (target.role === 'owner' && (await countOwners(trx, workspace.id)) <= 1) {
      throw conflict('A workspace needs at least one owner');
    }
    await revokeUserSessions(trx, workspace.id, target.id, isoNow(ctx));
    disabled = await disableClientsOfFormerAdmin(ctx, trx, workspace.id, target);
    await deleteUserRow(trx, workspace.id, target.id);
    if (target.icon_asset_id) await deleteAsset(trx, workspace.id, target.icon_asset_id);
  });
  callersOf(ctx).forgetUser(id);
  for (const client of disabled) callersOf(ctx).forgetClient(client);
}

const DENIAL_MESSAGES = {
  'not-admin': 'Only owners and admins can change roles',
  'target-is-owner': "Only an owner can change an owner's role",
  'owner-requires-owner': 'Only an owner can make an owner',
} as const;

export async function changeRole(ctx: ServerContext, caller: Caller, userId: string, role: Role): Promise<User> {
  const { workspace } = caller;
  const { id } = await findUserOr404(ctx, workspace.id, userId);
  let disabled: string[] = [];
  await guardedTransaction(ctx.database.db, async (trx) => {
    await lockWorkspaceRoles(trx, workspace.id);
    // Both roles as they are after the lock: two owners demoting each other at once must not both pass, and
    // an owner demoted a moment ago is no longer one (the caller's role may come from the caller cache).
    const actor = await findUserByIdOrHandle(trx, workspace.id, caller.user.id);
    const target = await findUserByIdOrHandle(trx, workspace.id, id);
    if (!target) throw notFound('User not found');
    const denial = roleChangeDenial(actor?.role ?? 'guest', target.role, role);
    if (denial) throw forbidden(DENIAL_MESSAGES[denial]);
    if (target.role === 'owner' && role !== 'owner' && (await countOwners(trx, workspace.id)) <= 1) {
      throw conflict('A workspace needs at least one owner');
    }
    await updateUserRow(trx, workspace.id, target.id, { role });
    if (isAdminRole(target.role) && !isAdminRole(role)) {
      disabled = await disableClientsOfFormerAdmin(ctx, trx, workspace.id, target);
    }
  });
  for (const client of disabled) callersOf(ctx).forgetClient(client);
  return changedUser(ctx, workspace.id, id);
}
