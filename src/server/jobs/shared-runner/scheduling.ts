/**
 * A reload of the shared runner (jobs/shared-runner.ts): after leasing (leasing.ts), which rows to read, the state
 * of the checks new to this process (their failure counts continued from their latest results), each check made
 * runnable once per version of it, and the scheduler set to exactly the checks held.
 */
import { failingStateOf, outcomesToRead } from '../../../domain/health.js';
import { changedValues } from '../../../runner/assertions.js';
import { runnableCheck, type SeenValues } from '../../../runner/run-check.js';
import type { CheckScheduler } from '../../../runner/schedule.js';
import { chunks } from '../../db/repositories/chunks.js';
import { listLatestAssertions, listLatestOutcomes, listLeasedChecks } from '../../db/repositories/health.js';
import type { Db } from '../../db/repositories/workspaces.js';
import type { HealthCheckRow } from '../../db/schema.js';
import { checkAssertions, probeSpecOf } from '../../services/health/check-settings.js';
import { publishedSpecsOf, schemaValidator } from '../../services/health/spec-checks.js';
import type { PublishedSpec } from '../../services/health/spec-documents.js';
import type { CheckState, CheckStates, RunnerCheck } from './checks.js';

/** Checks whose latest outcomes are read together when a reload brings new ones. */
const OUTCOME_READS_AT_ONCE = 16;
/** How far before the previous reload a reload looks for saved checks: clocks of other processes, slow saves. */
const CHANGE_MARGIN_MS = 10_000;
/** A heartbeat is looked at this often at most, so a late job is seen within a minute whatever its period. */
const HEARTBEAT_LOOK_SECONDS = 60;

/** The state of a check new to this process, its failure counts continued from its latest outcomes. */
export function newCheckState(row: HealthCheckRow, outcomes: boolean[], seen: SeenValues): CheckState {
  return {
    workspaceId: row.workspace_id,
    serviceId: row.service_id,
    name: row.name,
    allowedFailures: row.allowed_failures,
    recoverAfter: row.recover_after,
    importance: row.importance,
    ...failingStateOf(outcomes, Boolean(row.failing), row.allowed_failures, row.recover_after),
    severity: row.failing_severity,
    seen,
    version: '',
  };
}

export interface Scheduling {
  /** Reads what changed among the held checks `ids` and sets the scheduler to them. */
  reload(ids: readonly string[], startedAt: number): Promise<void>;
}

export interface SchedulingDeps {
  db: Db;
  owner: string;
  states: CheckStates;
  scheduler: CheckScheduler<RunnerCheck>;
  /** A check new to this process whose stored failing disagrees with its latest results: written right away. */
  persistFailing(checkId: string, state: CheckState): void;
  /** Failing states the database was away for: written again once the held checks are read. */
  persistUnwritten(): void;
}

export function createScheduling({
  db,
  owner,
  states,
  scheduler,
  persistFailing,
  persistUnwritten,
}: SchedulingDeps): Scheduling {
  let previousReload: number | null = null;

  /**
   * The rows a reload needs: every held check the first time, then only those new to this process and those
   * saved since shortly before the previous reload (the margin covers another process's clock and a save that
   * landed while that reload ran), so a process holding 100,000 checks does not read them all every few seconds.
   */
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

  /**
   * Checks new to this process continue their failure counts (and `changed` values) from their latest results:
   * read a few at a time (one process may take over 100,000 checks at once; PostgreSQL answers these over its
   * pool in parallel).
   */
  const latestOf = async (fresh: HealthCheckRow[]) => {
    const latest = new Map<string, { outcomes: boolean[]; seen: SeenValues }>();
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
    return latest;
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

  return {
    async reload(ids, startedAt) {
      const rows = await rowsToRead(ids, startedAt);
      const latest = await latestOf(rows.filter((row) => !states.has(row.id)));
      const specs = await publishedSpecsOf(
        db,
        null,
        rows.filter((row) => row.spec_page_id && states.get(row.id)?.version !== row.updated_at),
      );
      const read = new Map<string, RunnerCheck>();
      for (const row of rows) {
        let state = states.get(row.id);
        if (!state) {
          const { outcomes = [], seen = {} } = latest.get(row.id) ?? {};
          state = newCheckState(row, outcomes, seen);
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
      persistUnwritten();
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
    },
  };
}
