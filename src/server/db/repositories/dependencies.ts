import { sql } from 'kysely';
import type { Health, Visibility } from '../../../domain/catalogue.js';
import type { RemoteDependenciesTable, ServiceDependenciesTable, WorkspaceRemotesTable } from '../schema.js';
import { whereSearchTextContains } from './search.js';
import { visibleTo, type ServiceScope } from './services.js';
import type { Db } from './workspaces.js';
import { chunks } from './chunks.js';

/** A service as dependency lists and graph nodes show it. */
export interface DependencyRow {
  id: string;
  handle: string;
  name: string;
  health: Health;
  icon_asset_id: string | null;
}

const DEPENDENCY_COLUMNS = [
  'services.id',
  'services.handle',
  'services.name',
  'services.health',
  'services.icon_asset_id',
] as const;

function visibleServices(db: Db, workspaceId: string, scope: ServiceScope) {
  return db
    .selectFrom('services')
    .where('services.workspace_id', '=', workspaceId)
    .$if(!scope.all, (qb) => qb.where(visibleTo(workspaceId, scope)));
}

/** Which side of a dependency a list shows: what the service depends on, or what depends on it. */
export type DependencySide = 'dependencies' | 'dependents';

/** Per side: the column naming the service asked about, and the column naming the services listed. */
const SIDES = {
  dependencies: { of: 'd.service_id', listed: 'd.dependency_id' },
  dependents: { of: 'd.dependency_id', listed: 'd.service_id' },
} as const;

/** The services on one side of `serviceId` (its dependencies or its dependents) that the scope may see, by name. */
export function listDependencySide(
  db: Db,
  workspaceId: string,
  serviceId: string,
  scope: ServiceScope,
  side: DependencySide,
): Promise<DependencyRow[]> {
  const { of, listed } = SIDES[side];
  return visibleServices(db, workspaceId, scope)
    .innerJoin('service_dependencies as d', listed, 'services.id')
    .where(of, '=', serviceId)
    .select(DEPENDENCY_COLUMNS)
    .orderBy('services.name')
    .orderBy('services.handle')
    .execute();
}

