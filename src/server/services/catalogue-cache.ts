/**
 * The catalogue's reads (a service, a user, a team, and the pages of services, teams and users), kept per process
 * for exactly as long as the workspace's catalogue version is the one read first (migration 021): every write to
 * a column those answers show or decide visibility by bumps it in its own transaction, whichever process writes.
 * A request costs one indexed read of the version; a kept answer goes as the JSON bytes made the first time,
 * serialised and checked against the contract then.
 *
 * An answer is kept per viewer: the caller (a user, or an API client), their workspace role and their teams, as
 * the request saw them, and the request's path and query. No answer is ever given to another caller, and one
 * made before the caller's role or teams changed is not used after: answers carry per-viewer fields (`starred`,
 * `permissions`, `is_admin`) and visibility follows role and teams.
 */
import type { TeamRole } from '../../domain/catalogue.js';
import { AnswerCache, FreshReads, type Answer, type Made } from '../answer-cache.js';
import type { ServerContext } from '../context.js';
import { workspaceVersion, workspaceVersionNow, type VersionName } from '../db/repositories/versions.js';
import { perContext } from '../per-context.js';
import type { Caller } from './auth.js';
import { viewerOf } from './viewer.js';

/** One answer cache per set of versions its answers depend on (every request of those reads the same set). */
const cachesOf = perContext(() => new Map<string, { answers: AnswerCache; versions: FreshReads<string> }>());

/** The answers kept for reads that depend on `names` (each set has the budget of BEACON_READ_CACHE_MB). */
export function keptAnswersOf(ctx: ServerContext, names: readonly VersionName[]) {
  const caches = cachesOf(ctx);
  const id = names.join('+');
  let cache = caches.get(id);
  if (!cache)
    caches.set(id, (cache = { answers: new AnswerCache(ctx.config.readCacheBytes), versions: new FreshReads() }));
  return cache;
}

/** The teams part of a viewer's key, made once per membership map (viewer.ts keeps one per user for a while). */
const teamKeys = new WeakMap<ReadonlyMap<string, TeamRole>, string>();

function teamsKey(teams: ReadonlyMap<string, TeamRole>): string {
  let key = teamKeys.get(teams);
  if (key === undefined) {
    key = [...teams]
      .map(([team, role]) => `${team}=${role}`)
      .sort()
      .join(',');
    teamKeys.set(teams, key);
  }
  return key;
}

/**
 * A keeper of answers that depend on the workspace's `names` versions: the answer for `caller` asking `path` (with
 * its query), kept or made by `make`; `null` when the cache is off (BEACON_READ_CACHE_MB=0), and the caller makes
 * the answer as usual.
 */
function keeper(names: readonly VersionName[]) {
  return async (
    ctx: ServerContext,
    caller: Caller,
    path: string,
    make: () => Promise<Made>,
  ): Promise<Answer | null> => {
    if (ctx.config.readCacheBytes === 0) return null;
    const { answers, versions } = keptAnswersOf(ctx, names);
    const workspaceId = caller.workspace.id;
    // Read first: a change committed while the answer is made leaves it under the older version, never used again.
    // Where the read is synchronous (SQLite), sharing it between requests would only add promises.
    const { db } = ctx.database;
    const read = (name: VersionName) =>
      workspaceVersionNow(db, name, workspaceId) ??
      versions.read(`${name}\u0000${workspaceId}`, () => workspaceVersion(db, name, workspaceId));
    const version = (await Promise.all(names.map(read))).join('.');
    answers.see(workspaceId, version);
    const viewer = await viewerOf(ctx, caller);
    const who = caller.client ? `client:${caller.client.id}` : `user:${caller.user.id}`;
    const key = `${who}\u0000${viewer.role}\u0000${teamsKey(viewer.teams)}\u0000${path}`;
    return answers.answer(workspaceId, version, key, make);
  };
}

/** The catalogue's reads: a service, a user, a team, and the pages of them. */
export const keptCatalogueAnswer = keeper(['catalogue']);

/**
 * A scorecard's reads (its definition, level spread and matrix): they show services and teams as the catalogue
 * does, and the scorecard's own tables (migration 028).
 */
export const keptScorecardAnswer = keeper(['catalogue', 'scorecard']);
