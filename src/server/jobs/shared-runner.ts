/**
 * The shared runner (docs/operations.md#configuration): the health-check scheduler inside `beacon serve`. It probes
 * every enabled, unpaused check that has no team runner at its frequency with its timeout, never overlapping itself,
 * writes results in batches, keeps them for the retention window and moves a service's health when one of its
 * checks starts or stops failing.
 *
 * Several processes on one PostgreSQL database share the checks through leases on the check rows: at every
 * reload each process renews its leases and claims free or expired ones up to its share (the checks divided by
 * the processes seen alive), and gives back what it holds beyond that. It starts a probe only while its lease
 * has more than LEASE_MARGIN_MS to run, and a lease is taken over only once expired, so a check is never run by
 * two processes at once; the slots are a fixed grid per check (runner/schedule.ts), so whoever holds it runs
 * the same slots.
 *
 * While the database is unreachable the runner pauses: it starts no probe, keeps the results it has (up to
 * MAX_BUFFERED_RESULTS) and writes them once the database answers again; the next reload that succeeds resumes
 * it, and writes again a failing state it could not persist meanwhile.
 *
 * The loop is composed here from one unit each (shared-runner/): leasing.ts (heartbeat, share, claim and release),
 * scheduling.ts (a reload: rows to read, check states, runnable checks, the scheduler), recording.ts (a run into
 * failing state, service health and drift, one change at a time), flushing.ts (the result buffer) and outage.ts
 * (the pause while the database is away).
 */
import { randomUUID } from 'node:crypto';
import { startProbeLoop, type ProbeLoop } from '../../runner/probe-loop.js';
import { runCheck, type RunOutcome } from '../../runner/run-check.js';
import { CheckScheduler } from '../../runner/schedule.js';
import type { ServerContext } from '../context.js';
import { isDatabaseUnavailable } from '../db/connect.js';
import { checkHeartbeat } from '../services/health/heartbeats.js';
import { pruneCheckResults } from './result-retention.js';
import type { CheckStates, RunnerCheck } from './shared-runner/checks.js';
import { createResultBuffer } from './shared-runner/flushing.js';
import { createLeasing } from './shared-runner/leasing.js';
import { createOutage } from './shared-runner/outage.js';
import { createRecorder } from './shared-runner/recording.js';
import { createScheduling } from './shared-runner/scheduling.js';

export { MAX_BUFFERED_RESULTS } from './shared-runner/flushing.js';

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
  /** How long a lease lasts, ms; renewed at every reload, so a few reloads long. */
  leaseMs?: number;
  /** Told how late each probe starts after its slot, ms (the checks benchmark measures the schedule lag). */
  onStart?: (lagMs: number) => void;
}

/** A probe starts only while the process's lease on the check has at least this long to run. */
const LEASE_MARGIN_MS = 2000;

export interface SharedRunner {
  /** Reloads the checks now (a change made through the API can call it instead of waiting for the next reload). */
  refresh(): Promise<void>;
  /** Stops scheduling, waits for probes in flight (at most the longest timeout), then writes what is buffered. */
  stop(): Promise<void>;
}

export function startSharedRunner(ctx: ServerContext, options: SharedRunnerOptions = {}): SharedRunner {
  const tickMs = options.tickMs ?? 1000;
  const reloadMs = options.reloadMs ?? 5000;
  const flushMs = options.flushMs ?? 1000;
  const retentionMs = options.retentionMs ?? 10 * 60_000;
  const maxInFlight = options.maxInFlight ?? 500;
  const leaseMs = options.leaseMs ?? Math.max(3 * reloadMs, reloadMs + 2 * LEASE_MARGIN_MS);
  const db = ctx.database.jobs;
  const owner = randomUUID();
  const log = ctx.logger.child({ job: 'shared-runner', runner: owner });

  const scheduler = new CheckScheduler<RunnerCheck>();
  const states: CheckStates = new Map();
  const outage = createOutage(
    log,
    () => void results.flush(),
    () => results.size,
  );
  const results = createResultBuffer(db, log, outage);
  const recorder = createRecorder({ db, now: ctx.now, log, states, results, outage });
  const leasing = createLeasing(db, owner, leaseMs);
  const scheduling = createScheduling({
    db,
    owner,
    states,
    scheduler,
    persistFailing: recorder.persistFailing,
    persistUnwritten: recorder.persistUnwritten,
  });
  /** Until when this process holds the leases it renewed at its latest reload (epoch ms). */
  let leaseUntil = 0;
  let stopped = false;
  const timers: NodeJS.Timeout[] = [];
  let reloading: Promise<void> | undefined;

  /** Renews and claims leases, then schedules exactly the checks this process holds. */
  const reload = async () => {
    const startedAt = Date.now();
    const { ids, until } = await leasing.lease({
      held: [...states.keys()],
      running: (id) => !!scheduler.get(id)?.running,
      dropped: (released) => {
        for (const id of released) states.delete(id);
      },
    });
    leaseUntil = until;
    await scheduling.reload(ids, startedAt);
  };

  const refresh = () =>
    (reloading ??= reload()
      .then(outage.resume)
      .catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) outage.pause(error);
        else log.error({ err: error }, 'could not load health checks');
      })
      .finally(() => {
        reloading = undefined;
      }));

  /** One run of a check this process holds: a probe judged by its assertions, or a look at a heartbeat. */
  const run = async (check: RunnerCheck): Promise<RunOutcome | null> => {
    if (!check.runnable) {
      await checkHeartbeat(ctx, check.row.workspace_id, check.id);
      return null;
    }
    const options = {
      allowPrivate: ctx.config.allowPrivateTargets,
      dnsResolvers: ctx.config.dnsResolvers,
      rdapBootstrapUrl: ctx.config.rdapBootstrapUrl,
    };
    return runCheck(check.runnable, options, states.get(check.id)?.seen);
  };

  const retention = async () => {
    if (outage.paused) return;
    try {
      const pruned = await pruneCheckResults(ctx);
      if (pruned.results + pruned.minutes + pruned.hours > 0) log.info(pruned, 'old health-check results deleted');
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

  let loop: ProbeLoop | undefined;
  const started = refresh().then(() => {
    if (stopped) return;
    loop = startProbeLoop<RunnerCheck, RunOutcome | null>({
      scheduler,
      run,
      onResult: (check, outcome) => recorder.record(check.row, outcome),
      onError: (check, error) => log.error({ err: error, checkId: check.id }, 'health check run failed'),
      // A lease about to run out (the database unreachable at the last reloads) lets another process take over.
      mayStart: (now) => !outage.paused && now < leaseUntil - LEASE_MARGIN_MS,
      ...(options.onStart ? { onStart: options.onStart } : {}),
      maxInFlight,
      tickMs,
    });
  });
  every(reloadMs, refresh);
  every(flushMs, results.flush);
  every(retentionMs, retention);
  void retention();

  let stopping: Promise<void> | undefined;
  return {
    refresh,
    stop: () =>
      (stopping ??= (async () => {
        stopped = true;
        for (const timer of timers) clearInterval(timer);
        await started;
        await reloading;
        await loop?.stop();
        await recorder.settled();
        await results.flushing;
        await results.flush();
        if (results.size > 0)
          log.error({ results: results.size }, 'health-check results not written: the database is away');
        try {
          await leasing.giveBack();
        } catch (error) {
          log.error({ err: error }, 'could not give back the leases; they expire by themselves');
        }
      })()),
  };
}
