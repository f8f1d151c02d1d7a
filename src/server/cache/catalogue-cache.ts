/**
 * Answers kept per process for exactly as long as what they were read from is unchanged.
 *
 * The catalogue's reads (a service, a user, a team, and the pages of services, teams and users; issue 31) are kept
 * at the grain of what they show: each answer holds the ids of the rows in it and the list it is a page of, and a
 * write drops only the answers holding what it touched, whichever process wrote (scoped-cache.ts, migration 032).
 * An answer is shared by every caller who sees the same: what differs per caller (a service's `starred` and
 * `permissions`, a team's `is_admin`, `is_member` and `can_create_services`) is laid over the shared body for each
 * request from the caller's viewer and stars, and a read whose rows depend on visibility (the pages of services)
 * is kept per visibility: all of them for workspace admins, the team an API client acts for, or the teams the
 * caller belongs to, exactly as the page's query reads them (cache/viewer.ts). A request costs one indexed read
 * of the version, and a read of the log when it moved.
 *
 * The scorecards' reads are kept per caller for as long as the workspace's catalogue and scorecard versions stay
 * (migration 028): {@link keptScorecardAnswer}.
 */
import type { TeamRole, Viewer } from '../../domain/catalogue.js';
import { isAdminRole } from '../../domain/roles.js';
import { Answer, AnswerCache, FreshReads, type Made } from './answer-cache.js';
import type { ServerContext } from '../context.js';
import { starredServiceIds } from '../db/repositories/stars.js';
import { ownerOnlyMatches, ownerOnlyServicesOf } from '../db/repositories/services.js';
import { searchTerm } from '../db/repositories/search.js';
import { findTeam } from '../db/repositories/teams.js';
import {
  catalogueChanges,
  catalogueChangesNow,
  workspaceVersion,
  workspaceVersionNow,
  type VersionName,
} from '../db/repositories/versions.js';
import { perContext } from '../per-context.js';
import { ScopedCache, textContains, textScope } from './scoped-cache.js';
import { parseScope, scopeOf, type ListName } from './scopes.js';
import type { CachedCaller as Caller } from './caller-cache.js';
import { sharedAnswer, type SharedAnswer } from './shared-answers.js';
import { forgetViewer, forgetViewers, viewerOf } from './viewer.js';
import { callersOf } from './caller-cache.js';

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

/** The keys of membership maps (viewer.ts keeps one per user for a while), made once: team ids, with roles or not. */
const membershipKeys = { roles: new WeakMap<object, string>(), ids: new WeakMap<object, string>() };

function membershipKey(teams: ReadonlyMap<string, TeamRole>, withRoles: boolean): string {
  const memo = withRoles ? membershipKeys.roles : membershipKeys.ids;
  let key = memo.get(teams);
  if (key === undefined) {
    key = [...teams]
      .map(([team, role]) => (withRoles ? `${team}=${role}` : team))
      .sort()
      .join(',');
    memo.set(teams, key);
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
    const key = `${who}\u0000${viewer.role}\u0000${membershipKey(viewer.teams, true)}\u0000${path}`;
    return answers.answer(workspaceId, version, key, make);
  };
}

/**
 * A scorecard's reads (its definition, level spread and matrix): they show services and teams as the catalogue
 * does, and the scorecard's own tables (migration 028).
 */
export const keptScorecardAnswer = keeper(['catalogue', 'scorecard']);

/** The catalogue's kept answers in a process, with the count of answers given from them and made afresh. */
export const catalogueAnswersOf = perContext((ctx) => ({
  cache: new ScopedCache(ctx.config.readCacheBytes, {
    // A user's teams changed, maybe in another process: the viewer this process holds for them is no longer theirs.
    // A caller changed (a session ended, a user, a workspace or a client edited), maybe in another process: the
    // caller cache forgets them (caller-cache.ts).
    changed: (logged) => {
      const scope = parseScope(logged);
      if (scope.kind === 'member') forgetViewer(ctx, scope.userId);
      callersOf(ctx).forgetScope(scope);
    },
    reset: (workspaceId) => {
      forgetViewers(ctx);
      callersOf(ctx).forgetWorkspace(workspaceId);
    },
  }),
  versions: new FreshReads<string>(),
  hits: 0,
  made: 0,
}));

