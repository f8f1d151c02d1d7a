/**
 * The shared runner's result buffer: runs land here and are written in batches, one transaction a batch, so a
 * batch that failed is either all written or not at all. While the database is away the buffer keeps the newest
 * MAX_BUFFERED_RESULTS and the runner pauses (outage.ts).
 */
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../../db/connect.js';
import { existingCheckIds, insertHealthCheckResults } from '../../db/repositories/health.js';
import type { HealthCheckResultsTable } from '../../db/schema.js';
import type { Db } from '../../db/repositories/workspaces.js';
import type { Outage } from './outage.js';

/** Results kept while the database is away; the oldest go first beyond this (probing pauses meanwhile). */
export const MAX_BUFFERED_RESULTS = 50_000;

export interface ResultBuffer {
  push(row: HealthCheckResultsTable): void;
  /** Writes everything buffered (one flush at a time: a second call joins the one running). */
  flush(): Promise<void>;
  /** The flush in flight, if any. */
  readonly flushing: Promise<void> | undefined;
  readonly size: number;
}

/**
 * A batch that could not be written, put back in front of what came meanwhile, trimmed to the newest `max`:
 * the results to keep and how many of the oldest were dropped.
 */
export function keepNewest<T>(batch: readonly T[], buffer: readonly T[], max: number): { kept: T[]; dropped: number } {
  const all = [...batch, ...buffer];
  const dropped = Math.max(0, all.length - max);
  return { kept: dropped > 0 ? all.slice(dropped) : all, dropped };
}

export function createResultBuffer(db: Db, log: Logger, outage: Pick<Outage, 'pause'>): ResultBuffer {
  let buffer: HealthCheckResultsTable[] = [];
  let flushing: Promise<void> | undefined;

  const keep = (batch: HealthCheckResultsTable[]) => {
    const { kept, dropped } = keepNewest(batch, buffer, MAX_BUFFERED_RESULTS);
    buffer = kept;
    if (dropped > 0)
      log.error({ dropped }, 'too many health-check results waiting for the database: the oldest were dropped');
  };

  const write = (rows: HealthCheckResultsTable[]) =>
    db.transaction().execute((trx) => insertHealthCheckResults(trx, rows));

  const flush = () =>
    (flushing ??= (async () => {
      while (buffer.length > 0) {
        const batch = buffer;
        buffer = [];
        try {
          await write(batch);
        } catch (error) {
          if (isDatabaseUnavailable(error)) {
            keep(batch);
            outage.pause(error);
            return;
          }
          // Most likely a check (or its service) deleted meanwhile: drop its results and try the rest once.
          try {
            const exist = await existingCheckIds(db, [...new Set(batch.map((row) => row.check_id))]);
            await write(batch.filter((row) => exist.has(row.check_id)));
          } catch (again) {
            if (isDatabaseUnavailable(again)) {
              keep(batch);
              outage.pause(again);
              return;
            }
            log.error({ err: error, results: batch.length }, 'could not write health-check results');
          }
        }
      }
    })().finally(() => {
      flushing = undefined;
    }));

  return {
    push: (row) => {
      buffer.push(row);
    },
    flush,
    get flushing() {
      return flushing;
    },
    get size() {
      return buffer.length;
    },
  };
}
