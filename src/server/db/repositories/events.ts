import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { CompiledQuery, sql, type Compilable, type ExpressionBuilder } from 'kysely';
import type { EventData, EventType } from '../../../domain/events.js';
import { isSqlite } from '../connect.js';
import { listParameter, precompile } from '../precompiled.js';
import { chunks } from './chunks.js';
import type { Database, EventsTable } from '../schema.js';
import {
  perScopeKind,
  scopeKind,
  scopeOfSlots,
  scopeValues,
  visibleTo,
  type ScopeValues,
  type ServiceScope,
} from './services.js';
import { workspaceVersion } from './versions.js';
import type { Db } from './workspaces.js';

export interface NewEvent<T extends EventType = EventType> {
  workspace_id: string;
  profile_type: EventsTable['profile_type'];
  profile_id: string;
  type: T;
  /** The user (or `client:{id}` stand-in) behind it; null for runners. */
  actor_id: string | null;
  agent_name: string;
  data: EventData[T];
  created_at: string;
}

/**
 * What a committed event with recipients announces (docs/decisions.md#feeds): on PostgreSQL a NOTIFY on this channel of
 * the current schema, sent by the database only when the transaction commits; on SQLite an in-process signal.
 */
export const EVENTS_CHANNEL = 'beacon_events';

/** SQLite's announcements, in this process. Their reader queues behind the writing transaction (one connection). */
export const localAnnouncements = new EventEmitter().setMaxListeners(0);

/**
 * An announcement: `e {eventId}` (an event with recipients), `u {workspaceId} {userId}` (an unread count moved)
 * or `c` (chat messages queued).
 */
export async function announce(db: Db, payload: string): Promise<void> {
  if (isSqlite(db)) {
    setImmediate(() => localAnnouncements.emit('announcement', payload));
    return;
  }
  await sql`select pg_notify(${EVENTS_CHANNEL} || ':' || current_schema(), ${payload})`.execute(db);
}

/**
 * Appends event rows in the caller's transaction, in one statement, and gives their ids; it tells no one. One row:
 * recordEvent's (services/events/record-event.ts tells who); many: a catalogue import's "created" events.
 */
export async function insertEvents(db: Db, events: readonly NewEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = events.map((event) => ({ ...event, id: randomUUID(), data: JSON.stringify(event.data) }));
  await db.insertInto('events').values(rows).execute();
  return rows.map((row) => row.id);
}

/** A notification of the event for each of these users, a statement per 1000 of them. */
export async function insertNotifications(
  db: Db,
  eventId: string,
  event: Pick<NewEvent, 'workspace_id' | 'created_at'>,
  userIds: readonly string[],
): Promise<void> {
  for (const batch of chunks(userIds, 1000)) {
    await db
      .insertInto('notifications')
      .values(
        batch.map((user_id) => ({
          workspace_id: event.workspace_id,
          user_id,
          event_id: eventId,
          created_at: event.created_at,
        })),
      )
      .execute();
  }
}

/**
 * Who an event tells: the members of the team it concerns (for a service, its owner team) and those who starred
 * the service (when they may see it), minus the agent and those who muted the profile for notifications.
 */
export async function eventAudience(db: Db, event: NewEvent): Promise<string[]> {
  const { workspace_id: workspaceId, profile_id: profileId } = event;
  const teamOf =
    event.profile_type === 'team'
      ? sql<string>`${profileId}`
      : db.selectFrom('services').select('services.owner_team_id').where('services.id', '=', profileId);
  let audience = db
    .selectFrom('team_members')
    .select('team_members.user_id')
    .where('team_members.workspace_id', '=', workspaceId)
    .where('team_members.team_id', '=', teamOf);
  if (event.profile_type === 'service') {
    audience = audience.union(
      db
        .selectFrom('stars')
        .innerJoin('services', 'services.id', 'stars.service_id')
        .select('stars.user_id')
        .where('stars.workspace_id', '=', workspaceId)
        .where('stars.service_id', '=', profileId)
        .where((eb) =>
          eb.or([
            eb('services.visibility', '<>', 'owner'),
            eb(
              'stars.user_id',
              'in',
              eb
                .selectFrom('team_members')
                .select('team_members.user_id')
                .whereRef('team_members.team_id', '=', 'services.owner_team_id'),
            ),
          ]),
        ),
    );
  }
  const rows = await db
    .selectFrom(audience.as('audience'))
    .select('audience.user_id')
    .$if(event.actor_id !== null, (qb) => qb.where('audience.user_id', '<>', event.actor_id!))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('mutes')
            .select('mutes.user_id')
            .whereRef('mutes.user_id', '=', 'audience.user_id')
            .where('mutes.workspace_id', '=', workspaceId)
            .where('mutes.profile_id', '=', profileId)
            .where('mutes.notifications', '=', 1),
        ),
      ),
    )
    .execute();
  return rows.map((row) => row.user_id);
}

