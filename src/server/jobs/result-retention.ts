/**
 * Retention of health-check results (issue 18): raw results are kept BEACON_RESULT_RETENTION_HOURS, their
 * per-minute and per-hour aggregates as domain/check-aggregates.ts says. Raw rows go in short time slices, so a
 * large backlog never holds SQLite's write lock long enough to stall the runner's writes.
 */
import { AGGREGATE_RETENTION_DAYS, BUCKET_MS } from '../../domain/check-aggregates.js';
import { MS_PER_DAY } from '../../domain/health.js';
import type { ServerContext } from '../context.js';
import { deleteAggregatesBefore } from '../db/repositories/check-aggregates.js';
import { deleteHealthCheckResultsBefore, oldestHealthCheckResultStart } from '../db/repositories/health.js';

/** Raw results deleted per statement: the results of this much time. */
const SLICE_MS = 60_000;

export interface Pruned {
  results: number;
  minutes: number;
  hours: number;
}

export async function pruneCheckResults(ctx: ServerContext): Promise<Pruned> {
  const { db } = ctx.database;
  const now = ctx.now().getTime();
  const before = now - ctx.config.resultRetentionHours * BUCKET_MS.hour;
  let results = 0;
  for (let oldest = await oldestHealthCheckResultStart(db); oldest !== null && oldest < before;) {
    const until = Math.min(before, oldest + SLICE_MS);
    results += await deleteHealthCheckResultsBefore(db, until);
    oldest = until >= before ? null : await oldestHealthCheckResultStart(db);
    // Let the runner's writes in between slices.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const minutes = await deleteAggregatesBefore(db, 'minute', now - AGGREGATE_RETENTION_DAYS.minute * MS_PER_DAY);
  const hours = await deleteAggregatesBefore(db, 'hour', now - AGGREGATE_RETENTION_DAYS.hour * MS_PER_DAY);
  return { results, minutes, hours };
}
