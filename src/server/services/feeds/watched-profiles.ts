/**
 * Each user's watched profiles (docs/decisions.md#feeds), kept per process for as long as the workspace's feed version
 * is the one read before them (migration 020): every star, mute, membership, team or service change that could alter
 * them moves it, whichever process writes, so a kept list is never older than the version says. Kept per user and
 * visibility scope; one version read (an indexed point read) stands in for two joins on every feed page.
 */
import type { ServerContext } from '../../context.js';
import { BoundedMap } from '../../cache/bounded-map.js';
import { perContext } from '../../per-context.js';
import { feedVersion, watchedProfiles, type FeedProfile } from '../../db/repositories/events.js';
import type { ServiceScope } from '../../db/repositories/services.js';

interface Entry {
  version: string;
  profiles: FeedProfile[];
}

/** Users kept per process; the least recently read go first. */
const MAX_ENTRIES = 10_000;

const cacheOf = perContext(() => new BoundedMap<string, Entry>({ maxWeight: MAX_ENTRIES }));

export async function watchedProfilesOf(
  ctx: ServerContext,
  workspaceId: string,
  userId: string,
  scope: ServiceScope,
): Promise<FeedProfile[]> {
  const { db } = ctx.database;
  // Read first: a change committed while the profiles are read leaves the entry under the older version.
  const version = await feedVersion(db, workspaceId);
  const key = `${workspaceId} ${userId} ${scope.all ? '*' : (scope.teamId ?? '')}`;
  const cache = cacheOf(ctx);
  const hit = cache.get(key);
  if (hit && hit.version === version) return hit.profiles;
  const profiles = await watchedProfiles(db, workspaceId, userId, scope);
  cache.set(key, { version, profiles });
  return profiles;
}
