import { sql, type Insertable } from 'kysely';
import { isSqlite } from '../connect.js';
import type {
  ScorecardExemptionRow,
  ScorecardExemptionsTable,
  ScorecardResultRow,
  ScorecardResultsTable,
  ScorecardRow,
  ScorecardsTable,
} from '../schema.js';
import { chunks } from './chunks.js';
import { pageAndCount, type Paged } from './paging.js';
import { countsVisibleTo, visibleTo, type ServiceScope } from './services.js';
import type { Db } from './workspaces.js';
import { NOT_APPLICABLE } from '../../../domain/scorecards.js';

const CHUNK = 400;

export function listScorecards(db: Db, workspaceId: string): Promise<ScorecardRow[]> {
  return db.selectFrom('scorecards').selectAll().where('workspace_id', '=', workspaceId).orderBy('name').execute();
}

export function findScorecard(db: Db, workspaceId: string, handle: string): Promise<ScorecardRow | undefined> {
  return db
    .selectFrom('scorecards')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('handle', '=', handle)
    .executeTakeFirst();
}

export async function insertScorecard(db: Db, row: Insertable<ScorecardsTable>): Promise<void> {
  await db.insertInto('scorecards').values(row).execute();
}

export async function updateScorecard(
  db: Db,
  id: string,
  patch: Partial<
    Pick<ScorecardsTable, 'name' | 'description' | 'applies_to' | 'levels' | 'rules' | 'updated_at'> & {
      evaluated_at: number;
    }
  >,
): Promise<void> {
  await db.updateTable('scorecards').set(patch).where('id', '=', id).execute();
}

/** Deletes the scorecard with its results, history and exemptions. */
export async function deleteScorecard(db: Db, id: string): Promise<void> {
  await db.deleteFrom('scorecard_exemptions').where('scorecard_id', '=', id).execute();
  await db.deleteFrom('scorecard_result_changes').where('scorecard_id', '=', id).execute();
  await db.deleteFrom('scorecard_results').where('scorecard_id', '=', id).execute();
  await db.deleteFrom('scorecard_counts').where('scorecard_id', '=', id).execute();
  await db.deleteFrom('scorecards').where('id', '=', id).execute();
}

/** The stored results of the scorecards for the services (every service when `serviceIds` is null). */
export async function listResults(
  db: Db,
  scorecardIds: readonly string[],
  serviceIds: readonly string[] | null,
): Promise<ScorecardResultRow[]> {
  if (scorecardIds.length === 0) return [];
  if (serviceIds === null) {
    return db.selectFrom('scorecard_results').selectAll().where('scorecard_id', 'in', scorecardIds).execute();
  }
  const rows: ScorecardResultRow[] = [];
  for (const ids of chunks(serviceIds, CHUNK)) {
    rows.push(
      ...(await db
        .selectFrom('scorecard_results')
        .selectAll()
        .where('scorecard_id', 'in', scorecardIds)
        .where('service_id', 'in', ids)
        .execute()),
    );
  }
  return rows;
}

/**
 * Inside a guarded transaction (transactions.ts): when each of these results was last written (`evaluated_at`, by
 * `scorecard_id service_id`), results absent left out. On PostgreSQL the rows are locked until the transaction
 * ends, so an evaluation that compares them with what it read before writes over no other process's result.
 */
export async function resultStamps(
  db: Db,
  keys: ReadonlyArray<{ scorecard_id: string; service_id: string }>,
): Promise<Map<string, number>> {
  const stamps = new Map<string, number>();
  const byCard = new Map<string, string[]>();
  for (const key of keys) {
    const ids = byCard.get(key.scorecard_id);
    if (ids) ids.push(key.service_id);
    else byCard.set(key.scorecard_id, [key.service_id]);
  }
  for (const [scorecardId, serviceIds] of byCard) {
    for (const ids of chunks(serviceIds, CHUNK)) {
      const rows = await db
        .selectFrom('scorecard_results')
        .select(['service_id', 'evaluated_at'])
        .where('scorecard_id', '=', scorecardId)
        .where('service_id', 'in', ids)
        .$if(!isSqlite(db), (qb) => qb.forUpdate())
        .execute();
      for (const row of rows) stamps.set(`${scorecardId} ${row.service_id}`, Number(row.evaluated_at));
    }
  }
  return stamps;
}

