import {
  aggregateKey,
  aggregateResults,
  decodeHistogram,
  encodeHistogram,
  type AggregateBucket,
  type CheckAggregate,
} from '../../../domain/check-aggregates.js';
import { sql } from 'kysely';
import { isSqlite } from '../connect.js';
import { precompile } from '../precompiled.js';
import type { HealthCheckResultsTable } from '../schema.js';
import type { Db } from './workspaces.js';

/**
 * Adds results to their checks' minute and hour buckets, inside the transaction that writes the results: one
 * upsert for the whole batch, its rows as one JSON parameter, that adds to a stored bucket in the database. The
 * row lock of the upsert makes two writers of one bucket add up, never overwrite; the rows go in key order, so two
 * writers on PostgreSQL lock them in the same order. (It used to be three statements a chunk of 250 buckets, a
 * read and a merge here between them: an eighth of the shared runner's CPU at 1,667 results a second, issue 26.)
 */
export async function recordAggregates(db: Db, results: readonly HealthCheckResultsTable[]): Promise<void> {
  if (results.length === 0) return;
  const workspaceOf = new Map(results.map((row) => [row.check_id, row.workspace_id] as const));
  const rows = [
    ...aggregateResults(
      results.map((row) => ({
        checkId: row.check_id,
        start: Number(row.start),
        time: row.time,
        success: row.success === 1,
      })),
    ).values(),
  ]
    .sort((a, b) => compareKeys(aggregateKey(a.checkId, a.bucket, a.start), aggregateKey(b.checkId, b.bucket, b.start)))
    .map((aggregate): AggregateRow => [
      aggregate.checkId,
      aggregate.bucket,
      aggregate.start,
      workspaceOf.get(aggregate.checkId)!,
      aggregate.probes,
      aggregate.failures,
      aggregate.max,
      encodeHistogram(aggregate.histogram),
    ]);
  await addToAggregates(db, { rows: JSON.stringify(rows) });
}

/** A bucket as addToAggregates reads it: the columns of health_check_aggregates in its insert's order. */
type AggregateRow = [string, AggregateBucket, number, string, number, number, number | null, string];
/** Their PostgreSQL types, in the same order. */
const AGGREGATE_ROW_TYPES = ['text', 'text', 'bigint', 'text', 'int', 'int', 'int', 'text'] as const;

const compareKeys = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The upsert itself. A stored bucket's histogram and the batch's are merged by the database: on SQLite by
 * beacon_merge_histograms (the domain's merge, registered on the connection, db/connect.ts), on PostgreSQL by
 * splitting both into `bin:count` pairs and summing per bin.
 */
const addToAggregates = precompile<{ rows: string }, never>((db, param) => {
  const sqlite = isSqlite(db);
  const column = (index: number, type: string) =>
    sqlite ? sql.raw(`json_extract(value, '$[${index}]')`) : sql.raw(`(value->>${index})::${type}`);
  const stored = sql.raw('health_check_aggregates');
  const histogram = sqlite
    ? sql`beacon_merge_histograms(${stored}.histogram, excluded.histogram)`
    : sql`(select coalesce(string_agg(bin || ':' || n, ',' order by bin), '')
           from (select split_part(pair, ':', 1)::int as bin, sum(split_part(pair, ':', 2)::bigint) as n
                 from unnest(string_to_array(${stored}.histogram, ',') || string_to_array(excluded.histogram, ',')) as pair
                 where pair <> '' group by 1) as bins)`;
  const columns = sql.join(AGGREGATE_ROW_TYPES.map((type, index) => column(index, type)));
  const source = sqlite
    ? sql`select ${columns} from json_each(${param('rows')}) where true order by key`
    : sql`select ${columns} from json_array_elements(${param('rows')}::json) with ordinality as rows(value, key) order by key`;
  const upsert = sql<never>`insert into health_check_aggregates
      (check_id, bucket, bucket_start, workspace_id, probes, failures, max, histogram)
    ${source}
    on conflict (check_id, bucket, bucket_start) do update set
      probes = ${stored}.probes + excluded.probes,
      failures = ${stored}.failures + excluded.failures,
      max = ${sqlite ? sql`coalesce(max(${stored}.max, excluded.max), ${stored}.max, excluded.max)` : sql`greatest(${stored}.max, excluded.max)`},
      histogram = ${histogram}`;
  return { compile: () => upsert.compile(db) };
});

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