/**
 * Brings the process's kept catalogue answers, and the callers and viewers it holds, up to the workspace's version
 * as of now.
 */
export async function followCatalogueChanges(ctx: ServerContext, workspaceId: string): Promise<void> {
  const { cache, versions } = catalogueAnswersOf(ctx);
  const { db } = ctx.database;
  const version = Number(
    workspaceVersionNow(db, 'catalogue', workspaceId) ??
      (await versions.read(`catalogue\u0000${workspaceId}`, () => workspaceVersion(db, 'catalogue', workspaceId))),
  );
  await cache.sync(
    workspaceId,
    version,
    (after, upTo) =>
      catalogueChangesNow(db, workspaceId, after, upTo) ?? catalogueChanges(db, workspaceId, after, upTo),
  );
}

/** The services the caller starred, kept until they star or unstar one. */
function starsOf(ctx: ServerContext, caller: Caller): Promise<ReadonlySet<string>> {
  const { id: userId } = caller.user;
  const workspaceId = caller.workspace.id;
  return catalogueAnswersOf(ctx).cache.get(workspaceId, `\u0000stars\u0000${userId}`, async () => {
    const ids = await starredServiceIds(ctx.database.db, workspaceId, userId);
    return { value: new Set(ids), scopes: [scopeOf({ kind: 'stars', userId })], bytes: 64 + 48 * ids.length };
  }).value;
}

/**
 * What decides which rows a caller's answer holds, for a read kept per visibility; null when it is not kept (the
 * read answers as usual).
 */
type VisibilityOf = (
  ctx: ServerContext,
  caller: Caller,
  viewer: Viewer,
  params: Readonly<Record<string, string>>,
) => string | null | Promise<string | null>;

/** A page of the workspace's services (cache/viewer.ts serviceScope): the teams the caller belongs to. */
function visibilityOf(_ctx: ServerContext, caller: Caller, viewer: Viewer): string {
  if (isAdminRole(viewer.role)) return 'all';
  if (caller.client) return `client:${caller.client.teamId}`;
  return `teams:${membershipKey(viewer.teams, false)}`;
}

/**
 * A page of one team's services: its owner-only ones show to the team's members alone (and to admins), so only
 * whether the caller belongs to that team decides the rows.
 */
async function teamVisibilityOf(
  ctx: ServerContext,
  caller: Caller,
  viewer: Viewer,
  params: Readonly<Record<string, string>>,
): Promise<string | null> {
  if (isAdminRole(viewer.role)) return 'all';
  const team = await teamIdOf(ctx, caller.workspace.id, params.team ?? '');
  if (!team) return null;
  return (caller.client ? caller.client.teamId === team : viewer.teams.has(team)) ? 'member' : 'other';
}

/** The id of the team an id or handle names (null for none), kept until that team, or the list of teams, changes. */
function teamIdOf(ctx: ServerContext, workspaceId: string, idOrHandle: string): Promise<string | null> {
  return catalogueAnswersOf(ctx).cache.get(workspaceId, `\u0000team\u0000${idOrHandle}`, async () => {
    const team = await findTeam(ctx.database.db, workspaceId, idOrHandle);
    return {
      value: team?.id ?? null,
      scopes: [scopeOf(team ? { kind: 'row', id: team.id } : { kind: 'list', list: 'teams' })],
      bytes: 128,
    };
  }).value;
}

/**
 * A keeper of the catalogue's answers, shared by the callers of one `visibility` (everyone, by default), of the
 * list `list` when the read is a page of one. The read it keeps must decide nothing else by its caller: what
 * differs per caller is laid over (cache/shared-answers.ts), and a single service's visibility is checked
 * again for each caller. Null when the cache is off (BEACON_READ_CACHE_MB=0) or the answer cannot be shared: the
 * read then answers as usual.
 */
