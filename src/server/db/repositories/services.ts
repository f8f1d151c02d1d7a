import { sql, type Compilable, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { Database, ServiceRow, ServicesTable } from '../schema.js';
import { isSqlite, readOffThread } from '../connect.js';
import { precompile, type Param } from '../precompiled.js';
import { pageAndCount, precompiledPage, type Paged } from './paging.js';
import { SHORT_SEARCH_INDEX } from '../migrations/034-short-search-index.js';
import { searchTerm, TRIGRAM, whereSearchTextContains } from './search.js';
import type { SearchPage } from './users.js';
import type { Db } from './workspaces.js';

/**
 * Who reads: `userId` for the viewer's own star and team memberships; `all` for workspace admins and owners,
 * who see owner-only services too (docs/decisions.md#roles-and-visibility).
 */
export interface ServiceScope {
  userId: string;
  all: boolean;
  /** An API client: the team it acts for stands in for the user's memberships. */
  teamId?: string;
  /**
   * The user's teams as the caller's viewer holds them (cache/viewer.ts), comma-joined: the visibility rule
   * then follows exactly the teams an answer is kept under (cache/catalogue-cache.ts), not a membership
   * committed a moment later. Without it, the user's memberships are read in the query.
   */
  teamList?: string;
}

/**
 * Whether `team` is in a comma-joined list of team ids: one expression both engines run (ids are UUIDs, with
 * no comma, `%` or `_` in them).
 */
function inTeamList(team: RawBuilder<unknown> | ReturnType<typeof sql.ref>, list: unknown) {
  return sql<SqlBool>`(',' || ${list} || ',' like '%,' || ${team} || ',%')`;
}

/** A service with its owner team and whether the viewer starred it (joined: one query for a page). */
export interface ServiceListRow extends ServiceRow {
  owner_handle: string;
  owner_name: string;
  owner_icon_asset_id: string | null;
  starred_at: string | null;
}

const SERVICE_COLUMNS = [
  'services.id',
  'services.workspace_id',
  'services.handle',
  'services.name',
  'services.description',
  'services.icon_asset_id',
  'services.owner_team_id',
  'services.visibility',
  'services.stage',
  'services.health',
  'services.links',
  'services.starred_count',
  'services.created_at',
  'services.updated_at',
] as const;

/**
 * Visibility (docs/decisions.md#roles-and-visibility) in SQL, the one predicate for queries over `services`: owner-only
 * services only for the owning team's members, or for the team an API client acts for. Admins (`scope.all`) skip it.
 */
export function visibleTo(workspaceId: string, scope: ServiceScope) {
  return (eb: ExpressionBuilder<Database, 'services'>) =>
    eb.or([
      eb('services.visibility', '<>', 'owner'),
      scope.teamId !== undefined
        ? eb('services.owner_team_id', '=', scope.teamId)
        : scope.teamList !== undefined
          ? inTeamList(sql.ref('services.owner_team_id'), scope.teamList)
          : eb(
              'services.owner_team_id',
              'in',
              eb
                .selectFrom('team_members')
                .select('team_members.team_id')
                .where('team_members.workspace_id', '=', workspaceId)
                .where('team_members.user_id', '=', scope.userId),
            ),
    ]);
}

/** The services the scope may see (no joins: what a count needs). */
function visibleServices(db: Db, workspaceId: string, scope: ServiceScope) {
  return db
    .selectFrom('services')
    .where('services.workspace_id', '=', workspaceId)
    .$if(!scope.all, (qb) => qb.where(visibleTo(workspaceId, scope)));
}

type ServiceFilter = ReturnType<typeof visibleServices>;

/**
 * Each service with its owner team and the viewer's star. A cross join with its condition in the where clause:
 * SQLite keeps that order, so a page walks the services in name order and stops at the limit (with statistics
 * it would rather start from the teams and sort every service); PostgreSQL plans it as any inner join.
 */
function withOwnerAndStar(query: ServiceFilter, scope: ServiceScope) {
  return query
    .crossJoin('teams as owner')
    .whereRef('owner.id', '=', 'services.owner_team_id')
    .whereRef('owner.workspace_id', '=', 'services.workspace_id')
    .leftJoin('stars', (join) =>
      join.onRef('stars.service_id', '=', 'services.id').on('stars.user_id', '=', scope.userId),
    );
}

function selectService(query: ServiceFilter, scope: ServiceScope) {
  return withOwnerAndStar(query, scope)
    .select(SERVICE_COLUMNS)
    .select([
      'owner.handle as owner_handle',
      'owner.name as owner_name',
      'owner.icon_asset_id as owner_icon_asset_id',
      'stars.created_at as starred_at',
    ]);
}

/** A search's page of services in name order, read off the server's thread (SQLite), with the total `count` gives. */
function pageOfServices(
  db: Db,
  filter: ServiceFilter,
  scope: ServiceScope,
  page: SearchPage,
  count: Promise<{ n: number | string }>,
): Promise<Paged<ServiceListRow>> {
  const rows = selectService(filter, scope)
    .orderBy('services.name')
    .orderBy('services.handle')
    .limit(page.limit)
    .offset(page.cursor);
  return pageAndCount(readOffThread(db, rows.compile()), count);
}

/**
 * How many services the scope may see (of one owner team, when given), summed from `service_counts` (kept by
 * triggers, migration 018): the same visibility rule as `visibleTo`, over a few rows per team.
 */
function visibleServicesCount(db: Db, workspaceId: string, scope: ServiceScope, ownerTeamId?: string) {
  return db
    .selectFrom('service_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('n'), eb.lit(0)).as('n'))
    .where('service_counts.workspace_id', '=', workspaceId)
    .$if(ownerTeamId !== undefined, (qb) => qb.where('service_counts.owner_team_id', '=', ownerTeamId!))
    .$if(!scope.all, (qb) => qb.where(countsVisibleTo('service_counts', workspaceId, scope)));
}

/** A counts table kept by triggers: its rows per owner team, owner-only ones apart (migrations 018 and 028). */
type CountsTable = 'service_counts' | 'scorecard_counts';

/**
 * `visibleTo` for the rows of a counts table: those of services anyone may see, and the owner-only ones of the
 * scope's teams (or of the team an API client acts for).
 */
export function countsVisibleTo(table: CountsTable, workspaceId: string, scope: ServiceScope) {
  const team = sql.ref(`${table}.owner_team_id`);
  const mine =
    scope.teamId !== undefined
      ? sql`${team} = ${scope.teamId}`
      : scope.teamList !== undefined
        ? inTeamList(team, scope.teamList)
        : sql`${team} in (select team_members.team_id from team_members
          where team_members.workspace_id = ${workspaceId} and team_members.user_id = ${scope.userId})`;
  return sql<SqlBool>`(${sql.ref(`${table}.owner_only`)} = 0 or ${mine})`;
}

function countVisibleServices(db: Db, workspaceId: string, scope: ServiceScope, ownerTeamId?: string) {
  return visibleServicesCount(db, workspaceId, scope, ownerTeamId).executeTakeFirstOrThrow();
}

/** Which SQL a scope's visibility rule takes: none (workspace admins), an API client's team, a user's teams. */
export type ScopeKind = 'all' | 'client' | 'user';

export function scopeKind(scope: ServiceScope): ScopeKind {
  return scope.all ? 'all' : scope.teamId !== undefined ? 'client' : 'user';
}

/** The values a precompiled query of a scope kind takes for the scope. */
export interface ScopeValues {
  workspaceId: string;
  userId: string;
  scopeTeamId: string;
  teamList: string;
}

export function scopeValues(workspaceId: string, scope: ServiceScope): ScopeValues {
  return { workspaceId, userId: scope.userId, scopeTeamId: scope.teamId ?? '', teamList: scope.teamList ?? '' };
}

/** A scope of this kind made of a precompiled query's slots. */
export function scopeOfSlots(kind: ScopeKind, param: Param<ScopeValues>): ServiceScope {
  return {
    userId: param('userId'),
    all: kind === 'all',
    ...(kind === 'client' ? { teamId: param('scopeTeamId') } : {}),
    ...(kind === 'user' ? { teamList: param('teamList') } : {}),
  };
}

/** One precompiled query per scope kind. */
export function perScopeKind<T>(make: (kind: ScopeKind) => T): Record<ScopeKind, T> {
  return { all: make('all'), client: make('client'), user: make('user') };
}

type ServicesPageValues = ScopeValues & { ownerTeamId: string; limit: number; offset: number };

/** A page of the services a scope may see (of one owner team, when `byTeam`), by name, and their count. */
function precompiledServicesPage(byTeam: boolean) {
  const rows = perScopeKind((kind) =>
    precompile<ServicesPageValues, ServiceListRow>((db, param) => {
      const scope = scopeOfSlots(kind, param);
      return selectService(
        visibleServices(db, param('workspaceId'), scope).$if(byTeam, (qb) =>
          qb.where('services.owner_team_id', '=', param('ownerTeamId')),
        ),
        scope,
      )
        .orderBy('services.name')
        .orderBy('services.handle')
        .limit(param('limit'))
        .offset(param('offset')) as unknown as Compilable<ServiceListRow>;
    }),
  );
  const count = perScopeKind((kind) =>
    precompile<ServicesPageValues, { n: number | string }>((db, param) =>
      visibleServicesCount(
        db,
        param('workspaceId'),
        scopeOfSlots(kind, param),
        byTeam ? param('ownerTeamId') : undefined,
      ),
    ),
  );
  const pages = perScopeKind((kind) => precompiledPage(rows[kind], count[kind]));
  return (db: Db, workspaceId: string, scope: ServiceScope, page: SearchPage, ownerTeamId = '') =>
    pages[scopeKind(scope)](db, {
      ...scopeValues(workspaceId, scope),
      ownerTeamId,
      limit: page.limit,
      offset: page.cursor,
    });
}

const everyServicePage = precompiledServicesPage(false);
const teamServicePage = precompiledServicesPage(true);

/**
 * One service by handle or id, whatever its visibility (the caller applies the domain rule, so a hidden
 * service and a missing one answer alike). Two indexed lookups rather than one `or` that scans.
 */
export async function findService(
  db: Db,
  workspaceId: string,
  idOrHandle: string,
  viewerId: string,
): Promise<ServiceListRow | undefined> {
  const values = { workspaceId, key: idOrHandle, viewerId };
  return (await serviceByHandle(db, values))[0] ?? (await serviceById(db, values))[0];
}

function serviceBy(column: 'services.handle' | 'services.id') {
  return precompile<{ workspaceId: string; key: string; viewerId: string }, ServiceListRow>((db, param) => {
    const scope = { userId: param('viewerId'), all: true };
    return selectService(visibleServices(db, param('workspaceId'), scope).where(column, '=', param('key')), scope);
  });
}

const serviceByHandle = serviceBy('services.handle');
const serviceById = serviceBy('services.id');

export function findServiceByHandle(db: Db, workspaceId: string, handle: string) {
  return db
    .selectFrom('services')
    .select(['id'])
    .where('workspace_id', '=', workspaceId)
    .where('handle', '=', handle)
    .executeTakeFirst();
}

/** Services whose name, handle or description contains `q`, visible to the scope. */
export function searchServices(
  db: Db,
  workspaceId: string,
  scope: ServiceScope,
  page: SearchPage,
): Promise<Paged<ServiceListRow>> {
  // Without a search text the total is the kept count; with one, the matches are counted.
  if (!searchTerm(page.q)) return everyServicePage(db, workspaceId, scope, page);
  if (!isSqlite(db)) return searchServicesOnPostgres(db, workspaceId, scope, page);
  const query = whereSearchTextContains(db, visibleServices(db, workspaceId, scope), 'services', page.q);
  return searchServicesOnSqlite(db, workspaceId, scope, page, query);
}

/**
 * PostgreSQL: the matches are listed once (a materialized CTE), and counted and sorted for the page from that
 * list, in one statement. As two statements, the count read every row of the table and the page walked the name
 * index until it had found its rows, which for a term that is in the names (its matches side by side in name
 * order) meant most of the table: 116 ms for a term in 5 % of 100,000 services, 16 ms this way.
 *
 * The trigram index is the quicker way to the matches while the table is in memory, as a catalogue that is read
 * all day is; PostgreSQL's default random_page_cost (4, a disk's seek) prices it above reading every row, so the
 * search plans with 1.1, the value PostgreSQL's documentation suggests for data in memory or on SSD, for its own
 * transaction only. Inside a caller's transaction the setting would outlive the search: it then plans as usual.
 */
async function searchServicesOnPostgres(
  db: Db,
  workspaceId: string,
  scope: ServiceScope,
  page: SearchPage,
): Promise<Paged<ServiceListRow>> {
  const search = async (trx: Db): Promise<Paged<ServiceListRow>> => {
    const matches = () =>
      whereSearchTextContains(trx, visibleServices(trx, workspaceId, scope), 'services', page.q).select([
        'services.id',
        'services.name',
        'services.handle',
      ]);
    const withMatches = trx.with((cte) => cte('matches').materialized(), matches);
    // The statement's tables are the catalogue's plus `matches`: the service columns come from `services` alone.
    const pageOfMatches = withMatches
      .selectFrom('services')
      .where('services.workspace_id', '=', workspaceId)
      .where('services.id', 'in', (eb) =>
        eb.selectFrom('matches').select('id').orderBy('name').orderBy('handle').limit(page.limit).offset(page.cursor),
      ) as unknown as ServiceFilter;
    const rows = await selectService(pageOfMatches, scope)
      .select(sql<string>`(select count(*) from matches)`.as('total'))
      .orderBy('services.name')
      .orderBy('services.handle')
      .execute();
    // Past the last page no row carries the total: it is counted on its own.
    const total =
      rows[0]?.total ??
      (
        await withMatches
          .selectFrom('matches')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    return { rows: rows.map(({ total: _, ...row }) => row), total: Number(total) };
  };
  if (db.isTransaction || searchTerm(page.q).length < TRIGRAM) return search(db);
  return db.transaction().execute(async (trx) => {
    await sql`set local random_page_cost = 1.1`.execute(trx);
    return search(trx);
  });
}

/** Rows a name-order walk may read for a page before the trigram index is the cheaper way (SQLite). */
const WALK_AT_MOST = 5000;
/** The fewest rows a walk is given before it gives up (a guess a few times too low still finds its page). */
const WALK_AT_LEAST = 64;

/**
 * SQLite: the matches are counted through the trigram index first; when they are common, the page walks the
 * services in name order and stops after it (about limit x all / matches rows), rather than listing every match.
 * That guess holds when the matches are spread through the names; when they sit together (a term in the names,
 * "payments" among 100,000 services) the walk would read every row before them. So the walk goes no further
 * than twice its guess: a page it did not fill there comes from the index.
 */
async function searchServicesOnSqlite(
  db: Db,
  workspaceId: string,
  scope: ServiceScope,
  page: SearchPage,
  indexed: ServiceFilter,
): Promise<Paged<ServiceListRow>> {
  const [total, all] = await Promise.all([
    searchTerm(page.q).length < TRIGRAM ? countShortMatches(db, indexed) : countOf(db, indexed),
    countVisibleServices(db, workspaceId, scope),
  ]);
  const counted = Promise.resolve({ n: total });
  const walked = ((page.cursor + page.limit) * Number(all.n)) / Math.max(1, total);
  // SQLite's lower() folds ASCII only, as LIKE does: other text stays with the index, which folds it all.
  const ascii = /^[\x20-\x7e]*$/.test(page.q ?? '');
  if (!ascii || walked > WALK_AT_MOST) return pageOfServices(db, indexed, scope, page, counted);
  const last = await nameInOrder(db, workspaceId, Math.max(WALK_AT_LEAST, Math.ceil(2 * walked)));
  const walk = whereSearchTextContains(db, visibleServices(db, workspaceId, scope), 'services', page.q, {
    scan: true,
  }).$if(last !== undefined, (qb) => qb.where('services.name', '<=', last!));
  const walkedPage = await pageOfServices(db, walk, scope, page, counted);
  const whole = last === undefined || walkedPage.rows.length === page.limit;
  if (whole || page.cursor + walkedPage.rows.length >= total) return walkedPage;
  return pageOfServices(db, indexed, scope, page, counted);
}

/** How many services a search matches, counted off the server's thread (SQLite). */
async function countOf(db: Db, matches: ServiceFilter): Promise<number> {
  const [row] = await readOffThread(db, matches.select((eb) => eb.fn.countAll<number>().as('n')).compile());
  return Number(row!.n);
}

/**
 * SQLite: the matches of a term too short for the trigram index, counted from the short-search index alone
 * (migration 034). The planner, with statistics, would rather read every row and compute its searched text (two to
 * three times slower), so the statement names the index: Kysely cannot write INDEXED BY, it is put in the compiled
 * statement.
 */
async function countShortMatches(db: Db, matches: ServiceFilter): Promise<number> {
  const compiled = matches
    .where('services.search_text', 'is not', null)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .compile();
  const from = 'from "services" where';
  if (compiled.sql.split(from).length !== 2) throw new Error(`countShortMatches: not one ${from} in ${compiled.sql}`);
  const sql = compiled.sql.replace(from, `from "services" indexed by "${SHORT_SEARCH_INDEX}" where`);
  const [row] = await readOffThread<{ n: number }>(db, { ...compiled, sql });
  return Number(row!.n);
}

/** The name of the workspace's `nth` service in name order (from the name index), if it has that many. */
async function nameInOrder(db: Db, workspaceId: string, nth: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('services')
    .select('name')
    .where('workspace_id', '=', workspaceId)
    .orderBy('name')
    .orderBy('handle')
    .limit(1)
    .offset(nth - 1)
    .executeTakeFirst();
  return row?.name;
}

export function listTeamServices(db: Db, workspaceId: string, teamId: string, scope: ServiceScope, page: SearchPage) {
  return teamServicePage(db, workspaceId, scope, page, teamId);
}

/**
 * The services `starrerId` starred that the scope may see, by name. A cross join (with its condition in the
 * where clause) because SQLite keeps that join order: without statistics it would rather walk every service
 * of the workspace than the user's few stars. PostgreSQL plans it as any inner join.
 */
export function listStarredServices(db: Db, workspaceId: string, starrerId: string, scope: ServiceScope) {
  return db
    .selectFrom('stars')
    .crossJoin('services')
    .select(['services.id', 'services.handle', 'services.name', 'services.icon_asset_id'])
    .whereRef('services.id', '=', 'stars.service_id')
    .where('stars.user_id', '=', starrerId)
    .where('services.workspace_id', '=', workspaceId)
    .$if(!scope.all, (qb) => qb.where(visibleTo(workspaceId, scope)))
    .orderBy('services.name')
    .orderBy('services.handle')
    .execute();
}

/**
 * Watched services (docs/decisions.md#open-decisions): those of `userId`'s teams and those `userId` starred, visible to
 * the scope, each with `userId`'s mute of it (if any). The ids come from a union of two index lookups and lead the
 * (cross, for SQLite's join order as above) join to the services.
 */
export function listWatchedServices(db: Db, workspaceId: string, userId: string, scope: ServiceScope) {
  const ofTeams = db
    .selectFrom('services as owned')
    .select('owned.id')
    .where('owned.workspace_id', '=', workspaceId)
    .where('owned.owner_team_id', 'in', (eb) =>
      eb
        .selectFrom('team_members')
        .select('team_members.team_id')
        .where('team_members.workspace_id', '=', workspaceId)
        .where('team_members.user_id', '=', userId),
    );
  const starred = db.selectFrom('stars').select('stars.service_id as id').where('stars.user_id', '=', userId);
  return db
    .selectFrom(ofTeams.union(starred).as('watched'))
    .crossJoin('services')
    .leftJoin('mutes', (join) =>
      join
        .onRef('mutes.profile_id', '=', 'services.id')
        .on('mutes.user_id', '=', userId)
        .on('mutes.profile_type', '=', 'service'),
    )
    .select(['services.id', 'services.handle', 'services.name', 'mutes.activity', 'mutes.notifications'])
    .whereRef('services.id', '=', 'watched.id')
    .where('services.workspace_id', '=', workspaceId)
    .$if(!scope.all, (qb) => qb.where(visibleTo(workspaceId, scope)))
    .orderBy('services.name')
    .orderBy('services.handle')
    .execute();
}

/** The handles and names of these services of the workspace. */
export function listServiceNamesByIds(db: Db, workspaceId: string, ids: readonly string[]) {
  return db
    .selectFrom('services')
    .select(['id', 'handle', 'name'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .execute();
}

/** What the removal of a service tells and cleans up after (jobs/catalog-sync.ts, an orphan's): by id alone. */
export function findServiceToRemove(db: Db, id: string) {
  return db
    .selectFrom('services')
    .select(['id', 'name', 'handle', 'owner_team_id', 'icon_asset_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Every service of the workspace: its id by handle. */
export function listServiceHandles(db: Db, workspaceId: string) {
  return db.selectFrom('services').select(['id', 'handle']).where('workspace_id', '=', workspaceId).execute();
}

type NewService = Omit<ServicesTable, 'search_text' | 'starred_count'>;

/** One service, or a run of them in one statement (a catalogue import). */
export async function insertService(db: Db, row: NewService | readonly NewService[]): Promise<void> {
  await db.insertInto('services').values(row).execute();
}

export type ServicePatch = Partial<
  Pick<
    ServiceRow,
    'name' | 'description' | 'links' | 'icon_asset_id' | 'owner_team_id' | 'health' | 'visibility' | 'stage'
  >
> & { updated_at: string };

/** The patch may rename the service too: a catalogue file can (services/descriptors/apply.ts), the API cannot. */
export async function updateService(
  db: Db,
  workspaceId: string,
  id: string,
  patch: ServicePatch & { handle?: string },
): Promise<void> {
  await db.updateTable('services').set(patch).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/**
 * Sets a service's health only if it differs; true when this call changed it. Of two concurrent changes to
 * the same value exactly one changes the row (PostgreSQL re-checks the condition after the row lock; SQLite
 * runs one writer at a time), so the transition log never records a change twice or misses one.
 */
/** The service's health now; on PostgreSQL the row stays locked until the transaction ends (its change follows). */
export async function currentServiceHealth(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<ServicesTable['health'] | undefined> {
  const row = await db
    .selectFrom('services')
    .select('health')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .$if(!isSqlite(db), (qb) => qb.forUpdate())
    .executeTakeFirst();
  return row?.health;
}

export async function changeServiceHealth(
  db: Db,
  workspaceId: string,
  id: string,
  health: ServicesTable['health'],
  updatedAt: string,
): Promise<boolean> {
  const result = await db
    .updateTable('services')
    .set({ health, updated_at: updatedAt })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('health', '<>', health)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteService(db: Db, workspaceId: string, id: string): Promise<void> {
  await db.deleteFrom('services').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/** Moves the denormalised star count by `delta`, in the transaction that added or removed the star. */
export async function addToStarredCount(db: Db, workspaceId: string, id: string, delta: 1 | -1): Promise<void> {
  await db
    .updateTable('services')
    .set((eb) => ({ starred_count: eb('starred_count', '+', delta) }))
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/**
 * The owner-only services of `teamIds` a page's filter (`q`) matches: how many, and how many of them sort at or
 * before `last` (by name, then handle, as the pages sort; all of them when there is no `last`). A member's page is
 * the page of the services everyone sees when none comes before its end (cache/catalogue-cache.ts): the
 * comparison is the database's own, in its collation.
 */
export async function ownerOnlyMatches(
  db: Db,
  workspaceId: string,
  teamIds: readonly string[],
  q: string | undefined,
  last: { name: string; handle: string } | null,
): Promise<{ total: number; before: number }> {
  if (teamIds.length === 0) return { total: 0, before: 0 };
  const owned = db
    .selectFrom('services')
    .where('services.workspace_id', '=', workspaceId)
    .where('services.visibility', '=', 'owner')
    .where('services.owner_team_id', 'in', teamIds);
  const before = last
    ? sql<number>`sum(case when services.name < ${last.name}
        or (services.name = ${last.name} and services.handle <= ${last.handle}) then 1 else 0 end)`
    : sql<number>`count(*)`;
  // A few services of a few teams: their texts are read from the rows the team index finds (no trigram lookup).
  const row = await whereSearchTextContains(db, owned, 'services', q, { scan: true })
    .select((eb) => [eb.fn.countAll<number | string>().as('total'), before.as('before')])
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), before: Number(row.before ?? 0) };
}

/**
 * A team's owner-only services and their searched texts (by the team index: a team owns a few), from which a
 * member's searches tell whether any of them matches without asking the database (cache/catalogue-cache.ts).
 */
export function ownerOnlyServicesOf(db: Db, workspaceId: string, teamId: string) {
  return db
    .selectFrom('services')
    .select(['id', 'search_text'])
    .where('workspace_id', '=', workspaceId)
    .where('owner_team_id', '=', teamId)
    .where('visibility', '=', 'owner')
    .execute();
}
