import { sql, type Insertable, type Updateable } from 'kysely';
import { isSqlite } from '../connect.js';
import {
  CATALOG_CHECK_NAME,
  type AnnotatedSetting,
  type CurrentCatalogue,
  type CurrentService,
  type CurrentSpec,
  type CurrentTeam,
  type Manager,
} from '../../../domain/catalog-plan.js';
import type {
  CatalogEntitiesTable,
  CatalogEntityRow,
  CatalogPlansTable,
  CatalogSourceRow,
  CatalogSourcesTable,
} from '../schema.js';
import { chunks } from './chunks.js';
import { listRemoteDomains } from './dependencies.js';
import type { Db } from './workspaces.js';

/** The catalogue as code (docs/decisions.md#catalogue-as-code): sources, the entities they describe, and plans. */

// ---- the catalogue as a plan sees it ----

interface ManagedRow {
  entity_id: string;
  source_id: string;
  source_name: string;
  mode: Manager['mode'];
  path: string;
  line: number;
}

/** Which source manages each entity: an authoritative source's mark wins over a seed's. */
async function managersOf(db: Db, workspaceId: string): Promise<Map<string, ManagedRow>> {
  const rows = await db
    .selectFrom('catalog_entities as e')
    .innerJoin('catalog_sources as s', 's.id', 'e.source_id')
    .select(['e.entity_id', 'e.source_id', 's.name as source_name', 's.mode', 'e.path', 'e.line'])
    .where('e.workspace_id', '=', workspaceId)
    .where('e.entity_id', 'is not', null)
    .execute();
  const out = new Map<string, ManagedRow>();
  for (const row of rows as ManagedRow[]) {
    const earlier = out.get(row.entity_id);
    if (!earlier || (earlier.mode === 'seed' && row.mode === 'authoritative')) out.set(row.entity_id, row);
  }
  return out;
}

const managerOf = (row: ManagedRow | undefined): Manager | null =>
  row ? { sourceId: row.source_id, sourceName: row.source_name, mode: row.mode } : null;

/** Every service and team of the workspace with what a plan compares, the users' handles and the linked remotes. */
export async function readCurrentCatalogue(db: Db, workspaceId: string): Promise<CurrentCatalogue> {
  const [teamRows, serviceRows, memberRows, localDeps, remoteDeps, users, remotes, managers, settings] =
    await Promise.all([
      db
        .selectFrom('teams as t')
        .leftJoin('teams as p', 'p.id', 't.parent_id')
        .select(['t.id', 't.handle', 't.name', 't.description', 'p.handle as parent'])
        .where('t.workspace_id', '=', workspaceId)
        .execute(),
      db
        .selectFrom('services as s')
        .innerJoin('teams as t', 't.id', 's.owner_team_id')
        .select([
          's.id',
          's.handle',
          's.name',
          's.description',
          's.stage',
          's.visibility',
          's.links',
          't.handle as owner',
        ])
        .where('s.workspace_id', '=', workspaceId)
        .execute(),
      db
        .selectFrom('team_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.team_id', 'm.role', 'u.handle'])
        .where('m.workspace_id', '=', workspaceId)
        .execute(),
      db
        .selectFrom('service_dependencies as d')
        .innerJoin('services as s', 's.id', 'd.dependency_id')
        .select(['d.service_id', 's.handle'])
        .where('d.workspace_id', '=', workspaceId)
        .execute(),
      db
        .selectFrom('remote_dependencies')
        .select(['service_id', 'remote_domain', 'remote_handle'])
        .where('workspace_id', '=', workspaceId)
        .execute(),
      db.selectFrom('users').select('handle').where('workspace_id', '=', workspaceId).execute(),
      listRemoteDomains(db, workspaceId),
      managersOf(db, workspaceId),
      annotatedSettings(db, workspaceId),
    ]);
  const grouped = <T>(rows: T[], key: (row: T) => string, value: (row: T) => string) => {
    const out = new Map<string, string[]>();
    for (const row of rows) {
      const list = out.get(key(row));
      if (list) list.push(value(row));
      else out.set(key(row), [value(row)]);
    }
    return out;
  };
  const members = grouped(
    memberRows,
    (r) => r.team_id,
    (r) => r.handle,
  );
  const admins = grouped(
    memberRows.filter((r) => r.role === 'admin'),
    (r) => r.team_id,
    (r) => r.handle,
  );
  const deps = grouped(
    [
      ...localDeps.map((r) => ({ id: r.service_id, ref: r.handle })),
      ...remoteDeps.map((r) => ({ id: r.service_id, ref: `${r.remote_domain}/${r.remote_handle}` })),
    ],
    (r) => r.id,
    (r) => r.ref,
  );
  const teams: CurrentTeam[] = teamRows.map((row) => ({
    id: row.id,
    handle: row.handle,
    name: row.name,
    description: row.description,
    links: [],
    parent: row.parent,
    members: members.get(row.id) ?? [],
    admins: admins.get(row.id) ?? [],
    managedBy: managerOf(managers.get(row.id)),
    path: managers.get(row.id)?.path ?? null,
  }));
  const services: CurrentService[] = serviceRows.map((row) => ({
    id: row.id,
    handle: row.handle,
    name: row.name,
    description: row.description,
    links: JSON.parse(row.links) as CurrentService['links'],
    owner: row.owner,
    stage: row.stage,
    visibility: row.visibility,
    dependsOn: deps.get(row.id) ?? [],
    healthCheckUrl: settings.checks.get(row.id) ?? null,
    slo: settings.slos.get(row.id) ?? null,
    slackChannel: settings.channels.get(row.id) ?? null,
    specs: settings.specs.get(row.id) ?? [],
    managedBy: managerOf(managers.get(row.id)),
    path: managers.get(row.id)?.path ?? null,
  }));
  return { services, teams, users: new Set(users.map((u) => u.handle)), remotes: new Set(remotes) };
}

