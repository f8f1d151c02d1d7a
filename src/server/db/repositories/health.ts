import { sql, type Insertable, type Updateable } from 'kysely';
import type { Health } from '../../../domain/catalogue.js';
import type { AssertionResult, CheckRun } from '../../../domain/check-kinds.js';
import { utcDate, type DailyHealth, type HealthTransition } from '../../../domain/health.js';
import { recordAggregates } from './check-aggregates.js';
import { chunks } from './chunks.js';
import type { HealthCheckResultsTable, HealthCheckRow, HealthChecksTable, HealthTransitionsTable } from '../schema.js';
import type { Db } from './workspaces.js';

/** docs/decisions.md#health-maths: one change of a service's health, written in the transaction that changed it. */
export async function recordHealthTransition(
  db: Db,
  row: {
    workspace_id: string;
    service_id: string;
    at: number;
    health: Health;
    source: HealthTransitionsTable['source'];
  },
): Promise<void> {
  await db.insertInto('health_transitions').values(row).execute();
  // The cached days from this one on no longer hold (normally only today, which is never cached).
  await db
    .deleteFrom('health_daily')
    .where('service_id', '=', row.service_id)
    .where('date', '>=', utcDate(row.at))
    .execute();
}

/** Cached complete days of a service between two dates (YYYY-MM-DD, inclusive). */
export async function listCachedDays(
  db: Db,
  workspaceId: string,
  serviceId: string,
  fromDate: string,
  toDate: string,
): Promise<DailyHealth[]> {
  return db
    .selectFrom('health_daily')
    .select(['date', 'critical', 'error', 'warning', 'maintenance'])
    .where('service_id', '=', serviceId)
    .where('workspace_id', '=', workspaceId)
    .where('date', '>=', fromDate)
    .where('date', '<=', toDate)
    .execute();
}

/** Caches complete days; a day cached meanwhile by another request is left as it is (the same figures). */
export async function cacheDays(db: Db, workspaceId: string, serviceId: string, days: DailyHealth[]): Promise<void> {
  if (days.length === 0) return;
  await db
    .insertInto('health_daily')
    .values(days.map((day) => ({ ...day, workspace_id: workspaceId, service_id: serviceId })))
    .onConflict((oc) => oc.columns(['service_id', 'date']).doNothing())
    .execute();
}

/**
 * The transitions a report over [from, to] needs: the last one at or before `from` (the state the range starts
 * in) and every one after it up to `to`, in time (then insertion) order. bigint comes back from node-pg as a
 * string: converted here.
 */
export async function listHealthTransitions(
  db: Db,
  workspaceId: string,
  serviceId: string,
  from: number,
  to: number,
): Promise<HealthTransition[]> {
  const ofService = db
    .selectFrom('health_transitions')
    .select(['at', 'health'])
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId);
  const [before, within] = await Promise.all([
    ofService.where('at', '<=', from).orderBy('at', 'desc').limit(1).executeTakeFirst(),
    ofService.where('at', '>', from).where('at', '<=', to).orderBy('at').execute(),
  ]);
  return [...(before ? [before] : []), ...within].map((t) => ({ at: Number(t.at), health: t.health }));
}

/**
 * listHealthTransitions for several services at once: for each, the last transition at or before `from`, then
 * those within (`from`, `to`], in time order. Two reads for the lot instead of two per service.
 */
