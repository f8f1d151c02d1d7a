/** What the shared runner's units share about the checks this process holds (jobs/shared-runner.ts composes them). */
import type { FailingState } from '../../../domain/health.js';
import type { RunnableCheck, SeenValues } from '../../../runner/run-check.js';
import type { HealthCheckRow } from '../../db/schema.js';

/** A check as the scheduler runs it. */
export interface RunnerCheck {
  id: string;
  frequencySeconds: number;
  row: HealthCheckRow;
  /** What to probe and how to judge it; null for a heartbeat (its last ping is looked at instead). */
  runnable: RunnableCheck | null;
}

/** What the runner keeps per held check between runs: its failure counts and what it last saw. */
export interface CheckState extends FailingState {
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

/** The held checks' states by check id: the scheduling unit fills it, the recording unit moves it. */
export type CheckStates = Map<string, CheckState>;