/** Adds a dependency; false when it was there already (the primary key decides, so a race is a 409 too). */
export async function insertDependency(db: Db, row: ServiceDependenciesTable): Promise<boolean> {
  const result = await db
    .insertInto('service_dependencies')
    .values(row)
    .onConflict((oc) => oc.columns(['service_id', 'dependency_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Dependencies in one statement (a catalogue apply, after deleteAllDependenciesOf). */
export async function insertDependencies(db: Db, rows: readonly ServiceDependenciesTable[]): Promise<void> {
  await db.insertInto('service_dependencies').values(rows).execute();
}

/** Every dependency of these services, local, then remote. */
export async function deleteAllDependenciesOf(
  db: Db,
  workspaceId: string,
  serviceIds: readonly string[],
): Promise<void> {
  await db
    .deleteFrom('service_dependencies')
    .where('workspace_id', '=', workspaceId)
    .where('service_id', 'in', serviceIds)
    .execute();
  await db
    .deleteFrom('remote_dependencies')
    .where('workspace_id', '=', workspaceId)
    .where('service_id', 'in', serviceIds)
    .execute();
}

export async function deleteDependency(
  db: Db,
  workspaceId: string,
  serviceId: string,
  dependencyId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('service_dependencies')
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId)
    .where('dependency_id', '=', dependencyId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** A service the walk reached, with its distance from the root. */
export interface WalkRow extends DependencyRow {
  depth: number;
}

/**
 * visibleTo for the walk's raw SQL, on the service `s` a step reaches, with the owner-only services of
 * `visibleTeams` visible: a join by primary key and a literal list, where an `in (visible services)` per step
 * would scan the workspace. Naming the teams (rather than reading the viewer's memberships inside the walk) makes
 * the answer a function of the list, which is what the graph cache keys it by.
 */
function visibleInWalk(visibleTeams: readonly string[]) {
  if (visibleTeams.length === 0) return sql<boolean>`s.visibility <> 'owner'`;
  return sql<boolean>`(s.visibility <> 'owner' or s.owner_team_id in (${sql.join(visibleTeams)}))`;
}

/**
 * The graph walk, in the database (docs/decisions.md#graph): from the root along dependencies and, separately, along
 * dependents, up to `depth` steps each, through services that are not owner-only or belong to one of
 * `visibleTeams`. `UNION` keeps one row per service and distance, so cycles and diamonds end at the depth bound
 * instead of multiplying paths. The nearest `limit` services come back, ties by handle (the caller learns of
 * truncation from the extra row it asks for).
 */
export async function walkDependencies(
  db: Db,
  rootId: string,
  visibleTeams: readonly string[],
  depth: number,
  limit: number,
): Promise<WalkRow[]> {
  const visible = visibleInWalk(visibleTeams);
  const { rows } = await sql<WalkRow & { depth: number | string }>`
    with recursive down(id, depth) as (
      select cast(${rootId} as text), 0
      union
      select d.dependency_id, down.depth + 1
      from down
      join service_dependencies d on d.service_id = down.id
      join services s on s.id = d.dependency_id
      where down.depth < ${depth} and ${visible}
    ),
    up(id, depth) as (
      select cast(${rootId} as text), 0
      union
      select d.service_id, up.depth + 1
      from up
      join service_dependencies d on d.dependency_id = up.id
      join services s on s.id = d.service_id
      where up.depth < ${depth} and ${visible}
    ),
    walk as (select id, depth from down union all select id, depth from up)
    select s.id, s.handle, s.name, s.health, s.icon_asset_id, min(walk.depth) as depth
    from walk join services s on s.id = walk.id
    group by s.id, s.handle, s.name, s.health, s.icon_asset_id
    order by depth, s.handle
    limit ${limit}
  `.execute(db);
  return rows.map((row) => ({ ...row, depth: Number(row.depth) }));
}

/**
 * What a workspace's graphs are made of, read per request (migration 012): `versions` names the graph versions
 * of the workspace and of each workspace it links to (remote nodes show their live health), `teams` the teams
 * `userId` is in now (none asked for: an empty list). A few rows, each read by primary key or index (an `or`
 * would let PostgreSQL scan the versions, whose single hot row leaves dead versions behind until vacuum).
 */
export async function readGraphState(
  db: Db,
  workspaceId: string,
  userId: string | null,
): Promise<{ versions: string; teams: string[] }> {
  const memberships =
    userId === null
      ? sql``
      : sql`union all
        select 'team', tm.team_id, 0 from team_members tm where tm.workspace_id = ${workspaceId} and tm.user_id = ${userId}`;
  const { rows } = await sql<{ kind: string; id: string; version: number | string }>`
    select 'version' as kind, v.workspace_id as id, v.version as version
    from graph_versions v where v.workspace_id = ${workspaceId}
    union all
    select 'version', v.workspace_id, v.version
    from workspace_remotes r join graph_versions v on v.workspace_id = r.remote_workspace_id
    where r.workspace_id = ${workspaceId}
    ${memberships}
  `.execute(db);
  const versions: string[] = [];
  const teams: string[] = [];
  for (const row of rows) {
    if (row.kind === 'team') teams.push(row.id);
    else versions.push(`${row.id}=${row.version}`);
  }
  return { versions: versions.sort().join(','), teams };
}

/** The teams owning an owner-only service of the workspace: the only memberships a graph's answer depends on. */
export async function listRestrictedTeams(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('services')
    .select('owner_team_id')
    .distinct()
    .where('workspace_id', '=', workspaceId)
    .where('visibility', '=', 'owner')
    .execute();
  return rows.map((row) => row.owner_team_id);
}

/** A graph's root by handle (or id), with what its visibility needs; undefined when the workspace has none. */
export async function findGraphRoot(
  db: Db,
  workspaceId: string,
  idOrHandle: string,
): Promise<{ id: string; visibility: Visibility; owner_team_id: string } | undefined> {
  const root = db
    .selectFrom('services')
    .select(['id', 'visibility', 'owner_team_id'])
    .where('workspace_id', '=', workspaceId);
  return (
    (await root.where('handle', '=', idOrHandle).executeTakeFirst()) ??
    root.where('id', '=', idOrHandle).executeTakeFirst()
  );
}

/** Ids per query when a list goes into `in (...)`: well under both engines' parameter limits. */
const IN_CHUNK = 500;

/**
 * The dependency edges among `serviceIds`: each service's outgoing edges by primary key, kept when the target is
 * in the set too (an `in` list on both columns makes SQLite scan the table).
 */
export async function edgesAmong(
  db: Db,
  workspaceId: string,
  serviceIds: readonly string[],
): Promise<Array<{ service_id: string; dependency_id: string }>> {
  const wanted = new Set(serviceIds);
  const edges: Array<{ service_id: string; dependency_id: string }> = [];
  for (const chunk of chunks(serviceIds, IN_CHUNK)) {
    const rows = await db
      .selectFrom('service_dependencies')
      .select(['service_id', 'dependency_id'])
      .where('workspace_id', '=', workspaceId)
      .where('service_id', 'in', chunk)
      .execute();
    for (const row of rows) if (wanted.has(row.dependency_id)) edges.push(row);
  }
  return edges;
}

// ---- linked workspaces ----

/** The domains of the workspaces `workspaceId` is linked to, alphabetically. */
export async function listRemoteDomains(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('workspace_remotes as r')
    .innerJoin('workspaces as w', 'w.id', 'r.remote_workspace_id')
    .select('w.domain')
    .where('r.workspace_id', '=', workspaceId)
    .orderBy('w.domain')
    .execute();
  return rows.map((row) => row.domain);
}

export async function insertRemote(db: Db, row: WorkspaceRemotesTable): Promise<boolean> {
  const result = await db
    .insertInto('workspace_remotes')
    .values(row)
    .onConflict((oc) => oc.columns(['workspace_id', 'remote_workspace_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function deleteRemote(db: Db, workspaceId: string, remoteWorkspaceId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('workspace_remotes')
    .where('workspace_id', '=', workspaceId)
    .where('remote_workspace_id', '=', remoteWorkspaceId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** A public service of a workspace `workspaceId` is linked to. */
export interface RemoteServiceRow {
  domain: string;
  handle: string;
  name: string;
  health: Health;
  icon_asset_id: string | null;
}

/** The public services of linked workspaces: the only part of another workspace a member ever sees. */
function linkedPublicServices(db: Db, workspaceId: string) {
  return db
    .selectFrom('workspace_remotes')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_remotes.remote_workspace_id')
    .innerJoin('services', 'services.workspace_id', 'workspace_remotes.remote_workspace_id')
    .where('workspace_remotes.workspace_id', '=', workspaceId)
    .where('services.visibility', '=', 'public')
    .select(['workspaces.domain', 'services.handle', 'services.name', 'services.health', 'services.icon_asset_id']);
}

/** Public services of linked workspaces whose name or handle contains `q`, at most `limit`. */
export function searchRemoteServices(db: Db, workspaceId: string, q: string, limit: number) {
  return whereSearchTextContains(db, linkedPublicServices(db, workspaceId), 'services', q)
    .orderBy('services.name')
    .orderBy('workspaces.domain')
    .limit(limit)
    .execute();
}

/** One linked public service, or undefined when it is not (unlinked, missing, or not public). */
export function findRemoteService(
  db: Db,
  workspaceId: string,
  domain: string,
  handle: string,
): Promise<RemoteServiceRow | undefined> {
  return linkedPublicServices(db, workspaceId)
    .where('workspaces.domain', '=', domain)
    .where('services.handle', '=', handle)
    .executeTakeFirst();
}

export interface RemoteDependencyRow {
  service_id: string;
  remote_domain: string;
  remote_handle: string;
  remote_name: string;
  /** The live remote service's fields, null when it is unavailable. */
  live_name: string | null;
  live_health: Health | null;
  live_icon_asset_id: string | null;
}

/** The remote dependencies of `serviceIds`, each with the remote service as it is now if it is still reachable. */
export function listRemoteDependencies(
  db: Db,
  workspaceId: string,
  serviceIds: readonly string[],
): Promise<RemoteDependencyRow[]> {
  if (serviceIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('remote_dependencies as rd')
    .leftJoin(linkedPublicServices(db, workspaceId).as('live'), (join) =>
      join.onRef('live.domain', '=', 'rd.remote_domain').onRef('live.handle', '=', 'rd.remote_handle'),
    )
    .select([
      'rd.service_id',
      'rd.remote_domain',
      'rd.remote_handle',
      'rd.remote_name',
      'live.name as live_name',
      'live.health as live_health',
      'live.icon_asset_id as live_icon_asset_id',
    ])
    .where('rd.workspace_id', '=', workspaceId)
    .where('rd.service_id', 'in', serviceIds)
    .orderBy('rd.remote_name')
    .orderBy('rd.remote_domain')
    .execute();
}

export async function insertRemoteDependency(db: Db, row: RemoteDependenciesTable): Promise<boolean> {
  const result = await db
    .insertInto('remote_dependencies')
    .values(row)
    .onConflict((oc) => oc.columns(['service_id', 'remote_domain', 'remote_handle']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Remote dependencies in one statement (a catalogue apply, after deleteAllDependenciesOf). */
export async function insertRemoteDependencies(db: Db, rows: readonly RemoteDependenciesTable[]): Promise<void> {
  await db.insertInto('remote_dependencies').values(rows).execute();
}

export async function deleteRemoteDependency(
  db: Db,
  workspaceId: string,
  serviceId: string,
  domain: string,
  handle: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('remote_dependencies')
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId)
    .where('remote_domain', '=', domain)
    .where('remote_handle', '=', handle)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
