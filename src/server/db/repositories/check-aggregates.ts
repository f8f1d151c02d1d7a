import {
  aggregateKey,
  aggregateResults,
  decodeHistogram,
  encodeHistogram,
  mergeAggregate,
  type AggregateBucket,
  type CheckAggregate,
} from '../../../domain/check-aggregates.js';
import { isSqlite } from '../connect.js';
import { chunks } from './chunks.js';
import type { HealthCheckAggregatesTable, HealthCheckResultsTable } from '../schema.js';
import type { Db } from './workspaces.js';

/** Buckets per statement: 8 columns each stays well under SQLite's bound-parameter limit. */
const CHUNK = 250;

function toRow(aggregate: CheckAggregate, workspaceId: string): HealthCheckAggregatesTable {
  return {
    check_id: aggregate.checkId,
    bucket: aggregate.bucket,
    bucket_start: aggregate.start,
    workspace_id: workspaceId,
    probes: aggregate.probes,
    failures: aggregate.failures,
    max: aggregate.max,
    histogram: encodeHistogram(aggregate.histogram),
  };
}

/**
 * Adds results to their checks' minute and hour buckets, inside the transaction that writes the results. Each
 * bucket row is made to exist first, so PostgreSQL can lock it: two writers of one bucket add up, never overwrite.
 */
export async function recordAggregates(db: Db, results: readonly HealthCheckResultsTable[]): Promise<void> {
  if (results.length === 0) return;
  const workspaceOf = new Map(results.map((row) => [row.check_id, row.workspace_id] as const));
  const fresh = [
    ...aggregateResults(
      results.map((row) => ({
        checkId: row.check_id,
        start: Number(row.start),
        time: row.time,
        success: row.success === 1,
      })),
    ).values(),
  ].sort((a, b) =>
    aggregateKey(a.checkId, a.bucket, a.start).localeCompare(aggregateKey(b.checkId, b.bucket, b.start)),
  );
  const conflictColumns = ['check_id', 'bucket', 'bucket_start'] as const;
  for (const chunk of chunks(fresh, CHUNK)) {
    const empty = chunk.map((aggregate) =>
      toRow(
        { ...aggregate, probes: 0, failures: 0, max: null, histogram: new Map() },
        workspaceOf.get(aggregate.checkId)!,
      ),
    );
    await db
      .insertInto('health_check_aggregates')
      .values(empty)
      .onConflict((oc) => oc.columns(conflictColumns).doNothing())
      .execute();
    const stored = await db
      .selectFrom('health_check_aggregates')
      .select(['check_id', 'bucket', 'bucket_start', 'probes', 'failures', 'max', 'histogram'])
      .where('check_id', 'in', [...new Set(chunk.map((aggregate) => aggregate.checkId))])
      .where('bucket_start', 'in', [...new Set(chunk.map((aggregate) => aggregate.start))])
      .$if(!isSqlite(db), (query) => query.forUpdate())
      .execute();
    const before = new Map(
      stored.map((row) => [aggregateKey(row.check_id, row.bucket, Number(row.bucket_start)), row] as const),
    );
    const merged = chunk.map((aggregate) => {
      const row = before.get(aggregateKey(aggregate.checkId, aggregate.bucket, aggregate.start));
      const total = row
        ? mergeAggregate(
            { probes: row.probes, failures: row.failures, max: row.max, histogram: decodeHistogram(row.histogram) },
            aggregate,
          )
        : aggregate;
      return toRow({ ...aggregate, ...total }, workspaceOf.get(aggregate.checkId)!);
    });
    await db
      .insertInto('health_check_aggregates')
      .values(merged)
      .onConflict((oc) =>
        oc.columns(conflictColumns).doUpdateSet((eb) => ({
          probes: eb.ref('excluded.probes'),
          failures: eb.ref('excluded.failures'),
          max: eb.ref('excluded.max'),
          histogram: eb.ref('excluded.histogram'),
        })),
      )
      .execute();
  }
}

/** A check's stored buckets with start in [from, to], oldest first. */
export async function listAggregates(
  db: Db,
  workspaceId: string,
  checkId: string,
  bucket: AggregateBucket,
  from: number,
  to: number,
): Promise<CheckAggregate[]> {
  const rows = await db
    .selectFrom('health_check_aggregates')
    .select(['bucket_start', 'probes', 'failures', 'max', 'histogram'])
    .where('check_id', '=', checkId)
    .where('bucket', '=', bucket)
    .where('bucket_start', '>=', from)
    .where('bucket_start', '<=', to)
    .where('workspace_id', '=', workspaceId)
    .orderBy('bucket_start')
    .execute();
  return rows.map((row) => ({
    checkId,
    bucket,
    start: Number(row.bucket_start),
    probes: row.probes,
    failures: row.failures,
    max: row.max,
    histogram: decodeHistogram(row.histogram),
  }));
}

/** Retention: deletes the buckets of `bucket` that started before `before` (epoch ms); returns how many. */
export async function deleteAggregatesBefore(db: Db, bucket: AggregateBucket, before: number): Promise<number> {
  const result = await db
    .deleteFrom('health_check_aggregates')
    .where('bucket', '=', bucket)
    .where('bucket_start', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