// ---- reading ----

/** An event with the profile it concerns (a service or a team still there). */
export interface EventRow {
  id: string;
  type: string;
  data: string;
  created_at: string;
  agent_name: string;
  profile_type: EventsTable['profile_type'];
  profile_id: string;
  profile_handle: string;
  profile_name: string;
  profile_icon_asset_id: string | null;
}

/** Where a page starts: after the event `cursor` (newest first), or from the newest. */
export interface FeedPage {
  cursor?: string | undefined;
  limit: number;
}

/** A service or team whose events a feed shows. */
export interface FeedProfile {
  type: EventsTable['profile_type'];
  id: string;
  handle: string;
  name: string;
  icon_asset_id: string | null;
}

/** Profiles per query: each is a subquery of a UNION ALL, and SQLite allows 500 at most. */
const PROFILES_PER_QUERY = 100;

interface EventKey {
  id: string;
  created_at: string;
}

interface ProfileEventKey extends EventKey {
  profile_id: string;
}

/** One profile's index range: before `before` and after `after` (both exclusive, when given), newest first. */
interface KeyRange {
  profile: string;
  before?: EventKey | undefined;
  after?: EventKey | undefined;
  limit: number;
}

const keysSql = new Map<string, string>();

/**
 * The newest keys of `count` index ranges (one a profile), in one UNION ALL. Written once per shape and kept:
 * built through the query builder, the many subqueries cost more to compile than to run. Only placeholders vary.
 */
function rangeKeysSql(sqlite: boolean, count: number, bounded: { before: boolean; after: boolean }): string {
  const shape = `${sqlite}:${count}:${bounded.before}:${bounded.after}`;
  let text = keysSql.get(shape);
  if (text) return text;
  let n = 0;
  const next = () => (sqlite ? '?' : `$${++n}`);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    // In the order rangeParameters gives them: workspace, profile, [before], [after], limit.
    let where = `workspace_id = ${next()} and profile_id = ${next()}`;
    if (bounded.before) where += ` and (created_at, id) < (${next()}, ${next()})`;
    if (bounded.after) where += ` and (created_at, id) > (${next()}, ${next()})`;
    parts.push(
      `select * from (select id, created_at, profile_id from events where ${where} ` +
        `order by created_at desc, id desc limit ${next()}) as p${i}`,
    );
  }
  text = parts.join(' union all ');
  keysSql.set(shape, text);
  return text;
}

function rangeParameters(workspaceId: string, range: KeyRange): unknown[] {
  return [
    workspaceId,
    range.profile,
    ...(range.before ? [range.before.created_at, range.before.id] : []),
    ...(range.after ? [range.after.created_at, range.after.id] : []),
    range.limit,
  ];
}

/** The keys of these ranges, all bounded alike (one SQL shape), a query per PROFILES_PER_QUERY ranges. */
async function rangeKeys(db: Db, workspaceId: string, ranges: readonly KeyRange[]): Promise<ProfileEventKey[]> {
  const bounded = { before: ranges[0]?.before !== undefined, after: ranges[0]?.after !== undefined };
  const keys: ProfileEventKey[] = [];
  for (const chunk of chunks(ranges, PROFILES_PER_QUERY)) {
    const text = rangeKeysSql(isSqlite(db), chunk.length, bounded);
    const parameters = chunk.flatMap((range) => rangeParameters(workspaceId, range));
    keys.push(...(await db.executeQuery<ProfileEventKey>(CompiledQuery.raw(text, parameters))).rows);
  }
  return keys;
}

