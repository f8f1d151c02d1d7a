/**
 * The shared runner (DESIGN.md 5): the health-check scheduler inside `beacon serve`. It probes every enabled,
 * unpaused check that has no team runner at its frequency with its timeout, never overlapping itself, writes
 * results in batches, keeps them for the retention window and moves a service's health when one of its
 * checks starts or stops failing.
 *
 * One process only for now. Several `beacon serve` processes on one PostgreSQL database would each probe every
 * check: see the note on leases in reload().
 */
import type { Health } from '../../domain/catalogue.js';
import { worstHealth } from '../../domain/health.js';
import { MAX_TIMEOUT_SECONDS, probe, type ProbeResult } from '../../runner/probe.js';
import { CheckScheduler } from '../../runner/schedule.js';
import type { ServerContext } from '../context.js';
import {
  deleteHealthCheckResultsBefore,
  existingCheckIds,
  insertHealthCheckResults,
  listLatestOutcomes,
  listSchedulableChecks,
  recordHealthTransition,
} from '../db/repositories/health.js';
import { changeServiceHealth } from '../db/repositories/services.js';
import type { HealthCheckResultsTable, HealthCheckRow } from '../db/schema.js';

const MS_PER_DAY = 86_400_000;

export interface SharedRunnerOptions {
  /** How often the scheduler is ticked at most, ms (it wakes earlier when a check is due sooner). */
  tickMs?: number;
  /** How often the checks are reloaded from the database, ms: changes take effect within this. */
  reloadMs?: number;
  /** How often buffered results are written, ms. */
  flushMs?: number;
  /** How often old results are deleted, ms. */
  retentionMs?: number;
  /** Probes in flight at most; due checks wait for the next tick beyond it. */
  maxInFlight?: number;
}

export interface SharedRunner {
  /** Reloads the checks now (a change made through the API can call it instead of waiting for the next reload). */
  refresh(): Promise<void>;
  /** Stops scheduling, waits for probes in flight (at most the longest timeout), then writes what is buffered. */
  stop(): Promise<void>;
}

interface RunnerCheck {
  id: string;
  frequencySeconds: number;
  row: HealthCheckRow;
}

interface CheckState {
  workspaceId: string;
  serviceId: string;
  importance: HealthCheckRow['importance'];
  allowedFailures: number;
  consecutiveFailures: number;
  failing: boolean;
}

