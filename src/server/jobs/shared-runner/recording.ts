/**
 * What a run of a held check leaves behind (jobs/shared-runner.ts): its result in the buffer (flushing.ts), its
 * failure counts moved, and when the check starts or stops failing (or fails at another severity) the service's
 * health (services/catalogue/service-health.ts); a check made from a spec also records what the run says about the
 * spec (services/health/api-drift.ts). Health changes and drift go one at a time on one chain, so two checks of a
 * service flipping together cannot interleave.
 */
import type { Logger } from 'pino';
import { afterRun } from '../../../domain/health.js';
import type { RunOutcome } from '../../../runner/run-check.js';
import { isDatabaseUnavailable } from '../../db/connect.js';
import { healthCheckResultRow } from '../../db/repositories/health.js';
import type { Db } from '../../db/repositories/workspaces.js';
import type { HealthCheckRow } from '../../db/schema.js';
import { SHARED_RUNNER_AGENT } from '../../services/accounts/agents.js';
import { updateCheckFailing } from '../../services/catalogue/service-health.js';
import { judgesSpec, recordDrift } from '../../services/health/api-drift.js';
import type { CheckState, CheckStates } from './checks.js';
import type { ResultBuffer } from './flushing.js';
import type { Outage } from './outage.js';

/**
 * Moves a check's state by one run: its `changed` values, failure counts and, on a failure, the severity it fails
 * with. True when the service's health must hear of it (failing flipped, or failing at another severity).
 */
export function applyRun(state: CheckState, outcome: RunOutcome): boolean {
  const { run } = outcome;
  state.seen = outcome.seen;
  const before = { failing: state.failing, severity: state.severity };
  Object.assign(state, afterRun(state, run.success, state.allowedFailures, state.recoverAfter));
  if (!run.success) state.severity = run.severity ?? state.importance;
  return state.failing !== before.failing || (state.failing && state.severity !== before.severity);
}

export interface Recorder {
  /** Records a run's outcome (null: a heartbeat looked at, which records its own runs). */
  record(check: HealthCheckRow, outcome: RunOutcome | null): void;
  /** Writes the check's failing state and moves its service's health, after the health changes before it. */
  persistFailing(checkId: string, state: CheckState): void;
  /** Writes again the failing states that could not be written while the database was away (at a reload). */
  persistUnwritten(): void;
  /** Resolves once the health changes queued so far are done. */
  settled(): Promise<void>;
}

export interface RecorderDeps {
  db: Db;
  now: () => Date;
  log: Logger;
  states: CheckStates;
  results: ResultBuffer;
  outage: Pick<Outage, 'pause'>;
}

export function createRecorder({ db, now, log, states, results, outage }: RecorderDeps): Recorder {
  let healthChain: Promise<void> = Promise.resolve();
  /** Checks whose failing state could not be written (the database was away): written at the next reload. */
  const unwritten = new Set<string>();

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
      await results.flush();
      await updateCheckFailing(db, check, failing, now(), SHARED_RUNNER_AGENT, failing ? severity : null);
    };
    healthChain = healthChain.then(run).catch((error: unknown) => {
      // Unreachable: the next reload that succeeds writes it again.
      if (isDatabaseUnavailable(error)) {
        unwritten.add(checkId);
        outage.pause(error);
      } else log.error({ err: error, checkId }, 'could not change service health');
    });
  };

  const recordSpecDrift = (check: HealthCheckRow, run: RunOutcome['run']) => {
    healthChain = healthChain
      .then(() => recordDrift(db, check, run, SHARED_RUNNER_AGENT))
      .catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) outage.pause(error);
        else log.error({ err: error, checkId: check.id }, 'could not record API drift');
      });
  };

  return {
    record(check, outcome) {
      if (!outcome) return;
      results.push(healthCheckResultRow(check, outcome.run));
      const state = states.get(check.id);
      if (!state) return; // removed while it ran
      if (judgesSpec(check)) recordSpecDrift(check, outcome.run);
      if (applyRun(state, outcome)) persistFailing(check.id, state);
    },
    persistFailing,
    persistUnwritten() {
      for (const id of unwritten) {
        const state = states.get(id);
        if (state) persistFailing(id, state);
      }
      unwritten.clear();
    },
    settled: () => healthChain,
  };
}