/**
 * The newest `limit` keys of these profiles before `before`, exactly, reading few rows (a threshold merge):
 * first a small quota from each profile; the page's last key then bounds what is left to read, so a second
 * round reads, only from profiles whose quota ran out above that bound, the rows between the two. With 30
 * profiles and a page of 20 that is about 60 rows instead of 600.
 */
async function newestKeys(
  db: Db,
  workspaceId: string,
  profiles: readonly string[],
  before: EventKey | undefined,
  limit: number,
): Promise<EventKey[]> {
  const quota = Math.min(limit, Math.max(2, Math.ceil((2 * limit) / profiles.length)));
  const first = await rangeKeys(
    db,
    workspaceId,
    profiles.map((profile) => ({ profile, before, limit: quota })),
  );
  first.sort(newestFirst);
  // Each profile's count and oldest key read (the last of its keys in newest-first order).
  const read = new Map<string, { count: number; oldest: EventKey }>();
  for (const key of first) read.set(key.profile_id, { count: (read.get(key.profile_id)?.count ?? 0) + 1, oldest: key });
  // Every key of the true page is at least this one: `limit` keys at least as new are in hand already.
  const bound = first.length >= limit ? first[limit - 1] : undefined;
  // Every range below has a `before` and the same `after` (the bound or none): one shape.
  const rest: KeyRange[] = [];
  for (const [profile, { count, oldest }] of read) {
    if (count < quota) continue; // The profile has nothing older.
    if (bound && newestFirst(oldest, bound) >= 0) continue; // Its next row is older than the bound.
    rest.push({ profile, before: oldest, after: bound, limit });
  }
  const keys: EventKey[] = rest.length > 0 ? [...first, ...(await rangeKeys(db, workspaceId, rest))] : first;
  return keys.sort(newestFirst).slice(0, limit);
}

/** Per row of a page, how many of the workspace's newest events `pageKeys` reads before the ranges. */
const SCAN_PER_PAGE_ROW = 8;
/**
 * From this many profiles, the scan goes first: it costs about as much as reading four profiles' ranges (an index
 * seek each), so for fewer the ranges alone are cheaper.
 */
const SCAN_FROM_PROFILES = 8;

const scanSql = new Map<string, string>();

/**
 * The events of these profiles among the workspace's `window` newest before `before` (migration 020's index
 * alone). All of them, in no order: an outer LIMIT would rely on the order rows leave a subquery, which SQL does
 * not promise.
 */
function windowKeysSql(sqlite: boolean, bounded: boolean): string {
  const shape = `${sqlite}:${bounded}`;
  let text = scanSql.get(shape);
  if (!text) {
    // In the order pageKeys gives them: workspace, [before], window, profiles.
    let n = 0;
    const next = () => (sqlite ? '?' : `$${++n}`);
    const workspace = next();
    const before = bounded ? ` and (created_at, id) < (${next()}, ${next()})` : '';
    const window = next();
    const profiles = sqlite ? `in (select value from json_each(${next()}))` : `= any(${next()}::text[])`;
    text =
      `select id, created_at from (select id, created_at, profile_id from events where workspace_id = ${workspace}` +
      `${before} order by created_at desc, id desc limit ${window}) as w where profile_id ${profiles}`;
    scanSql.set(shape, text);
  }
  return text;
}