export async function listHealthTransitionsOf(
  db: Db,
  workspaceId: string,
  serviceIds: readonly string[],
  from: number,
  to: number,
): Promise<Map<string, HealthTransition[]>> {
  const logs = new Map<string, HealthTransition[]>(serviceIds.map((id) => [id, []]));
  if (serviceIds.length === 0) return logs;
  const lastBefore = db
    .selectFrom('health_transitions')
    .select(['service_id', (eb) => eb.fn.max('at').as('at')])
    .where('workspace_id', '=', workspaceId)
    .where('service_id', 'in', serviceIds)
    .where('at', '<=', from)
    .groupBy('service_id')
    .as('last');
  const [before, within] = await Promise.all([
    db
      .selectFrom('health_transitions as t')
      .innerJoin(lastBefore, (join) => join.onRef('last.service_id', '=', 't.service_id').onRef('last.at', '=', 't.at'))
      .select(['t.service_id', 't.at', 't.health'])
      // Named again here, so the join reads these services' rows by the index rather than the workspace's.
      .where('t.workspace_id', '=', workspaceId)
      .where('t.service_id', 'in', serviceIds)
      .execute(),
    db
      .selectFrom('health_transitions')
      .select(['service_id', 'at', 'health'])
      .where('workspace_id', '=', workspaceId)
      .where('service_id', 'in', serviceIds)
      .where('at', '>', from)
      .where('at', '<=', to)
      .orderBy('service_id')
      .orderBy('at')
      .execute(),
  ]);
  // Two transitions at the same instant: one stands, as listHealthTransitions' limit 1 keeps one.
  for (const row of before) logs.set(row.service_id, [{ at: Number(row.at), health: row.health }]);
  for (const row of within) logs.get(row.service_id)!.push({ at: Number(row.at), health: row.health });
  return logs;
}

/** The transitions of some services of a workspace timed after `after` (epoch ms), in no order. */
export async function listTransitionsSince(
  db: Db,
  workspaceId: string,
  serviceIds: readonly string[],
  after: number,
): Promise<(HealthTransition & { service_id: string })[]> {
  if (serviceIds.length === 0) return [];
  const rows = await db
    .selectFrom('health_transitions')
    .select(['service_id', 'at', 'health'])
    .where('workspace_id', '=', workspaceId)
    .where('service_id', 'in', serviceIds)
    .where('at', '>', after)
    .execute();
  return rows.map((row) => ({ service_id: row.service_id, at: Number(row.at), health: row.health }));
}

/**
 * What holds a service's health down (docs/decisions.md#health-maths): the severity of each failing check that runs
 * (neither paused nor disabled) and the health each open notice sets.
 */
export async function listHealthSignals(db: Db, workspaceId: string, serviceId: string): Promise<Health[]> {
  const [checks, notices] = await Promise.all([
    db
      .selectFrom('health_checks')
      .select(['importance', 'failing_severity'])
      .where('workspace_id', '=', workspaceId)
      .where('service_id', '=', serviceId)
      .where('failing', '=', 1)
      .where('disabled', '=', 0)
      .where('paused', '=', 0)
      .execute(),
    db
      .selectFrom('notices')
      .select('health')
      .where('workspace_id', '=', workspaceId)
      .where('service_id', '=', serviceId)
      .where('open', '=', 1)
      .where('health', 'is not', null)
      .execute(),
  ]);
  return [
    // The severity it fails with (its worst failing assertion's), else its importance (docs/decisions.md#checks).
    ...checks.map((check) => check.failing_severity ?? check.importance),
    ...notices.map((notice) => notice.health).filter((health): health is Health => health !== null),
  ];
}