type ResultUpsert = Insertable<ScorecardResultsTable> & { changed: boolean };

/** Stores changed results, each change also in the history, and drops the results of services no longer in scope. */
export async function saveResults(
  db: Db,
  changes: {
    upserts: readonly ResultUpsert[];
    /** Services the scorecard no longer applies to: their results go, and the history says so (`NOT_APPLICABLE`). */
    removals: ReadonlyArray<{ scorecard_id: string; service_id: string; workspace_id: string; at: number }>;
  },
): Promise<void> {
  if (isSqlite(db)) {
    for (const batch of chunks(changes.upserts, 100)) await upsertResults(db, batch);
  } else {
    for (const batch of chunks(changes.upserts, 5000)) await upsertResultsAsJson(db, batch);
  }
  for (const removal of changes.removals) {
    await db
      .deleteFrom('scorecard_results')
      .where('scorecard_id', '=', removal.scorecard_id)
      .where('service_id', '=', removal.service_id)
      .execute();
    await db
      .insertInto('scorecard_result_changes')
      .values({
        scorecard_id: removal.scorecard_id,
        service_id: removal.service_id,
        workspace_id: removal.workspace_id,
        at: removal.at,
        level_rank: NOT_APPLICABLE,
        score: null,
        rules: '[]',
      })
      .execute();
  }
}

const RESULT_UPDATES = [
  'owner_team_id',
  'service_name',
  'owner_only',
  'level_rank',
  'score',
  'rules',
  'evaluated_at',
] as const;

/** Each result's row, and a row of its history when it changed: a statement of each per batch. */
async function upsertResults(db: Db, batch: readonly ResultUpsert[]): Promise<void> {
  await db
    .insertInto('scorecard_results')
    .values(batch.map(({ changed: _changed, ...row }) => row))
    .onConflict((oc) =>
      oc
        .columns(['scorecard_id', 'service_id'])
        .doUpdateSet((eb) =>
          Object.fromEntries(RESULT_UPDATES.map((column) => [column, eb.ref(`excluded.${column}`)])),
        ),
    )
    .execute();
  const history = batch.filter((row) => row.changed);
  if (history.length === 0) return;
  await db
    .insertInto('scorecard_result_changes')
    .values(
      history.map((row) => ({
        scorecard_id: row.scorecard_id,
        service_id: row.service_id,
        workspace_id: row.workspace_id,
        at: row.evaluated_at,
        level_rank: row.level_rank,
        score: row.score,
        rules: row.rules,
      })),
    )
    .execute();
}

/**
 * PostgreSQL: the batch goes as one JSON parameter, and one statement writes both the results and the history of
 * those that changed, so each result's rules cross the wire once. A first evaluation writes 30,000 results of about
 * 800 bytes each: with a parameter per value and the rules sent twice, saving took 4.4 s of the 10 s allowed.
 */
async function upsertResultsAsJson(db: Db, batch: readonly ResultUpsert[]): Promise<void> {
  const updates = sql.join(RESULT_UPDATES.map((column) => sql`${sql.id(column)} = excluded.${sql.id(column)}`));
  await sql`
    with input as (
      select * from json_to_recordset(${JSON.stringify(batch)}::json) as x(
        scorecard_id text, service_id text, workspace_id text, owner_team_id text, service_name text,
        owner_only integer, level_rank integer, score integer, rules text, evaluated_at bigint, changed boolean)
    ),
    saved as (
      insert into scorecard_results (scorecard_id, service_id, workspace_id, owner_team_id, service_name, owner_only,
        level_rank, score, rules, evaluated_at)
      select scorecard_id, service_id, workspace_id, owner_team_id, service_name, owner_only, level_rank, score, rules,
        evaluated_at from input
      on conflict (scorecard_id, service_id) do update set ${updates}
    )
    insert into scorecard_result_changes (scorecard_id, service_id, workspace_id, at, level_rank, score, rules)
    select scorecard_id, service_id, workspace_id, evaluated_at, level_rank, score, rules from input where changed`.execute(
    db,
  );
}