/** The key `offset` places older than `before` in the workspace (newest first), if there is one. */
async function keyAt(db: Db, workspaceId: string, before: EventKey | undefined, offset: number) {
  return db
    .selectFrom('events')
    .select(['created_at', 'id'])
    .where('workspace_id', '=', workspaceId)
    .$if(before !== undefined, (qb) =>
      qb.where(sql<boolean>`(created_at, id) < (${before!.created_at}, ${before!.id})`),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(1)
    .executeTakeFirst();
}

/**
 * The newest `limit` keys of these profiles before `before`, exactly. A feed's profiles often make up a good share
 * of what happens in the workspace, so the page is looked for first among the workspace's newest events (one short
 * index scan); when the window holds fewer than a page of theirs, the ranges of `newestKeys` give the rest, from
 * below the window.
 */
async function pageKeys(
  db: Db,
  workspaceId: string,
  profiles: readonly string[],
  before: EventKey | undefined,
  limit: number,
): Promise<EventKey[]> {
  if (profiles.length < SCAN_FROM_PROFILES) return newestKeys(db, workspaceId, profiles, before, limit);
  const sqlite = isSqlite(db);
  const window = limit * SCAN_PER_PAGE_ROW;
  const list = listParameter(db, profiles);
  const parameters = before ? [workspaceId, before.created_at, before.id, window, list] : [workspaceId, window, list];
  const { rows } = await db.executeQuery<EventKey>(
    CompiledQuery.raw(windowKeysSql(sqlite, before !== undefined), parameters),
  );
  const found = rows.sort(newestFirst);
  if (found.length >= limit) return found.slice(0, limit);
  // The window's oldest key: below it, the ranges; none means the window held every event left.
  const last = await keyAt(db, workspaceId, before, window - 1);
  if (!last) return found;
  return [...found, ...(await newestKeys(db, workspaceId, profiles, last, limit - found.length))];
}

/** The (created_at, id) of the cursor's event; undefined when there is no cursor, null when it is gone. */
async function cursorOf(db: Db, workspaceId: string, page: FeedPage) {
  if (page.cursor === undefined) return undefined;
  const row = await db
    .selectFrom('events')
    .select(['created_at', 'id'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', page.cursor)
    .executeTakeFirst();
  return row ?? null;
}

interface EventColumns {
  id: string;
  type: string;
  data: string;
  created_at: string;
  agent_name: string;
  profile_id: string;
}

function newestFirst(a: { created_at: string; id: string }, b: { created_at: string; id: string }): number {
  return a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1;
}

const eventsByIdText = new Map<string, string>();

/** The page's events by id; the text kept per page size (compiling it cost as much as running it). */
function eventsByIdSql(sqlite: boolean, count: number): string {
  const shape = `${sqlite}:${count}`;
  let text = eventsByIdText.get(shape);
  if (!text) {
    const list = Array.from({ length: count }, (_, i) => (sqlite ? '?' : `$${i + 1}`)).join(', ');
    text = `select id, type, data, created_at, agent_name, profile_id from events where id in (${list})`;
    eventsByIdText.set(shape, text);
  }
  return text;
}

/**
 * The newest events of these profiles after the cursor, newest first. Each profile's events are read from its
 * own index range (newestKeys: a few rows each), then merged: the cost follows the number of profiles and the
 * page, not the number of events in the workspace.
 */
export async function listProfileEvents(
  db: Db,
  workspaceId: string,
  profiles: readonly FeedProfile[],
  page: FeedPage,
): Promise<EventRow[]> {
  const after = await cursorOf(db, workspaceId, page);
  // A cursor that is gone (kept no longer) ends the feed.
  if (after === null || profiles.length === 0) return [];
  // First the page's keys, from the index alone (it covers them); then only those rows.
  const ids = (
    await pageKeys(
      db,
      workspaceId,
      profiles.map((profile) => profile.id),
      after,
      page.limit,
    )
  ).map((key) => key.id);
  if (ids.length === 0) return [];
  const { rows } = await db.executeQuery<EventColumns>(CompiledQuery.raw(eventsByIdSql(isSqlite(db), ids.length), ids));
  const byId = new Map(profiles.map((profile) => [profile.id, profile]));
  // Each field named: spreading the driver's row objects took a tenth of the feed's time (a CPU profile).
  return rows.sort(newestFirst).map((event) => {
    const profile = byId.get(event.profile_id)!;
    return {
      id: event.id,
      type: event.type,
      data: event.data,
      created_at: event.created_at,
      agent_name: event.agent_name,
      profile_id: event.profile_id,
      profile_type: profile.type,
      profile_handle: profile.handle,
      profile_name: profile.name,
      profile_icon_asset_id: profile.icon_asset_id,
    };
  });
}

const profileColumns = ['id', 'handle', 'name', 'icon_asset_id'] as const;

/**
 * docs/decisions.md#feeds: what a user's feed follows: their teams, their teams' services and the services they starred
 * (as far as `scope` may see), minus the profiles they muted for activity.
 */
export async function watchedProfiles(
  db: Db,
  workspaceId: string,
  userId: string,
  scope: ServiceScope,
): Promise<FeedProfile[]> {
  // Each arm starts from the user's own rows (memberships, stars), never from the workspace's services or teams:
  // an OR over both, or a walk of the workspace, cost as much as the rest of the feed.
  const muted = db
    .selectFrom('mutes')
    .select('mutes.profile_id')
    .where('mutes.workspace_id', '=', workspaceId)
    .where('mutes.user_id', '=', userId)
    .where('mutes.activity', '=', 1);
  const myTeams = db
    .selectFrom('team_members')
    .select('team_members.team_id')
    .where('team_members.workspace_id', '=', workspaceId)
    .where('team_members.user_id', '=', userId);
  const serviceColumns = profileColumns.map((column) => `services.${column}` as const);
  const [teams, services] = await Promise.all([
    db
      .selectFrom('team_members')
      .innerJoin('teams', 'teams.id', 'team_members.team_id')
      .select(profileColumns.map((column) => `teams.${column}` as const))
      .where('team_members.workspace_id', '=', workspaceId)
      .where('team_members.user_id', '=', userId)
      .where('teams.id', 'not in', muted)
      .execute(),
    db
      .selectFrom('services')
      .select(serviceColumns)
      .where('services.workspace_id', '=', workspaceId)
      .where('services.owner_team_id', 'in', myTeams)
      .where('services.id', 'not in', muted)
      .union(
        db
          .selectFrom('stars')
          .innerJoin('services', 'services.id', 'stars.service_id')
          .select(serviceColumns)
          .where('stars.user_id', '=', userId)
          .where('stars.workspace_id', '=', workspaceId)
          .$if(!scope.all, (qb) => qb.where(visibleTo(workspaceId, scope)))
          .where('services.id', 'not in', muted),
      )
      .execute(),
  ]);
  return [
    ...teams.map((team) => ({ type: 'team' as const, ...team })),
    ...services.map((service) => ({ type: 'service' as const, ...service })),
  ];
}

/**
 * What the workspace's feeds follow, as of now: it moves with every change `watchedProfiles` could see (the
 * triggers of migration 020), so its rows may be kept while it stays.
 */
export function feedVersion(db: Db, workspaceId: string): Promise<string> {
  return workspaceVersion(db, 'feed', workspaceId);
}

/** A team's services as a scope may see them (precompiled per scope kind). */
const teamServices = perScopeKind((kind) =>
  precompile<ScopeValues & { teamId: string }, Omit<FeedProfile, 'type'>>((db, param) =>
    db
      .selectFrom('services')
      .select(profileColumns.map((column) => `services.${column}` as const))
      .where('services.workspace_id', '=', param('workspaceId'))
      .where('services.owner_team_id', '=', param('teamId'))
      .$if(kind !== 'all', (qb) => qb.where(visibleTo(param('workspaceId'), scopeOfSlots(kind, param)))),
  ),
);

/** A team and its services, as far as `scope` may see. */
export async function teamProfiles(
  db: Db,
  workspaceId: string,
  team: Omit<FeedProfile, 'type'>,
  scope: ServiceScope,
): Promise<FeedProfile[]> {
  const services = await teamServices[scopeKind(scope)](db, { ...scopeValues(workspaceId, scope), teamId: team.id });
  const profiles: FeedProfile[] = [
    { type: 'team', id: team.id, handle: team.handle, name: team.name, icon_asset_id: team.icon_asset_id },
  ];
  for (const service of services)
    profiles.push({
      type: 'service',
      id: service.id,
      handle: service.handle,
      name: service.name,
      icon_asset_id: service.icon_asset_id,
    });
  return profiles;
}

/** What a user did (events they caused), newest first, as far as `scope` may see. */
export async function listActorEvents(
  db: Db,
  workspaceId: string,
  actorId: string,
  scope: ServiceScope,
  page: FeedPage,
): Promise<EventRow[]> {
  const after = await cursorOf(db, workspaceId, page);
  if (after === null) return [];
  return db
    .selectFrom('events')
    .leftJoin('services', (join) =>
      join.onRef('services.id', '=', 'events.profile_id').on('events.profile_type', '=', 'service'),
    )
    .leftJoin('teams', (join) =>
      join.onRef('teams.id', '=', 'events.profile_id').on('events.profile_type', '=', 'team'),
    )
    .where('events.workspace_id', '=', workspaceId)
    .where('events.actor_id', '=', actorId)
    .$if(after !== undefined, (qb) =>
      qb.where((eb) => eb(eb.refTuple('events.created_at', 'events.id'), '<', eb.tuple(after!.created_at, after!.id))),
    )
    .where((eb) =>
      eb.or([
        eb('teams.id', 'is not', null),
        scope.all
          ? eb('services.id', 'is not', null)
          : eb.and([
              eb('services.id', 'is not', null),
              visibleTo(workspaceId, scope)(eb as unknown as ExpressionBuilder<Database, 'services'>),
            ]),
      ]),
    )
    .select([
      'events.id',
      'events.type',
      'events.data',
      'events.created_at',
      'events.agent_name',
      'events.profile_type',
      'events.profile_id',
      (eb) => eb.fn.coalesce('services.handle', 'teams.handle').$notNull().as('profile_handle'),
      (eb) => eb.fn.coalesce('services.name', 'teams.name').$notNull().as('profile_name'),
      (eb) => eb.fn.coalesce('services.icon_asset_id', 'teams.icon_asset_id').as('profile_icon_asset_id'),
    ])
    .orderBy('events.created_at', 'desc')
    .orderBy('events.id', 'desc')
    .limit(page.limit)
    .execute() as Promise<EventRow[]>;
}

// ---- notifications ----

export interface NotificationRow extends EventRow {
  user_id: string;
  read: number;
}

/** Notifications with their event and its profile (a service or a team still there), in one workspace or all. */
function notificationsQuery(db: Db, workspaceId?: string) {
  return db
    .selectFrom('notifications')
    .innerJoin('events', 'events.id', 'notifications.event_id')
    .leftJoin('services', (join) =>
      join.onRef('services.id', '=', 'events.profile_id').on('events.profile_type', '=', 'service'),
    )
    .leftJoin('teams', (join) =>
      join.onRef('teams.id', '=', 'events.profile_id').on('events.profile_type', '=', 'team'),
    )
    .$if(workspaceId !== undefined, (qb) => qb.where('notifications.workspace_id', '=', workspaceId!))
    .where((eb) => eb.or([eb('services.id', 'is not', null), eb('teams.id', 'is not', null)]))
    .select([
      'notifications.workspace_id',
      'notifications.user_id',
      'notifications.read',
      'events.id',
      'events.type',
      'events.data',
      'events.created_at',
      'events.agent_name',
      'events.profile_type',
      'events.profile_id',
      (eb) => eb.fn.coalesce('services.handle', 'teams.handle').$notNull().as('profile_handle'),
      (eb) => eb.fn.coalesce('services.name', 'teams.name').$notNull().as('profile_name'),
      (eb) => eb.fn.coalesce('services.icon_asset_id', 'teams.icon_asset_id').as('profile_icon_asset_id'),
    ]);
}

/** Where a notification stands in its user's list: (created_at, event id), or undefined when it is gone. */
function notificationKey(db: Db, userId: string, eventId: string) {
  return db
    .selectFrom('notifications')
    .select(['created_at', 'event_id'])
    .where('user_id', '=', userId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
}

type NotificationsPast = { workspaceId: string; userId: string; createdAt: string; eventId: string; limit: number };

/** A user's notifications past a key (or from the newest): one precompiled query per direction and shape. */
function notificationsPast(direction: 'older' | 'newer', keyed: boolean) {
  const order = direction === 'older' ? 'desc' : 'asc';
  return precompile<NotificationsPast, NotificationRow>(
    (db, param) =>
      notificationsQuery(db, param('workspaceId'))
        .where('notifications.user_id', '=', param('userId'))
        .$if(keyed, (qb) =>
          qb.where((eb) =>
            eb(
              eb.refTuple('notifications.created_at', 'notifications.event_id'),
              direction === 'older' ? '<' : '>',
              eb.tuple(param('createdAt'), param('eventId')),
            ),
          ),
        )
        .orderBy('notifications.created_at', order)
        .orderBy('notifications.event_id', order)
        .limit(param('limit')) as unknown as Compilable<NotificationRow>,
  );
}

const notificationsFromNewest = notificationsPast('older', false);
const notificationsOlder = notificationsPast('older', true);
const notificationsNewer = notificationsPast('newer', true);

/** A user's notifications past `key`: older ones newest first (a page), or newer ones oldest first (a resume). */
function notificationsBeside(
  db: Db,
  workspaceId: string,
  userId: string,
  key: { created_at: string; event_id: string } | undefined,
  direction: 'older' | 'newer',
  limit: number,
): Promise<NotificationRow[]> {
  const query =
    key === undefined ? notificationsFromNewest : direction === 'older' ? notificationsOlder : notificationsNewer;
  return query(db, { workspaceId, userId, createdAt: key?.created_at ?? '', eventId: key?.event_id ?? '', limit });
}

/** A user's notifications, newest first, after the cursor's (a notification's id is its event's). */
export async function listNotifications(
  db: Db,
  workspaceId: string,
  userId: string,
  page: FeedPage,
): Promise<NotificationRow[]> {
  const key = page.cursor === undefined ? undefined : await notificationKey(db, userId, page.cursor);
  // A cursor that is gone (kept no longer) ends the list.
  if (page.cursor !== undefined && !key) return [];
  return notificationsBeside(db, workspaceId, userId, key, 'older', page.limit);
}

/** Notifications newer than `eventId`'s (oldest first): what a resumed stream missed. */
export async function listNotificationsSince(
  db: Db,
  workspaceId: string,
  userId: string,
  eventId: string,
  limit: number,
): Promise<NotificationRow[]> {
  const key = await notificationKey(db, userId, eventId);
  if (!key) return [];
  return notificationsBeside(db, workspaceId, userId, key, 'newer', limit);
}

/** The notifications of these events: what open streams are given. */
export async function notificationsOfEvents(
  db: Db,
  eventIds: readonly string[],
): Promise<(NotificationRow & { workspace_id: string })[]> {
  if (eventIds.length === 0) return [];
  return notificationsQuery(db)
    .where('notifications.event_id', 'in', eventIds)
    .orderBy('notifications.created_at', 'asc')
    .execute() as Promise<(NotificationRow & { workspace_id: string })[]>;
}

const unreadCount = precompile<{ workspaceId: string; userId: string }, { unread: number | string }>((db, param) =>
  db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string>().as('unread'))
    .where('workspace_id', '=', param('workspaceId'))
    .where('user_id', '=', param('userId'))
    .where('read', '=', 0),
);

export async function countUnread(db: Db, workspaceId: string, userId: string): Promise<number> {
  const [row] = await unreadCount(db, { workspaceId, userId });
  return Number(row!.unread);
}

/** Marks the user's notifications read: those of `ids`, or all. */
export async function markNotificationsRead(
  db: Db,
  workspaceId: string,
  userId: string,
  ids: readonly string[] | undefined,
): Promise<number> {
  if (ids !== undefined && ids.length === 0) return 0;
  const result = await db
    .updateTable('notifications')
    .set({ read: 1 })
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .where('read', '=', 0)
    .$if(ids !== undefined, (qb) => qb.where('event_id', 'in', ids!))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Retention: events (and their notifications, by cascade) older than `before`. */
export async function deleteEventsBefore(db: Db, before: string): Promise<number> {
  await db.deleteFrom('notifications').where('created_at', '<', before).execute();
  const result = await db.deleteFrom('events').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