export function listHealthChecks(db: Db, workspaceId: string, serviceId: string): Promise<HealthCheckRow[]> {
  return db
    .selectFrom('health_checks')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export function findHealthCheck(db: Db, workspaceId: string, id: string): Promise<HealthCheckRow | undefined> {
  return db
    .selectFrom('health_checks')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The workspace's heartbeat check whose ping token hashes to `tokenHash`. */
export function findHeartbeatByPingToken(
  db: Db,
  workspaceId: string,
  tokenHash: string,
): Promise<HealthCheckRow | undefined> {
  return db
    .selectFrom('health_checks')
    .selectAll()
    .where('ping_token_hash', '=', tokenHash)
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'heartbeat')
    .executeTakeFirst();
}

/** The checks made from a spec page: id, name and operation, by name. */
export function linkedChecks(db: Db, workspaceId: string, pageId: string) {
  return db
    .selectFrom('health_checks')
    .select(['id', 'name', 'spec_operation_id', 'spec_missing'])
    .where('workspace_id', '=', workspaceId)
    .where('spec_page_id', '=', pageId)
    .orderBy('name')
    .execute();
}

/** The links to their operation of the checks made from a spec page. */
export function listSpecLinksOfPage(db: Db, workspaceId: string, pageId: string) {
  return db
    .selectFrom('health_checks')
    .select(['id', 'spec_operation_id', 'spec_method', 'spec_path', 'spec_published_at'])
    .where('workspace_id', '=', workspaceId)
    .where('spec_page_id', '=', pageId)
    .execute();
}

/** What a health check keeps of the spec operation it was made from (services/health/spec-checks.ts). */
export type SpecColumns = Pick<
  HealthCheckRow,
  | 'spec_page_id'
  | 'spec_operation_id'
  | 'spec_method'
  | 'spec_path'
  | 'spec_published_at'
  | 'spec_version'
  | 'spec_missing'
>;

type SpecLinkPatch = Partial<SpecColumns & Pick<HealthCheckRow, 'updated_at'>>;

/** Changes one check's link to its spec. */
export async function updateSpecLink(db: Db, id: string, patch: SpecLinkPatch): Promise<void> {
  await db.updateTable('health_checks').set(patch).where('id', '=', id).execute();
}

/** Changes the links of every check made from a spec page. */
export async function updatePageSpecLinks(db: Db, workspaceId: string, pageId: string, patch: SpecLinkPatch) {
  await db
    .updateTable('health_checks')
    .set(patch)
    .where('workspace_id', '=', workspaceId)
    .where('spec_page_id', '=', pageId)
    .execute();
}

/** Whether the workspace has any health check. */
export async function hasHealthChecks(db: Db, workspaceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('health_checks')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The sealed ping tokens of the workspace's heartbeat checks. */
export function listHeartbeatTokens(db: Db, workspaceId: string) {
  return db
    .selectFrom('health_checks')
    .select('ping_token_sealed')
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'heartbeat')
    .execute();
}

export async function insertHealthCheck(db: Db, row: Insertable<HealthChecksTable>): Promise<void> {
  await db.insertInto('health_checks').values(row).execute();
}

/** Points the service's check of this name at `endpoint`; false when the service has no such check. */
export async function retargetNamedCheck(
  db: Db,
  workspaceId: string,
  serviceId: string,
  name: string,
  endpoint: string,
  updatedAt: string,
): Promise<boolean> {
  const changed = await db
    .updateTable('health_checks')
    .set({ endpoint, updated_at: updatedAt })
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId)
    .where('name', '=', name)
    .executeTakeFirst();
  return Number(changed.numUpdatedRows) !== 0;
}

export type HealthCheckPatch = Omit<
  Updateable<HealthChecksTable>,
  'id' | 'workspace_id' | 'service_id' | 'created_at' | 'failing' | 'lease_owner' | 'lease_until'
>;

