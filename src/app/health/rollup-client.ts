import { wrap, type Remote } from 'comlink';
import { rollupDailyHealth, type DailyHealth, type DailyHealthRollup } from '../../domain/health.js';
import type { HealthWorkerApi } from '../../workers/health-worker-api.js';

/**
 * The rollups, computed in the Comlink health worker (docs/decisions.md#offline). One worker serves the whole app,
 * started on first use. Where there is no Worker (tests, old browsers) or it cannot start, the same domain functions
 * run here instead: the answer is the same, only the thread differs.
 */
interface Connection {
  remote: Remote<HealthWorkerApi>;
  /** Rejects once the worker fails (a script that cannot load), so no call waits forever. */
  failed: Promise<never>;
}

let connection: Connection | null | undefined;

function connect(): Connection | null {
  if (connection !== undefined) return connection;
  connection = null;
  if (typeof Worker === 'undefined') return connection;
  try {
    const worker = new Worker(new URL('../../workers/health-worker.ts', import.meta.url), { type: 'module' });
    const failed = new Promise<never>((_, reject) => {
      worker.addEventListener('error', () => {
        connection = null;
        worker.terminate();
        reject(new Error('health worker failed'));
      });
    });
    // Nobody may be waiting when it fails; that is not an unhandled rejection.
    failed.catch(() => undefined);
    connection = { remote: wrap<HealthWorkerApi>(worker), failed };
  } catch {
    connection = null;
  }
  return connection;
}

/**
 * Runs `call` in the app's one worker (the graph layouts share it: docs/decisions.md#graph), or `here` on this thread
 * where there is no worker or it failed.
 */
export async function inWorker<T>(
  call: (remote: Remote<HealthWorkerApi>) => Promise<T>,
  here: () => T | Promise<T>,
): Promise<T> {
  const current = connect();
  if (!current) return here();
  try {
    return await Promise.race([call(current.remote), current.failed]);
  } catch {
    return here();
  }
}

/** Uptime and each day's status and messages of a daily-health report. */
export function rollupDailyHealthOffThread(days: DailyHealth[], now?: number): Promise<DailyHealthRollup> {
  return inWorker(
    (remote) => remote.rollupDailyHealth(days, now),
    () => rollupDailyHealth(days, now),
  );
}