/** What a service's annotations set, by service id: its catalogue check's URL, SLO, Slack channel and spec pages. */
async function annotatedSettings(db: Db, workspaceId: string) {
  const [checks, slos, channels, specs] = await Promise.all([
    db
      .selectFrom('health_checks')
      .select(['service_id', 'endpoint'])
      .where('workspace_id', '=', workspaceId)
      .where('name', '=', CATALOG_CHECK_NAME)
      .execute(),
    db
      .selectFrom('service_slos')
      .select(['service_id', 'target_thousandths', 'window_days'])
      .where('workspace_id', '=', workspaceId)
      .execute(),
    db
      .selectFrom('service_channels')
      .select(['service_id', 'channel_id'])
      .where('workspace_id', '=', workspaceId)
      .execute(),
    db
      .selectFrom('pages')
      .select(['service_id', 'handle', 'published_title', 'published_content'])
      .where('workspace_id', '=', workspaceId)
      .where('section', '=', 'open-api-specs')
      .where('published_at', 'is not', null)
      .execute(),
  ]);
  const specsOf = new Map<string, CurrentSpec[]>();
  for (const page of specs) {
    const spec = { handle: page.handle, title: page.published_title ?? '', content: page.published_content ?? '' };
    specsOf.set(page.service_id, [...(specsOf.get(page.service_id) ?? []), spec]);
  }
  return {
    checks: new Map(checks.map((c) => [c.service_id, c.endpoint])),
    slos: new Map(slos.map((s) => [s.service_id, { target: s.target_thousandths / 1000, window_days: s.window_days }])),
    channels: new Map(channels.map((c) => [c.service_id, c.channel_id])),
    specs: specsOf,
  };
}

export interface ManagedMark {
  source: string;
  source_id: string;
  path: string;
  line: number;
  settings: AnnotatedSetting[];
}