/** The counts rows (migration 028) the scope may see: the same rule as `visibleTo`, over a few rows per team. */
function visibleCounts(db: Db, workspaceId: string, scope: ServiceScope, scorecardIds: readonly string[]) {
  return db
    .selectFrom('scorecard_counts')
    .where('scorecard_counts.scorecard_id', 'in', scorecardIds)
    .$if(!scope.all, (qb) => qb.where(countsVisibleTo('scorecard_counts', workspaceId, scope)));
}

/** How many services the scope can see are at each level rank of each scorecard. */
export async function levelCounts(
  db: Db,
  workspaceId: string,
  scope: ServiceScope,
  scorecardIds: readonly string[],
): Promise<Array<{ scorecard_id: string; level_rank: number; services: number }>> {
  if (scorecardIds.length === 0) return [];
  const rows = await visibleCounts(db, workspaceId, scope, scorecardIds)
    .select(['scorecard_counts.scorecard_id', 'scorecard_counts.level_rank'])
    .select((eb) => eb.fn.sum<number | string>('scorecard_counts.n').as('services'))
    .groupBy(['scorecard_counts.scorecard_id', 'scorecard_counts.level_rank'])
    .execute();
  return rows.map((row) => ({ ...row, services: Number(row.services) }));
}

/** How many services the scope can see are at each level rank of a scorecard, per owner team. */
export async function teamLevelCounts(
  db: Db,
  workspaceId: string,
  scope: ServiceScope,
  scorecardId: string,
): Promise<Array<{ team_id: string; team_handle: string; team_name: string; level_rank: number; services: number }>> {
  const rows = await visibleCounts(db, workspaceId, scope, [scorecardId])
    .innerJoin('teams', 'teams.id', 'scorecard_counts.owner_team_id')
    .select([
      'teams.id as team_id',
      'teams.handle as team_handle',
      'teams.name as team_name',
      'scorecard_counts.level_rank',
    ])
    .select((eb) => eb.fn.sum<number | string>('scorecard_counts.n').as('services'))
    .groupBy(['teams.id', 'teams.handle', 'teams.name', 'scorecard_counts.level_rank'])
    .orderBy('teams.name')
    .execute();
  return rows.map((row) => ({ ...row, services: Number(row.services) })).filter((row) => row.services > 0);
}

export interface ResultListRow extends ScorecardResultRow {
  service_handle: string;
  team_handle: string;
  team_name: string;
}

/** A page of a scorecard's results the scope can see, by service name; optionally one team's or one level's. */
export function pageResults(
  db: Db,
  workspaceId: string,
  scope: ServiceScope,
  scorecardId: string,
  filter: { teamId?: string; levelRank?: number; cursor: number; limit: number },
): Promise<Paged<ResultListRow>> {
  const base = db
    .selectFrom('scorecard_results')
    .innerJoin('services', 'services.id', 'scorecard_results.service_id')
    .where('scorecard_results.scorecard_id', '=', scorecardId)
    .where('services.workspace_id', '=', workspaceId)
    .$if(filter.teamId !== undefined, (qb) => qb.where('scorecard_results.owner_team_id', '=', filter.teamId!))
    .$if(filter.levelRank !== undefined, (qb) => qb.where('scorecard_results.level_rank', '=', filter.levelRank!))
    .$if(!scope.all, (qb) => qb.where(visibleTo(workspaceId, scope)));
  const rows = base
    .innerJoin('teams', 'teams.id', 'scorecard_results.owner_team_id')
    .selectAll('scorecard_results')
    .select(['services.handle as service_handle', 'teams.handle as team_handle', 'teams.name as team_name'])
    .orderBy('scorecard_results.service_name')
    .orderBy('scorecard_results.service_id')
    .limit(filter.limit)
    .offset(filter.cursor)
    .execute();
  const count = visibleCounts(db, workspaceId, scope, [scorecardId])
    .$if(filter.teamId !== undefined, (qb) => qb.where('scorecard_counts.owner_team_id', '=', filter.teamId!))
    .$if(filter.levelRank !== undefined, (qb) => qb.where('scorecard_counts.level_rank', '=', filter.levelRank!))
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('scorecard_counts.n'), eb.lit(0)).as('n'))
    .executeTakeFirstOrThrow();
  return pageAndCount(rows, count);
}