export async function updateHealthCheck(
  db: Db,
  workspaceId: string,
  id: string,
  patch: HealthCheckPatch,
): Promise<void> {
  await db
    .updateTable('health_checks')
    .set(patch)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

export type HealthCheckResult = Omit<HealthCheckResultsTable, 'check_id' | 'workspace_id' | 'start'> & {
  start: number;
};

/** Results with start in [from, to], oldest first; the newest `limit` of them when there are more. */
export async function listHealthCheckResults(
  db: Db,
  workspaceId: string,
  checkId: string,
  from: number,
  to: number,
  limit: number,
): Promise<HealthCheckResult[]> {
  const rows = await db
    .selectFrom('health_check_results')
    .select(['start', 'time', 'success', 'status', 'error', 'error_class', 'assertions', 'cert', 'severity'])
    .where('check_id', '=', checkId)
    .where('workspace_id', '=', workspaceId)
    .where('start', '>=', from)
    .where('start', '<=', to)
    .orderBy('start', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((row) => ({ ...row, start: Number(row.start) }));
}

/** Whether the newest `limit` results of a check succeeded, newest first (the runner's failure count at load). */
export async function listLatestOutcomes(db: Db, checkId: string, limit: number): Promise<boolean[]> {
  const rows = await db
    .selectFrom('health_check_results')
    .select('success')
    .where('check_id', '=', checkId)
    .orderBy('start', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => Boolean(row.success));
}

/** The assertions of the check's latest result (what `changed` compares the next run with). */
export async function listLatestAssertions(db: Db, checkId: string): Promise<AssertionResult[]> {
  const row = await db
    .selectFrom('health_check_results')
    .select('assertions')
    .where('check_id', '=', checkId)
    .orderBy('start', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.assertions ? (JSON.parse(row.assertions) as AssertionResult[]) : [];
}

/** The row of one run of `check` (shared runner, team runners and heartbeats alike). */
export function healthCheckResultRow(
  check: Pick<HealthCheckRow, 'id' | 'workspace_id'>,
  result: CheckRun,
): HealthCheckResultsTable {
  return {
    check_id: check.id,
    workspace_id: check.workspace_id,
    start: result.start,
    time: result.time,
    success: result.success ? 1 : 0,
    status: result.status ?? null,
    error: result.error?.message ?? null,
    error_class: result.error?.class ?? null,
    assertions: result.assertions?.length ? JSON.stringify(result.assertions) : null,
    cert: result.cert ? JSON.stringify(result.cert) : null,
    severity: result.severity ?? null,
  };
}

/** Rows per INSERT: 11 columns each stays well under SQLite's bound-parameter limit. */
const RESULT_INSERT_CHUNK = 500;

/**
 * Writes a batch of results, one multi-row INSERT per chunk, and adds them to their checks' aggregates: call it
 * inside a transaction, so results and aggregates are written together or not at all.
 */
export async function insertHealthCheckResults(db: Db, rows: HealthCheckResultsTable[]): Promise<void> {
  for (const chunk of chunks(rows, RESULT_INSERT_CHUNK)) {
    await db.insertInto('health_check_results').values(chunk).execute();
  }
  await recordAggregates(db, rows);
}

/** Of the given check ids, those that still exist (a batch for a deleted check is dropped, not retried). */
export async function existingCheckIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('health_checks').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

/** The start of the oldest stored result (epoch ms), or null. */
export async function oldestHealthCheckResultStart(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('health_check_results')
    .select((eb) => eb.fn.min('start').as('oldest'))
    .executeTakeFirst();
  return row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
}

/** Retention: deletes every result that started before `before` (epoch ms); returns how many. */
export async function deleteHealthCheckResultsBefore(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom('health_check_results').where('start', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---- shared-runner leases (jobs/shared-runner.ts) ----

/** Records that the shared runner `id` is alive at `now` and forgets runners silent since `forgetBefore`. */
export async function heartbeatSharedRunner(db: Db, id: string, now: number, forgetBefore: number): Promise<void> {
  await db
    .insertInto('shared_runners')
    .values({ id, seen_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: now }))
    .execute();
  await db.deleteFrom('shared_runners').where('seen_at', '<', forgetBefore).execute();
}

export async function removeSharedRunner(db: Db, id: string): Promise<void> {
  await db.deleteFrom('shared_runners').where('id', '=', id).execute();
}

/** Shared runners seen since `since`. */
export async function countLiveSharedRunners(db: Db, since: number): Promise<number> {
  const row = await db
    .selectFrom('shared_runners')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('seen_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Ids per `IN (...)`: a process may hold 100,000 checks, past both engines' bound-parameter limits. */
const ID_CHUNK = 5000;

/** The checks the shared runner probes: enabled, unpaused, without a team runner, in every workspace. */
function schedulable(db: Db) {
  return db
    .selectFrom('health_checks')
    .where('disabled', '=', 0)
    .where('paused', '=', 0)
    .where('runner_id', 'is', null);
}

export async function countSchedulableChecks(db: Db): Promise<number> {
  const row = await schedulable(db)
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * One lease round for the shared runner `owner`, in one transaction: gives back `release` (checks it holds
 * beyond its share, not running), then claims up to `want` more among the unleased and those whose holder is no
 * longer alive, skipping rows another process is claiming right now (FOR UPDATE SKIP LOCKED on PostgreSQL;
 * SQLite serialises writers anyway). Returns the ids of every check it now holds (the rows are read apart, only
 * those new to the process or changed: listLeasedChecks). A lease lasts while its holder's
 * heartbeat (heartbeatSharedRunner) is newer than `staleBefore`: renewing is one row, not one per check, so a
 * process holding 100,000 checks does not rewrite them all every few seconds. The one cross-workspace read of
 * health checks: only the shared runner makes it.
 */
export async function claimCheckLeases(
  db: Db,
  options: { owner: string; staleBefore: number; until: number; release: string[]; want: number; sqlite: boolean },
): Promise<string[]> {
  const { owner, until } = options;
  return db.transaction().execute(async (trx) => {
    for (const release of chunks(options.release, ID_CHUNK)) {
      await trx
        .updateTable('health_checks')
        .set({ lease_owner: null, lease_until: null })
        .where('lease_owner', '=', owner)
        .where('id', 'in', release)
        .execute();
    }
    if (options.want > 0) {
      let free = schedulable(trx)
        .select('id')
        .where((eb) =>
          eb.or([
            eb('lease_owner', 'is', null),
            eb(
              'lease_owner',
              'not in',
              eb.selectFrom('shared_runners').select('id').where('seen_at', '>=', options.staleBefore),
            ),
          ]),
        )
        .orderBy('id')
        .limit(options.want);
      if (!options.sqlite) free = free.forUpdate().skipLocked();
      const ids = (await free.execute()).map((row) => row.id);
      for (const claimed of chunks(ids, ID_CHUNK)) {
        await trx
          .updateTable('health_checks')
          .set({ lease_owner: owner, lease_until: until })
          .where('id', 'in', claimed)
          .execute();
      }
    }
    // One JSON array, not a row per check: 100,000 row objects took 60-140 ms of the server's thread every reload.
    const ids = options.sqlite ? sql<string>`json_group_array(id)` : sql<string>`coalesce(json_agg(id), '[]'::json)`;
    const held = await schedulable(trx)
      .where('lease_owner', '=', owner)
      .select(ids.as('ids'))
      .executeTakeFirstOrThrow();
    // node-pg parses json itself.
    return (typeof held.ids === 'string' ? JSON.parse(held.ids) : held.ids) as string[];
  });
}

/**
 * The schedulable checks `owner` holds, whole: all of them, or only those among `ids` and those whose updated_at
 * (set by every change of a check's definition) is after `updatedSince` and differs from what `known` says the
 * process has (a first narrow read of ids and versions, so a burst of recent saves is not read whole again).
 */
export async function listLeasedChecks(
  db: Db,
  owner: string,
  only?: { ids: readonly string[]; updatedSince: string; known: (id: string) => string | undefined },
): Promise<HealthCheckRow[]> {
  const leased = schedulable(db).where('lease_owner', '=', owner);
  if (!only) return leased.selectAll().execute();
  const recent = await leased.select(['id', 'updated_at']).where('updated_at', '>', only.updatedSince).execute();
  const wanted = [...only.ids, ...recent.filter((row) => only.known(row.id) !== row.updated_at).map((row) => row.id)];
  const rows: HealthCheckRow[] = [];
  for (const group of chunks([...new Set(wanted)], ID_CHUNK)) {
    rows.push(...(await leased.selectAll().where('id', 'in', group).execute()));
  }
  return rows;
}

/** Gives back every lease `owner` holds (a clean stop), so others take the checks at once. */
export async function releaseCheckLeases(db: Db, owner: string): Promise<void> {
  await db
    .updateTable('health_checks')
    .set({ lease_owner: null, lease_until: null })
    .where('lease_owner', '=', owner)
    .execute();
}

/** Persists whether a check is failing and with which severity; says what changed. */
export async function setCheckFailing(
  db: Db,
  workspaceId: string,
  checkId: string,
  failing: boolean,
  severity: HealthCheckRow['failing_severity'],
): Promise<{ failingChanged: boolean; severityChanged: boolean }> {
  const severityNow = failing ? severity : null;
  const before = await db
    .selectFrom('health_checks')
    .select(['failing', 'failing_severity'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', checkId)
    .executeTakeFirst();
  if (!before) return { failingChanged: false, severityChanged: false };
  const failingChanged = Boolean(before.failing) !== failing;
  const severityChanged = before.failing_severity !== severityNow;
  if (!failingChanged && !severityChanged) return { failingChanged, severityChanged };
  // Guarded by what was read, so two runners flipping the same check together write one change.
  const result = await db
    .updateTable('health_checks')
    .set({ failing: failing ? 1 : 0, failing_severity: severityNow })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', checkId)
    .where('failing', '=', before.failing)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1
    ? { failingChanged, severityChanged }
    : { failingChanged: false, severityChanged: false };
}
