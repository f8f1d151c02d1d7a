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
 */
import { randomUUID } from 'node:crypto';
import { afterRun, failingStateOf, outcomesToRead, type FailingState } from '../../domain/health.js';
import { changedValues } from '../../runner/assertions.js';
import { startProbeLoop, type ProbeLoop } from '../../runner/probe-loop.js';
import {
  runCheck,
  runnableCheck,
  type RunnableCheck,
  type RunOutcome,
  type SeenValues,
} from '../../runner/run-check.js';
import { CheckScheduler } from '../../runner/schedule.js';
import type { ServerContext } from '../context.js';
import { isDatabaseUnavailable, isSqlite } from '../db/connect.js';
import {
  claimCheckLeases,
  listLeasedChecks,
  countLiveSharedRunners,
  countSchedulableChecks,
  existingCheckIds,
  healthCheckResultRow,
  heartbeatSharedRunner,
  insertHealthCheckResults,
  listLatestOutcomes,
  listLatestAssertions,
  releaseCheckLeases,
  removeSharedRunner,
} from '../db/repositories/health.js';
import { chunks } from '../db/repositories/chunks.js';
import { pruneCheckResults } from './result-retention.js';
import type { HealthCheckResultsTable, HealthCheckRow } from '../db/schema.js';
import { SHARED_RUNNER_AGENT } from '../services/accounts/agents.js';
import { updateCheckFailing } from '../services/catalogue/service-health.js';
import { checkAssertions, probeSpecOf } from '../services/health/check-settings.js';
import { checkHeartbeat } from '../services/health/heartbeats.js';
import { judgesSpec, recordDrift } from '../services/health/api-drift.js';
import { publishedSpecsOf, schemaValidator } from '../services/health/spec-checks.js';
import type { PublishedSpec } from '../services/health/spec-documents.js';

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

/** Checks whose latest outcomes are read together when a reload brings new ones. */
const OUTCOME_READS_AT_ONCE = 16;

/** A probe starts only while the process's lease on the check has at least this long to run. */
const LEASE_MARGIN_MS = 2000;
/** How far before the previous reload a reload looks for saved checks: clocks of other processes, slow saves. */
const CHANGE_MARGIN_MS = 10_000;

/** Results kept while the database is away; the oldest go first beyond this (probing pauses meanwhile). */
export const MAX_BUFFERED_RESULTS = 50_000;

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
  /** What to probe and how to judge it; null for a heartbeat (its last ping is looked at instead). */
  runnable: RunnableCheck | null;
}

/** A heartbeat is looked at this often at most, so a late job is seen within a minute whatever its period. */
const HEARTBEAT_LOOK_SECONDS = 60;

interface CheckState extends FailingState {
  workspaceId: string;
  serviceId: string;
  /** The check's name, for the events its failing and recovering write. */
  name: string;
  allowedFailures: number;
  recoverAfter: number;
  importance: HealthCheckRow['importance'];
  /** The severity it fails with: its latest failing run's (docs/decisions.md#checks). */
  severity: HealthCheckRow['failing_severity'];
  /** Each assertion's value at the last run, for `changed`. */
  seen: SeenValues;
  /** The check's version its runnable was made from (its updated_at). */
  version: string;
}

