import type { MutedItem } from '../../../contract/catalogue.js';
import { canSeeService } from '../../../domain/catalogue.js';
import { isoNow, type ServerContext } from '../../context.js';
import { deleteMute, findProfile, listMutes, upsertMute, type MuteRow } from '../../db/repositories/mutes.js';
import { notFound } from '../../errors.js';
import type { Caller } from '../accounts/auth.js';
import { requireSelf } from '../accounts/users.js';
import { serviceScope, viewerOf } from '../../cache/viewer.js';

function toMutedItem(row: MuteRow): MutedItem {
  return {
    profile: {
      id: row.profile_id,
      type: row.profile_type,
      handle: row.handle,
      name: row.name,
      description: row.description,
    },
    activity: row.activity === 1,
    notifications: row.notifications === 1,
  };
}

async function mutesOf(ctx: ServerContext, caller: Caller, profileId?: string) {
  const scope = serviceScope(caller, await viewerOf(ctx, caller));
  return listMutes(ctx.database.db, caller.workspace.id, caller.user.id, scope, profileId);
}

export async function listMuted(ctx: ServerContext, caller: Caller, username: string): Promise<MutedItem[]> {
  await requireSelf(ctx, caller, username, 'You can only see and change your own mutes');
  return (await mutesOf(ctx, caller)).map(toMutedItem);
}

export async function getMuted(ctx: ServerContext, caller: Caller, username: string, profileId: string) {
  await requireSelf(ctx, caller, username, 'You can only see and change your own mutes');
  const [row] = await mutesOf(ctx, caller, profileId);
  if (!row) throw notFound('Not muted');
  return toMutedItem(row);
}

/**
 * Mutes a service, team or user of this workspace, by its id (handles are not unique across the three).
 * `flags` picks the new values given the current ones (null when not muted yet); a replay changes nothing.
 */
export async function muteProfile(
  ctx: ServerContext,
  caller: Caller,
  username: string,
  profileId: string,
  flags: (current: { activity: boolean; notifications: boolean } | null) => {
    activity: boolean;
    notifications: boolean;
  },
): Promise<MutedItem> {
  const user = await requireSelf(ctx, caller, username, 'You can only see and change your own mutes');
  const profile = await findProfile(ctx.database.db, caller.workspace.id, profileId);
  const visible =
    profile?.type !== 'service' ||
    canSeeService(await viewerOf(ctx, caller), { visibility: profile.visibility, ownerTeamId: profile.owner_team_id });
  if (!profile || !visible) throw notFound('Profile not found');
  const [current] = await mutesOf(ctx, caller, profile.id);
  await upsertMute(ctx.database.db, {
    workspace_id: caller.workspace.id,
    user_id: user.id,
    profile_type: profile.type,
    profile_id: profile.id,
    created_at: isoNow(ctx),
    ...flags(current ? { activity: current.activity === 1, notifications: current.notifications === 1 } : null),
  });
  return getMuted(ctx, caller, username, profile.id);
}

export async function unmuteProfile(ctx: ServerContext, caller: Caller, username: string, profileId: string) {
  const user = await requireSelf(ctx, caller, username, 'You can only see and change your own mutes');
  await deleteMute(ctx.database.db, caller.workspace.id, user.id, profileId);
}