function catalogueKeeper(list: ListName | null, visibility?: VisibilityOf) {
  return async (
    ctx: ServerContext,
    caller: Caller,
    path: string,
    make: () => Promise<Made>,
    params: Readonly<Record<string, string>>,
    query: Readonly<Record<string, unknown>>,
  ): Promise<Answer | null> => {
    if (ctx.config.readCacheBytes === 0) return null;
    const viewer = await syncedViewer(ctx, caller);
    const seen = visibility ? await visibility(ctx, caller, viewer, params) : '';
    if (seen === null) return null;
    const lists = list ? listScopes(list, termOf(query)) : [];
    const shared = await keptShared(ctx, caller, `${seen}\u0000${path}`, make, lists);
    return shared ? answerFor(ctx, caller, viewer, shared) : null;
  };
}

/** The caller's viewer once their workspace's kept answers are brought up to its catalogue version. */
async function syncedViewer(ctx: ServerContext, caller: Caller): Promise<Viewer> {
  await followCatalogueChanges(ctx, caller.workspace.id);
  // After the sync: it forgot the viewers whose memberships changed.
  return viewerOf(ctx, caller, true);
}

/** The shared answer kept under `key`, or made by `make` (null when it cannot be shared). */
async function keptShared(
  ctx: ServerContext,
  caller: Caller,
  key: string,
  make: () => Promise<Made>,
  lists: readonly string[],
): Promise<SharedAnswer | null> {
  const answers = catalogueAnswersOf(ctx);
  const kept = answers.cache.get(caller.workspace.id, key, async () => {
    const made = await make();
    const shared = sharedAnswer(made, made.value, lists);
    return { value: shared, scopes: shared?.scopes ?? [], bytes: shared?.bytes ?? 0 };
  });
  if (kept.made) answers.made++;
  else answers.hits++;
  return kept.value;
}

/** The caller's own answer from a shared one (null when they may not see it: the read then answers its 404). */
async function answerFor(
  ctx: ServerContext,
  caller: Caller,
  viewer: Viewer,
  shared: SharedAnswer,
  headers: Readonly<Record<string, string>> = shared.headers,
): Promise<Answer | null> {
  if (!shared.visibleTo(viewer)) return null;
  const stars = shared.needsStars ? await starsOf(ctx, caller) : NO_STARS;
  return new Answer(shared.bodyFor(viewer, stars), undefined, headers);
}

const NO_STARS: ReadonlySet<string> = new Set();

/**
 * A page of `list` moves with what its pages sort and filter by; a search's also with the rows whose searched
 * text has or had its term (scoped-cache.ts), or, for a term that is not ASCII, with every searched text.
 */
function listScopes(list: ListName, term: string): string[] {
  if (!term) return [scopeOf({ kind: 'list', list })];
  return [scopeOf({ kind: 'list', list }), textScope(list, term) ?? scopeOf({ kind: 'search', list })];
}

/** What a page's request searches for ('' for none). */
function termOf(query: Readonly<Record<string, unknown>>): string {
  return typeof query.q === 'string' ? searchTerm(query.q) : '';
}

/** A caller of no team in the caller's workspace: a page made for them holds what every member sees. */
const EVERYONE = 'beacon:everyone';
function everyone(caller: Caller): Caller {
  return { workspace: caller.workspace, user: { ...caller.user, id: EVERYONE, role: 'member' } };
}

/**
 * A page of the workspace's services (or a search of them). Admins and API clients get the one kept for their
 * visibility. A member gets the page every member sees, with their teams' owner-only matches added to its total,
 * when none of those comes before the page's end (the database compares, in its collation; the count is kept
 * until the list moves); else the page kept for their teams.
 */
