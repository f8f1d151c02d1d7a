import type { User } from '../../contract/accounts.js';
import { roleChangeDenial, type Role } from '../../domain/roles.js';
import { isoNow, type ServerContext } from '../context.js';
import { removeIcon, replaceIcon } from './icons.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { deleteAsset } from '../db/repositories/assets.js';
import { revokeUserSessions } from '../db/repositories/sessions.js';
import {
  countOwners,
  deleteUser as deleteUserRow,
  findUserByIdOrHandle,
  searchUsers as searchUserRows,
  updateUser as updateUserRow,
  type SearchPage,
} from '../db/repositories/users.js';
import type { UserRow, WorkspaceRow } from '../db/schema.js';

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

export async function getUser(ctx: ServerContext, workspace: WorkspaceRow, idOrHandle: string): Promise<UserRow> {
  const user = await findUserByIdOrHandle(ctx.database.db, workspace.id, idOrHandle);
  if (!user) throw notFound('User not found');
  return user;
}

export async function searchUsers(ctx: ServerContext, workspace: WorkspaceRow, page: SearchPage) {
  const { rows, total } = await searchUserRows(ctx.database.db, workspace.id, page);
  return { users: rows.map(toUser), total };
}

/** Only the user edits their own profile. */
function requireSelf(actor: UserRow, target: UserRow): void {
  if (actor.id !== target.id) throw forbidden('You can only change your own profile');
}

export async function updateProfile(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  actor: UserRow,
  username: string,
  patch: { name?: string; bio?: string | null; profile?: string | null; description?: string | null },
): Promise<UserRow> {
  const target = await getUser(ctx, workspace, username);
  requireSelf(actor, target);
  if (Object.keys(patch).length > 0) await updateUserRow(ctx.database.db, workspace.id, target.id, patch);
  ctx.callers.forgetUser(target.id);
  return getUser(ctx, workspace, target.id);
}

export async function setIcon(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  actor: UserRow,
  username: string,
  data: Buffer,
): Promise<UserRow> {
  const target = await getUser(ctx, workspace, username);
  requireSelf(actor, target);
  await replaceIcon(ctx, workspace.id, target.icon_asset_id, data, (trx, assetId) =>
    updateUserRow(trx, workspace.id, target.id, { icon_asset_id: assetId }),
  );
  ctx.callers.forgetUser(target.id);
  return getUser(ctx, workspace, target.id);
}

export async function clearIcon(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  actor: UserRow,
  username: string,
): Promise<UserRow> {
  const target = await getUser(ctx, workspace, username);
  requireSelf(actor, target);
  if (target.icon_asset_id) {
    await removeIcon(ctx, workspace.id, target.icon_asset_id, (trx) =>
      updateUserRow(trx, workspace.id, target.id, { icon_asset_id: null }),
    );
    ctx.callers.forgetUser(target.id);
  }
  return getUser(ctx, workspace, target.id);
}

/** A super admin deletes another user (never themself, never the last owner). */
export async function deleteUser(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  actor: UserRow,
  handle: string,
): Promise<void> {
  if (actor.super_admin !== 1) throw forbidden('Only a super admin can delete users');
  const target = await getUser(ctx, workspace, handle);
  if (target.id === actor.id) throw badRequest('You cannot delete yourself');
  await ctx.database.db.transaction().execute(async (trx) => {
    if (target.role === 'owner' && (await countOwners(trx, workspace.id)) <= 1) {
      throw conflict('A workspace needs at least one owner');
    }
    await revokeUserSessions(trx, workspace.id, target.id, isoNow(ctx));
    await deleteUserRow(trx, workspace.id, target.id);
    if (target.icon_asset_id) await deleteAsset(trx, workspace.id, target.icon_asset_id);
  });
  ctx.callers.forgetUser(target.id);
}

const DENIAL_MESSAGES = {
  'not-admin': 'Only owners and admins can change roles',
  'target-is-owner': "Only an owner can change an owner's role",
  'owner-requires-owner': 'Only an owner can make an owner',
} as const;

export async function changeRole(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  actor: UserRow,
  userId: string,
  role: Role,
): Promise<UserRow> {
  const target = await getUser(ctx, workspace, userId);
  const denial = roleChangeDenial(actor.role, target.role, role);
  if (denial) throw forbidden(DENIAL_MESSAGES[denial]);
  await ctx.database.db.transaction().execute(async (trx) => {
    if (target.role === 'owner' && role !== 'owner' && (await countOwners(trx, workspace.id)) <= 1) {
      throw conflict('A workspace needs at least one owner');
    }
    await updateUserRow(trx, workspace.id, target.id, { role });
  });
  ctx.callers.forgetUser(target.id);
  return getUser(ctx, workspace, target.id);
}