/** The exemptions of the scorecards (all, or one service's) still in force at `nowIso`. */
export function listExemptions(
  db: Db,
  workspaceId: string,
  filter: { scorecardIds: readonly string[]; serviceId?: string; nowIso: string },
): Promise<ScorecardExemptionRow[]> {
  if (filter.scorecardIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('scorecard_exemptions')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('scorecard_id', 'in', filter.scorecardIds)
    .where('expires_at', '>', filter.nowIso)
    .$if(filter.serviceId !== undefined, (qb) => qb.where('service_id', '=', filter.serviceId!))
    .orderBy('created_at')
    .execute();
}

export async function insertExemption(db: Db, row: Insertable<ScorecardExemptionsTable>): Promise<void> {
  await db.insertInto('scorecard_exemptions').values(row).execute();
}

export function findExemption(db: Db, scorecardId: string, id: string): Promise<ScorecardExemptionRow | undefined> {
  return db
    .selectFrom('scorecard_exemptions')
    .selectAll()
    .where('scorecard_id', '=', scorecardId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteExemption(db: Db, id: string): Promise<void> {
  await db.deleteFrom('scorecard_exemptions').where('id', '=', id).execute();
}

/** Every change of the scorecard's results before `until` (epoch ms) of the services the scope can see. */
export async function listLevelChanges(
  db: Db,
  workspaceId: string,
  scope: ServiceScope,
  scorecardId: string,
  until: number,
): Promise<Array<{ service_id: string; at: number; level_rank: number }>> {
  const rows = await db
    .selectFrom('scorecard_result_changes')
    .innerJoin('services', 'services.id', 'scorecard_result_changes.service_id')
    .select([
      'scorecard_result_changes.service_id',
      'scorecard_result_changes.at',
      'scorecard_result_changes.level_rank',
    ])
    .where('scorecard_result_changes.scorecard_id', '=', scorecardId)
    .where('services.workspace_id', '=', workspaceId)
    .where('scorecard_result_changes.at', '<', until)
    .$if(!scope.all, (qb) => qb.where(visibleTo(workspaceId, scope)))
    .orderBy('scorecard_result_changes.at')
    .execute();
  return rows.map((row) => ({ ...row, at: Number(row.at) }));
}

/** The workspaces that have at least one scorecard (the sweep's list). */
export async function workspacesWithScorecards(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('scorecards').select('workspace_id').distinct().execute();
  return rows.map((row) => row.workspace_id);
}

export interface ScorecardTouch {
  workspace_id: string;
  service_id: string | null;
  team_id: string | null;
}

/**
 * Takes up to `limit` of the logged touches (migration 040), oldest first: each is taken by one process (a delete
 * another process's delete of the same rows waits for, then skips). A touch still uncommitted is not seen: taken
 * at a later look, when its change is visible.
 */
export async function takeScorecardTouches(db: Db, limit: number): Promise<ScorecardTouch[]> {
  // A look that finds none writes nothing (SQLite would take its write lock for an empty delete).
  if (!(await db.selectFrom('scorecard_touches').select('id').limit(1).executeTakeFirst())) return [];
  return db
    .deleteFrom('scorecard_touches')
    .where('id', 'in', (eb) => eb.selectFrom('scorecard_touches').select('id').orderBy('id').limit(limit))
    .returning(['workspace_id', 'service_id', 'team_id'])
    .execute();
}

/** The services `serviceIds` reach as a scorecard reads them: themselves, those depending on them, and `teamIds`'. */
export async function servicesTouched(
  db: Db,
  workspaceId: string,
  serviceIds: readonly string[],
  teamIds: readonly string[],
): Promise<Set<string>> {
  const ids = new Set(serviceIds);
  for (const chunk of chunks(serviceIds, CHUNK)) {
    const dependents = await db
      .selectFrom('service_dependencies')
      .select('service_id')
      .where('workspace_id', '=', workspaceId)
      .where('dependency_id', 'in', chunk)
      .execute();
    for (const row of dependents) ids.add(row.service_id);
  }
  for (const chunk of chunks(teamIds, CHUNK)) {
    const owned = await db
      .selectFrom('services')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('owner_team_id', 'in', chunk)
      .execute();
    for (const row of owned) ids.add(row.id);
  }
  return ids;
}