export function startSharedRunner(ctx: ServerContext, options: SharedRunnerOptions = {}): SharedRunner {
  const tickMs = options.tickMs ?? 1000;
  const reloadMs = options.reloadMs ?? 5000;
  const flushMs = options.flushMs ?? 1000;
  const retentionMs = options.retentionMs ?? 10 * 60_000;
  const maxInFlight = options.maxInFlight ?? 500;
  const leaseMs = options.leaseMs ?? Math.max(3 * reloadMs, reloadMs + 2 * LEASE_MARGIN_MS);
  const db = ctx.database.db;
  const sqlite = isSqlite(db);
  const owner = randomUUID();
  const log = ctx.logger.child({ job: 'shared-runner', runner: owner });
  /** Until when this process holds the leases it renewed at its latest reload (epoch ms). */
  let leaseUntil = 0;

  const scheduler = new CheckScheduler<RunnerCheck>();
  const states = new Map<string, CheckState>();
  let buffer: HealthCheckResultsTable[] = [];
  let stopped = false;
  const timers: NodeJS.Timeout[] = [];
  /** Health changes one at a time, so two checks of a service flipping together cannot interleave. */
  let healthChain: Promise<void> = Promise.resolve();
  let reloading: Promise<void> | undefined;
  let flushing: Promise<void> | undefined;
  /** Checks whose failing state could not be written (the database was away): written at the next reload. */
  const unpersisted = new Set<string>();
  /** Set while the database is unreachable: no probe starts until a reload succeeds. */
  let paused = false;

  const pause = (error: unknown) => {
    if (paused) return;
    paused = true;
    log.warn({ err: error }, 'database unavailable: the shared runner pauses until it answers again');
  };
  const resume = () => {
    if (!paused) return;
    paused = false;
    log.info({ buffered: buffer.length }, 'database back: the shared runner resumes');
    void flush();
  };

  /**
   * Persists the check's failing state and severity and lets the service take the health its signals call for
   * (services/catalogue/service-health.ts), one change at a time.
   */
  const persistFailing = (checkId: string, state: CheckState) => {
    const check = {
      id: checkId,
      workspace_id: state.workspaceId,
      service_id: state.serviceId,
      name: state.name,
      importance: state.importance,
    };
    const { failing, severity } = state;
    const run = async () => {
      // The results that made the check fail are stored before the health they move (a reader who sees the new
      // health finds the failures behind it).
      await flush();
      await updateCheckFailing(db, check, failing, ctx.now(), SHARED_RUNNER_AGENT, failing ? severity : null);
    };
    healthChain = healthChain.then(run).catch((error: unknown) => {
      // Unreachable: the next reload that succeeds writes it again.
      if (isDatabaseUnavailable(error)) {
        unpersisted.add(checkId);
        pause(error);
      } else log.error({ err: error, checkId }, 'could not change service health');
    });
  };

  /** What a run of a check made from a spec says about the spec (services/health/api-drift.ts), in the health order. */
  const recordSpecDrift = (check: HealthCheckRow, run: RunOutcome['run']) => {
    healthChain = healthChain
      .then(() => recordDrift(db, check, run, SHARED_RUNNER_AGENT))
      .catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) pause(error);
        else log.error({ err: error, checkId: check.id }, 'could not record API drift');
      });
  };

  /** This process's share of the checks; gives back the surplus (not running) and claims up to the share. */
  const lease = async (): Promise<string[]> => {
    const now = Date.now();
    await heartbeatSharedRunner(db, owner, now, now - 10 * leaseMs);
    const [live, total] = await Promise.all([countLiveSharedRunners(db, now - leaseMs), countSchedulableChecks(db)]);
    const share = Math.ceil(total / Math.max(1, live));
    const held = [...states.keys()];
    const release = held.filter((id) => !scheduler.get(id)?.running).slice(0, Math.max(0, held.length - share));
    for (const id of release) states.delete(id);
    const until = now + leaseMs;
    const ids = await claimCheckLeases(db, {
      owner,
      staleBefore: now - leaseMs,
      until,
      release,
      want: Math.max(0, share - (held.length - release.length)),
      sqlite,
    });
    leaseUntil = until;
    return ids;
  };

  /**
   * The rows a reload needs: every held check the first time, then only those new to this process and those
   * saved since shortly before the previous reload (the margin covers another process's clock and a save that
   * landed while that reload ran), so a process holding 100,000 checks does not read them all every few seconds.
   */
  let previousReload: number | null = null;
  const rowsToRead = async (ids: readonly string[], startedAt: number): Promise<HealthCheckRow[]> => {
    const fresh = ids.filter((id) => !states.has(id));
    const since = previousReload;
    previousReload = startedAt;
    if (since === null || fresh.length > ids.length / 2) return listLeasedChecks(db, owner);
    return listLeasedChecks(db, owner, {
      ids: fresh,
      updatedSince: new Date(since - CHANGE_MARGIN_MS).toISOString(),
      known: (id) => states.get(id)?.version,
    });
  };

  /** A check as the scheduler runs it: probes get their assertions compiled once per version of the check. */
  const runnerCheck = (row: HealthCheckRow, state: CheckState, specs: Map<string, PublishedSpec>): RunnerCheck => {
    const spec = probeSpecOf(row);
    const current = scheduler.get(row.id)?.check;
    const validator = row.spec_page_id
      ? schemaValidator(specs.get(row.spec_page_id), row.spec_operation_id)
      : undefined;
    const runnable =
      current && state.version === row.updated_at
        ? current.runnable
        : spec && runnableCheck(spec, checkAssertions(row), row.importance, row.retries, validator);
    state.version = row.updated_at;
    const frequencySeconds = spec ? row.frequency : Math.min(row.frequency, HEARTBEAT_LOOK_SECONDS);
    return { id: row.id, frequencySeconds, row, runnable };
  };

  /** Renews and claims leases, then schedules exactly the checks this process holds. */
  const reload = async () => {
    const startedAt = Date.now();
    const ids = await lease();
    const rows = await rowsToRead(ids, startedAt);
    // Checks new to this process continue their failure counts (and `changed` values) from their latest results:
    // read a few at a time (one process may take over 100,000 checks at once; PostgreSQL answers these over its
    // pool in parallel).
    const latest = new Map<string, { outcomes: boolean[]; seen: SeenValues }>();
    const fresh = rows.filter((row) => !states.has(row.id));
    for (const group of chunks(fresh, OUTCOME_READS_AT_ONCE)) {
      await Promise.all(
        group.map(async (row) => {
          const [outcomes, seen] = await Promise.all([
            listLatestOutcomes(db, row.id, outcomesToRead(row.allowed_failures, row.recover_after)),
            listLatestAssertions(db, row.id).then((assertions) => changedValues(assertions)),
          ]);
          latest.set(row.id, { outcomes, seen });
        }),
      );
    }
    const specs = await publishedSpecsOf(
      db,
      null,
      rows.filter((row) => row.spec_page_id && states.get(row.id)?.version !== row.updated_at),
    );
    const read = new Map<string, RunnerCheck>();
    for (const row of rows) {
      let state = states.get(row.id);
      if (!state) {
        const { outcomes = [], seen: values = {} } = latest.get(row.id) ?? {};
        state = {
          workspaceId: row.workspace_id,
          serviceId: row.service_id,
          name: row.name,
          allowedFailures: row.allowed_failures,
          recoverAfter: row.recover_after,
          importance: row.importance,
          ...failingStateOf(outcomes, Boolean(row.failing), row.allowed_failures, row.recover_after),
          severity: row.failing_severity,
          seen: values,
          version: '',
        };
        states.set(row.id, state);
        if (Boolean(row.failing) !== state.failing) persistFailing(row.id, state);
      } else {
        // A new importance is the API's to apply (services/health/health.ts recomputes the service as it saves).
        state.allowedFailures = row.allowed_failures;
        state.recoverAfter = row.recover_after;
        state.importance = row.importance;
        state.name = row.name;
      }
      read.set(row.id, runnerCheck(row, state, specs));
    }
    // A change that could not be written (the database was away) is written now.
    for (const id of unpersisted) {
      const state = states.get(id);
      if (state) persistFailing(id, state);
    }
    unpersisted.clear();
    // Held and unchanged: scheduled as they were. Held but not read (new since the lease, and gone again): next
    // time. Not held (paused, disabled, deleted, handed to a team runner or to another process): dropped, and
    // the API or the new holder moves the service's health from here.
    const held = new Set(ids);
    const checks: RunnerCheck[] = [];
    for (const id of ids) {
      const check = read.get(id) ?? scheduler.get(id)?.check;
      if (check) checks.push(check);
      else held.delete(id);
    }
    for (const id of states.keys()) if (!held.has(id)) states.delete(id);
    scheduler.update(checks, Date.now());
  };

  const refresh = () =>
    (reloading ??= reload()
      .then(resume)
      .catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) pause(error);
        else log.error({ err: error }, 'could not load health checks');
      })
      .finally(() => {
        reloading = undefined;
      }));

  const record = (check: HealthCheckRow, outcome: RunOutcome | null) => {
    if (!outcome) return; // a heartbeat looked at: it records its own runs
    const { run } = outcome;
    buffer.push(healthCheckResultRow(check, run));
    const state = states.get(check.id);
    if (!state) return; // removed while it ran
    if (judgesSpec(check)) recordSpecDrift(check, run);
    state.seen = outcome.seen;
    const before = { failing: state.failing, severity: state.severity };
    Object.assign(state, afterRun(state, run.success, state.allowedFailures, state.recoverAfter));
    if (!run.success) state.severity = run.severity ?? state.importance;
    if (state.failing !== before.failing || (state.failing && state.severity !== before.severity))
      persistFailing(check.id, state);
  };

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

  /** Puts a batch that could not be written back in front of the buffer, keeping the newest results. */
  const keep = (batch: HealthCheckResultsTable[]) => {
    buffer = [...batch, ...buffer];
    const dropped = buffer.length - MAX_BUFFERED_RESULTS;
    if (dropped > 0) {
      buffer = buffer.slice(dropped);
      log.error({ dropped }, 'too many health-check results waiting for the database: the oldest were dropped');
    }
  };

  /** One batch in one transaction, so a batch that failed is either all written or not at all. */
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
            pause(error);
            return;
          }
          // Most likely a check (or its service) deleted meanwhile: drop its results and try the rest once.
          try {
            const exist = await existingCheckIds(db, [...new Set(batch.map((row) => row.check_id))]);
            await write(batch.filter((row) => exist.has(row.check_id)));
          } catch (again) {
            if (isDatabaseUnavailable(again)) {
              keep(batch);
              pause(again);
              return;
            }
            log.error({ err: error, results: batch.length }, 'could not write health-check results');
          }
        }
      }
    })().finally(() => {
      flushing = undefined;
    }));

  const retention = async () => {
    if (paused) return;
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
      onResult: (check, outcome) => record(check.row, outcome),
      onError: (check, error) => log.error({ err: error, checkId: check.id }, 'health check run failed'),
      // A lease about to run out (the database unreachable at the last reloads) lets another process take over.
      mayStart: (now) => !paused && now < leaseUntil - LEASE_MARGIN_MS,
      ...(options.onStart ? { onStart: options.onStart } : {}),
      maxInFlight,
      tickMs,
    });
  });
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
        for (const timer of timers) clearInterval(timer);
        await started;
        await reloading;
        await loop?.stop();
        await healthChain;
        await flushing;
        await flush();
        if (buffer.length > 0)
          log.error({ results: buffer.length }, 'health-check results not written: the database is away');
        try {
          await releaseCheckLeases(db, owner);
          await removeSharedRunner(db, owner);
        } catch (error) {
          log.error({ err: error }, 'could not give back the leases; they expire by themselves');
        }
      })()),
  };
}