export function startSharedRunner(ctx: ServerContext, options: SharedRunnerOptions = {}): SharedRunner {
  const tickMs = options.tickMs ?? 1000;
  const reloadMs = options.reloadMs ?? 5000;
  const flushMs = options.flushMs ?? 1000;
  const retentionMs = options.retentionMs ?? 10 * 60_000;
  const maxInFlight = options.maxInFlight ?? 200;
  const db = ctx.database.db;
  const log = ctx.logger.child({ job: 'shared-runner' });

  const scheduler = new CheckScheduler<RunnerCheck>();
  const states = new Map<string, CheckState>();
  const inFlight = new Set<Promise<void>>();
  let buffer: HealthCheckResultsTable[] = [];
  let stopped = false;
  let tickTimer: NodeJS.Timeout | undefined;
  const timers: NodeJS.Timeout[] = [];
  /** Health changes one at a time, so two checks of a service flipping together cannot interleave. */
  let healthChain: Promise<void> = Promise.resolve();
  let reloading: Promise<void> | undefined;
  let flushing: Promise<void> | undefined;

  const isFailing = (state: CheckState) => state.consecutiveFailures > state.allowedFailures;

  /** Worst importance among the service's failing checks, else good; written only when it changes. */
  const updateServiceHealth = (workspaceId: string, serviceId: string) => {
    const failing: Health[] = [];
    for (const state of states.values()) {
      if (state.serviceId === serviceId && state.failing) failing.push(state.importance);
    }
    const health = worstHealth(...failing);
    // Notices (not built yet) will hold health down here too.
    const run = async () => {
      const now = ctx.now();
      await db.transaction().execute(async (trx) => {
        const changed = await changeServiceHealth(trx, workspaceId, serviceId, health, now.toISOString());
        if (changed) {
          await recordHealthTransition(trx, {
            workspace_id: workspaceId,
            service_id: serviceId,
            at: now.getTime(),
            health,
            source: 'check',
          });
        }
      });
    };
    healthChain = healthChain.then(run).catch((error: unknown) => {
      log.error({ err: error, serviceId }, 'could not change service health');
    });
  };

  const setFailing = (state: CheckState) => {
    const failing = isFailing(state);
    if (failing === state.failing) return;
    state.failing = failing;
    updateServiceHealth(state.workspaceId, state.serviceId);
  };

  /**
   * Reloads the checks this process runs. With several processes on PostgreSQL, this is where leases go: each
   * process would claim a share of the checks (a leases table or column, claimed with SELECT ... FOR UPDATE
   * SKIP LOCKED and renewed at every reload) and schedule only those. Not built yet: run one shared runner.
   */
  const reload = async () => {
    const rows = await listSchedulableChecks(db);
    const seen = new Set<string>();
    const affected = new Map<string, string>();
    for (const row of rows) {
      seen.add(row.id);
      let state = states.get(row.id);
      if (!state) {
        // A check new to this process: its failure count continues from its latest results.
        const outcomes = await listLatestOutcomes(db, row.id, row.allowed_failures + 1);
        const failures = outcomes.findIndex((success) => success);
        state = {
          workspaceId: row.workspace_id,
          serviceId: row.service_id,
          importance: row.importance,
          allowedFailures: row.allowed_failures,
          consecutiveFailures: failures === -1 ? outcomes.length : failures,
          failing: false,
        };
        state.failing = isFailing(state);
        states.set(row.id, state);
        continue;
      }
      const importanceChanged = state.importance !== row.importance;
      state.importance = row.importance;
      state.allowedFailures = row.allowed_failures;
      if (isFailing(state) !== state.failing || (importanceChanged && state.failing)) {
        state.failing = isFailing(state);
        affected.set(state.serviceId, state.workspaceId);
      }
    }
    // Paused, disabled, deleted or handed to a team runner: no longer counts towards its service's health.
    for (const [id, state] of states) {
      if (seen.has(id)) continue;
      states.delete(id);
      if (state.failing) affected.set(state.serviceId, state.workspaceId);
    }
    for (const [serviceId, workspaceId] of affected) updateServiceHealth(workspaceId, serviceId);
    scheduler.update(
      rows.map((row) => ({ id: row.id, frequencySeconds: row.frequency, row })),
      Date.now(),
    );
  };

  const refresh = () =>
    (reloading ??= reload()
      .catch((error: unknown) => log.error({ err: error }, 'could not load health checks'))
      .finally(() => {
        reloading = undefined;
      }));

  const record = (check: HealthCheckRow, result: ProbeResult) => {
    buffer.push({
      check_id: check.id,
      workspace_id: check.workspace_id,
      start: result.start,
      time: result.time,
      success: result.success ? 1 : 0,
      status: result.status ?? null,
      error: result.error ?? null,
    });
    const state = states.get(check.id);
    if (!state) return; // removed while it ran
    state.consecutiveFailures = result.success ? 0 : state.consecutiveFailures + 1;
    setFailing(state);
  };

  const run = (check: HealthCheckRow) => {
    const task = probe(
      { endpoint: check.endpoint, timeoutSeconds: check.timeout },
      { allowPrivate: ctx.config.allowPrivateTargets },
    )
      .then((result) => record(check, result))
      .catch((error: unknown) => log.error({ err: error, checkId: check.id }, 'health check run failed'))
      .finally(() => {
        scheduler.finished(check.id, Date.now());
        inFlight.delete(task);
      });
    inFlight.add(task);
  };

  const tick = () => {
    tickTimer = undefined;
    if (stopped) return;
    const now = Date.now();
    for (const id of scheduler.due(now)) {
      if (inFlight.size >= maxInFlight) break;
      const entry = scheduler.get(id);
      if (!entry || !scheduler.started(id, now)) continue;
      run(entry.check.row);
    }
    const wake = scheduler.nextWake();
    const delay = wake === null ? tickMs : Math.min(tickMs, Math.max(10, wake - Date.now()));
    tickTimer = setTimeout(tick, delay);
    tickTimer.unref();
  };

  const flush = () =>
    (flushing ??= (async () => {
      while (buffer.length > 0) {
        const batch = buffer;
        buffer = [];
        try {
          await insertHealthCheckResults(db, batch);
        } catch (error) {
          // Most likely a check (or its service) deleted meanwhile: drop its results and try the rest once.
          try {
            const exist = await existingCheckIds(db, [...new Set(batch.map((row) => row.check_id))]);
            await insertHealthCheckResults(
              db,
              batch.filter((row) => exist.has(row.check_id)),
            );
          } catch {
            log.error({ err: error, results: batch.length }, 'could not write health-check results');
          }
        }
      }
    })().finally(() => {
      flushing = undefined;
    }));

  const retention = async () => {
    try {
      const before = ctx.now().getTime() - ctx.config.resultRetentionDays * MS_PER_DAY;
      const deleted = await deleteHealthCheckResultsBefore(db, before);
      if (deleted > 0) log.info({ deleted }, 'old health-check results deleted');
    } catch (error) {
      log.error({ err: error }, 'could not delete old health-check results');
    }
  };

  const every = (ms: number, fn: () => Promise<unknown>) => {
    const timer = setInterval(() => {
      if (!stopped) void fn();
    }, ms);
    timer.unref();
    timers.push(timer);
  };

  void refresh().then(tick);
  every(reloadMs, refresh);
  every(flushMs, flush);
  every(retentionMs, retention);
  void retention();

  let stopping: Promise<void> | undefined;
  return {
    refresh,
    stop: () =>
      (stopping ??= (async () => {
        stopped = true;
        if (tickTimer) clearTimeout(tickTimer);
        for (const timer of timers) clearInterval(timer);
        await reloading;
        // Probes end by their own timeout; the bound only guards against a bug.
        let bound: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...inFlight]),
          new Promise((resolve) => {
            bound = setTimeout(resolve, (MAX_TIMEOUT_SECONDS + 1) * 1000);
          }),
        ]);
        clearTimeout(bound);
        await healthChain;
        await flushing;
        await flush();
      })()),
  };
}
