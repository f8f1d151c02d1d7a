import type { RunnerResultInput, RunnerResultsAccepted } from '../../../contract/clients.js';
import type { CheckRun } from '../../../domain/check-kinds.js';
import type { ServerContext } from '../../context.js';
import { healthCheckResultRow, insertHealthCheckResults } from '../../db/repositories/health.js';
import { findRunnerChecks } from '../../db/repositories/runners.js';
import type { HealthCheckResultsTable, RunnerRow } from '../../db/schema.js';
import { judgesSpec, recordDrift } from './api-drift.js';
import { updateFailingFromResults } from '../catalogue/service-health.js';

/**
 * Results a team runner sends (docs/api.md#api-clients-and-team-runners): written for the runner's own checks only
 * (others are dropped and named in the answer), then each check's failing state is derived again from its latest
 * results, which the database holds whatever order batches arrive in: a check fails once more than allowed_failures
 * runs in a row failed. A check that starts or stops failing moves its service's health (catalogue/service-health.ts).
 */
export async function recordRunnerResults(
  ctx: ServerContext,
  runner: RunnerRow,
  results: RunnerResultInput[],
): Promise<RunnerResultsAccepted> {
  const { db } = ctx.database;
  const ids = [...new Set(results.map((result) => result.check_id))];
  const checks = new Map(
    (await findRunnerChecks(db, runner.workspace_id, runner, ids)).map((check) => [check.id, check] as const),
  );
  const rows: HealthCheckResultsTable[] = [];
  const dropped = new Set<string>();
  const latest = new Map<string, CheckRun>();
  for (const result of results) {
    const check = checks.get(result.check_id);
    if (!check) {
      dropped.add(result.check_id);
      continue;
    }
    const run = checkRunOf(result);
    rows.push(healthCheckResultRow(check, run));
    // The newest failing run says with which severity the check fails now.
    const newest = latest.get(check.id);
    if (!newest || run.start >= newest.start) latest.set(check.id, run);
  }
  if (rows.length > 0) await db.transaction().execute((trx) => insertHealthCheckResults(trx, rows));
  // What checks made from a spec saw, oldest first, so the newest run decides (services/health/api-drift.ts).
  const runs = [...results].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  for (const result of runs) {
    const check = checks.get(result.check_id);
    if (check && judgesSpec(check)) await recordDrift(db, check, checkRunOf(result), { id: null, name: runner.name });
  }
  const now = ctx.now();
  for (const check of checks.values())
    await updateFailingFromResults(
      db,
      check,
      now,
      { id: null, name: runner.name },
      latest.get(check.id)?.severity ?? null,
    );
  return { accepted: rows.length, dropped: [...dropped] };
}

/** A runner's result as a run: an agent older than check kinds (issue 26) sends its error as text. */
function checkRunOf(result: RunnerResultInput): CheckRun {
  const { error, ...rest } = result;
  return {
    ...rest,
    start: Date.parse(result.start),
    ...(error === undefined
      ? {}
      : { error: typeof error === 'string' ? { class: 'protocol' as const, message: error } : error }),
  };
}