/** The source marks of these entities (services or teams), for their reads: authoritative sources only. */
export async function managedMarks(
  db: Db,
  workspaceId: string,
  entityIds: readonly string[],
): Promise<Map<string, ManagedMark>> {
  const out = new Map<string, ManagedMark>();
  for (const ids of chunks(entityIds, 500)) {
    const rows = await db
      .selectFrom('catalog_entities as e')
      .innerJoin('catalog_sources as s', 's.id', 'e.source_id')
      .select(['e.entity_id', 's.name', 's.id', 'e.path', 'e.line', 'e.settings'])
      .where('e.workspace_id', '=', workspaceId)
      .where('e.entity_id', 'in', ids)
      .where('s.mode', '=', 'authoritative')
      .execute();
    for (const row of rows) {
      out.set(row.entity_id!, {
        source: row.name,
        source_id: row.id,
        path: row.path,
        line: row.line,
        settings: row.settings ? (JSON.parse(row.settings) as AnnotatedSetting[]) : [],
      });
    }
  }
  return out;
}

// ---- plans ----

export async function insertPlan(db: Db, row: Insertable<CatalogPlansTable>): Promise<void> {
  await db.insertInto('catalog_plans').values(row).execute();
}

export function findPlan(db: Db, workspaceId: string, id: string, now: number) {
  return db
    .selectFrom('catalog_plans')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/**
 * Inside a transaction: waits for any other catalogue apply of the workspace to finish (PostgreSQL: an advisory
 * lock on the workspace; SQLite: the caller's `begin immediate` already holds the only write lock).
 */
export async function lockCatalogWrites(trx: Db, workspaceId: string): Promise<void> {
  if (isSqlite(trx)) return;
  await sql`select pg_advisory_xact_lock(hashtext(${`catalog:${workspaceId}`}))`.execute(trx);
}

export async function deletePlan(db: Db, id: string): Promise<void> {
  await db.deleteFrom('catalog_plans').where('id', '=', id).execute();
}

/** Plans past their hour: removed as new ones are made, so none piles up. */
export async function deleteExpiredPlans(db: Db, now: number): Promise<void> {
  await db.deleteFrom('catalog_plans').where('expires_at', '<=', now).execute();
}

// ---- sources ----

export function listSources(db: Db, workspaceId: string): Promise<CatalogSourceRow[]> {
  return db.selectFrom('catalog_sources').selectAll().where('workspace_id', '=', workspaceId).orderBy('name').execute();
}

/** By id or by name. */
export function findSource(db: Db, workspaceId: string, idOrName: string): Promise<CatalogSourceRow | undefined> {
  return db
    .selectFrom('catalog_sources')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
    .executeTakeFirst();
}

export function findSourceByName(db: Db, workspaceId: string, name: string) {
  return db
    .selectFrom('catalog_sources')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function insertSource(db: Db, row: Insertable<CatalogSourcesTable>): Promise<void> {
  await db.insertInto('catalog_sources').values(row).execute();
}

export async function updateSource(db: Db, id: string, patch: Updateable<CatalogSourcesTable>): Promise<void> {
  await db.updateTable('catalog_sources').set(patch).where('id', '=', id).execute();
}

export async function deleteSource(db: Db, id: string): Promise<void> {
  await db.deleteFrom('catalog_sources').where('id', '=', id).execute();
}

/** URL sources whose next sync is due, across workspaces (the scheduler's read). */
export function dueSources(db: Db, now: number, limit: number): Promise<CatalogSourceRow[]> {
  return db
    .selectFrom('catalog_sources')
    .selectAll()
    .where('next_sync_at', '<=', now)
    .orderBy('next_sync_at')
    .limit(limit)
    .execute();
}

/**
 * Claims a due source by moving its next sync on to `next`, only while it is still `was`; false when another
 * process claimed it first.
 */
export async function claimDueSource(
  db: Db,
  id: string,
  was: CatalogSourceRow['next_sync_at'],
  next: number,
): Promise<boolean> {
  const claimed = await db
    .updateTable('catalog_sources')
    .set({ next_sync_at: next })
    .where('id', '=', id)
    .where('next_sync_at', '=', was)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) !== 0;
}

/** How many entities each source describes, by state. */
export async function countSourceEntities(db: Db, workspaceId: string) {
  return db
    .selectFrom('catalog_entities')
    .select(['source_id', 'state', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('workspace_id', '=', workspaceId)
    .groupBy(['source_id', 'state'])
    .execute();
}

// ---- the entities a source describes ----

export function listSourceEntities(db: Db, sourceId: string): Promise<CatalogEntityRow[]> {
  return db.selectFrom('catalog_entities').selectAll().where('source_id', '=', sourceId).execute();
}

/** Forgets what a source said of one entity (the orphan sweep, once the entity is gone or never was). */
export async function deleteSourceEntity(
  db: Db,
  sourceId: string,
  kind: CatalogEntityRow['kind'],
  handle: string,
): Promise<void> {
  await db
    .deleteFrom('catalog_entities')
    .where('source_id', '=', sourceId)
    .where('kind', '=', kind)
    .where('handle', '=', handle)
    .execute();
}

/** A source's entities as the last apply left them: what changed is deleted and written again. */
export async function replaceSourceEntities(
  db: Db,
  sourceId: string,
  removed: ReadonlyArray<{ kind: CatalogEntityRow['kind']; handle: string }>,
  written: readonly CatalogEntityRow[],
): Promise<void> {
  for (const batch of chunks(removed, 200)) {
    await db
      .deleteFrom('catalog_entities')
      .where('source_id', '=', sourceId)
      .where((eb) => eb.or(batch.map((row) => eb.and([eb('kind', '=', row.kind), eb('handle', '=', row.handle)]))))
      .execute();
  }
  for (const batch of chunks(written, 500)) {
    await db
      .insertInto('catalog_entities')
      .values(batch as Array<Insertable<CatalogEntitiesTable>>)
      .execute();
  }
}

/** What is not synced, newest first within a state; all states but synced when none is named. */
export async function listEntitiesNotSynced(
  db: Db,
  workspaceId: string,
  state: CatalogEntityRow['state'] | undefined,
  page: { cursor: number; limit: number; q?: string },
) {
  const base = db
    .selectFrom('catalog_entities as e')
    .innerJoin('catalog_sources as s', 's.id', 'e.source_id')
    .where('e.workspace_id', '=', workspaceId)
    .$if(state !== undefined, (qb) => qb.where('e.state', '=', state!))
    .$if(state === undefined, (qb) => qb.where('e.state', '!=', 'synced'))
    .$if(Boolean(page.q), (qb) => qb.where('e.handle', 'like', `%${page.q!.toLowerCase()}%`));
  const [rows, total] = await Promise.all([
    base
      .select([
        'e.kind',
        'e.handle',
        'e.entity_id',
        'e.path',
        'e.line',
        'e.state',
        'e.reason',
        'e.state_since',
        'e.synced_at',
        's.id as source_id',
        's.name as source_name',
      ])
      .orderBy('e.state')
      .orderBy('e.kind')
      .orderBy('e.handle')
      .offset(page.cursor)
      .limit(page.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** Orphans whose grace has passed, across workspaces. */
export function expiredOrphans(db: Db, before: string, limit: number) {
  return db
    .selectFrom('catalog_entities')
    .selectAll()
    .where('state', '=', 'orphaned')
    .where('state_since', '<=', before)
    .orderBy('state_since')
    .limit(limit)
    .execute();
}

/** The services and teams of these ids (an entity is either), with what a reference to them shows. */
export async function listProfilesByIds(
  db: Db,
  ids: readonly string[],
): Promise<{ id: string; handle: string; name: string; icon_asset_id: string | null }[]> {
  const [services, teams] = await Promise.all([
    db.selectFrom('services').select(['id', 'handle', 'name', 'icon_asset_id']).where('id', 'in', ids).execute(),
    db.selectFrom('teams').select(['id', 'handle', 'name', 'icon_asset_id']).where('id', 'in', ids).execute(),
  ]);
  return [...services, ...teams];
}
