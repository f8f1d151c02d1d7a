import type { TeamRole, Viewer } from '../../domain/catalogue.js';
import { isAdminRole } from '../../domain/roles.js';
import type { ServerContext } from '../context.js';
import { perContext } from '../per-context.js';
import { BoundedMap } from './bounded-map.js';
import { teamRolesOfUser } from '../db/repositories/teams.js';
import type { ServiceScope } from '../db/repositories/services.js';
import type { CachedCaller as Caller } from './caller-cache.js';

interface Entry {
  teams: ReadonlyMap<string, TeamRole>;
  until: number;
}

const MAX_ENTRIES = 10_000;

/**
 * Team memberships per user, kept for the caller cache's TTL so a catalogue read costs no extra query.
 * Membership writes in this process forget the affected users at once; other processes see them within the
 * TTL, as with the caller cache. Kept beside the context (not in it) so the context stays the same shape.
 */
const cacheOf = perContext(() => new BoundedMap<string, Entry>({ maxWeight: MAX_ENTRIES }));

/**
 * Who is looking: the caller's workspace role (fresh from the caller) and their teams. `synced`: the caller's
 * workspace was just brought up to its catalogue version (cache/catalogue-cache.ts), which forgets every user
 * whose memberships changed since it last did, whichever process changed them; any teams still held are then
 * current, however old.
 */
export async function viewerOf(ctx: ServerContext, caller: Caller, synced = false): Promise<Viewer> {
  const { workspace, user } = caller;
  // An API client acts as a member of its team, with no admin rights anywhere.
  if (caller.client) return { role: 'member', teams: new Map([[caller.client.teamId, 'member']]) };
  const ttl = ctx.config.authCacheTtlMs;
  const now = ctx.now().getTime();
  const cache = cacheOf(ctx);
  const hit = cache.get(user.id);
  if (hit && (synced || hit.until > now)) return { role: user.role, teams: hit.teams };
  // A read under way while memberships are forgotten may predate the change: given to its request, not kept
  // (else a synced read would trust it for good).
  const began = cache.epoch;
  const rows = await teamRolesOfUser(ctx.database.db, workspace.id, user.id);
  const teams = new Map(rows.map((row) => [row.team_id, row.role] as const));
  if (ttl > 0) cache.keepUnlessForgotten(user.id, { teams, until: now + ttl }, began);
  return { role: user.role, teams };
}

/** After a write that changes `userId`'s memberships. */
export function forgetViewer(ctx: ServerContext, userId: string): void {
  cacheOf(ctx).forget(userId);
}

/** After changes this process could not follow one by one (cache/catalogue-cache.ts): everyone. */
export function forgetViewers(ctx: ServerContext): void {
  cacheOf(ctx).clear();
}

/** After a team is deleted: everyone who was in it. */
export function forgetTeamViewers(ctx: ServerContext, teamId: string): void {
  cacheOf(ctx).forgetWhere((entry) => entry.teams.has(teamId));
}

/** The viewer as list queries take it (the visibility rule runs in SQL there). */
export function serviceScope(caller: Caller, viewer: Viewer): ServiceScope {
  return {
    userId: caller.user.id,
    all: isAdminRole(viewer.role),
    ...(caller.client ? { teamId: caller.client.teamId } : { teamList: [...viewer.teams.keys()].join(',') }),
  };
}