async function keptServicesPage(
  ctx: ServerContext,
  caller: Caller,
  path: string,
  make: (as?: Caller) => Promise<Made>,
  _params: Readonly<Record<string, string>>,
  query: Readonly<Record<string, unknown>>,
): Promise<Answer | null> {
  if (ctx.config.readCacheBytes === 0) return null;
  const viewer = await syncedViewer(ctx, caller);
  const term = termOf(query);
  const lists = listScopes('services', term);
  const own = visibilityOf(ctx, caller, viewer);
  if (isAdminRole(viewer.role) || caller.client) {
    const shared = await keptShared(ctx, caller, `${own}\u0000${path}`, make, lists);
    return shared ? answerFor(ctx, caller, viewer, shared) : null;
  }
  const common = await keptShared(ctx, caller, `everyone\u0000${path}`, () => make(everyone(caller)), lists);
  if (!common) return null;
  const mine = await ownMatchesOf(ctx, caller, viewer, path, term, common, lists);
  const limit = typeof query.limit === 'number' ? query.limit : Infinity;
  if (mine.before === 0 && (mine.total === 0 || common.count >= limit)) {
    const total = String(Number(common.headers.total ?? 0) + mine.total);
    return answerFor(ctx, caller, viewer, common, { ...common.headers, total });
  }
  const shared = await keptShared(ctx, caller, `${own}\u0000${path}`, make, lists);
  return shared ? answerFor(ctx, caller, viewer, shared) : null;
}

/** How many of the viewer's teams' owner-only services a page's filter matches, and how many before its end. */
function ownMatchesOf(
  ctx: ServerContext,
  caller: Caller,
  viewer: Viewer,
  path: string,
  term: string,
  common: SharedAnswer,
  lists: readonly string[],
): Promise<{ total: number; before: number }> {
  if (viewer.teams.size === 0) return Promise.resolve({ total: 0, before: 0 });
  const workspaceId = caller.workspace.id;
  const teams = [...viewer.teams.keys()];
  const counted = () =>
    catalogueAnswersOf(ctx).cache.get(
      workspaceId,
      `own\u0000${visibilityOf(ctx, caller, viewer)}\u0000${path}`,
      async () => {
        const value = await ownerOnlyMatches(ctx.database.db, workspaceId, teams, term, common.last);
        return { value, scopes: lists, bytes: 128 };
      },
    ).value;
  if (!term || !textScope('services', term)) return counted();
  // A search: most terms match none of the teams' few owner-only services, which their kept texts tell.
  return Promise.all(teams.map((team) => ownerOnlyOf(ctx, workspaceId, team))).then((owned) =>
    owned.flat().every(({ search_text }) => textContains(search_text, term) === false)
      ? { total: 0, before: 0 }
      : counted(),
  );
}

/** A team's owner-only services with their searched texts, kept until one of them or the list changes. */
function ownerOnlyOf(ctx: ServerContext, workspaceId: string, teamId: string) {
  return catalogueAnswersOf(ctx).cache.get(workspaceId, `\u0000owner-only\u0000${teamId}`, async () => {
    const rows = await ownerOnlyServicesOf(ctx.database.db, workspaceId, teamId);
    const bytes = rows.reduce((sum, row) => sum + 64 + row.search_text.length, 64);
    return { value: rows, scopes: [...listScopes('services', ''), ...rows.map((row) => row.id)], bytes };
  }).value;
}

/** A service, and the pages of services (of the workspace, or of a team), kept per visibility. */
export const keptServiceAnswer = catalogueKeeper(null);
export const keptServicesAnswer = keptServicesPage;
export const keptTeamServicesAnswer = catalogueKeeper('services', teamVisibilityOf);
/** A team, a user, and the pages of teams and users: the same rows for everyone. */
export const keptTeamAnswer = catalogueKeeper(null);
export const keptTeamsAnswer = catalogueKeeper('teams');
export const keptUserAnswer = catalogueKeeper(null);
export const keptUsersAnswer = catalogueKeeper('users');
