import { consecutiveFailures, isCheckFailing } from '../../domain/health.js';
import type { RunnerResultInput, RunnerResultsAccepted } from '../../contract/clients.js';
import type { ServerContext } from '../context.js';
import { healthCheckResultRow, insertHealthCheckResults, listLatestOutcomes } from '../db/repositories/health.js';
import { findRunnerChecks } from '../db/repositories/runners.js';
import type { HealthCheckResultsTable, HealthCheckRow, RunnerRow } from '../db/schema.js';
import type { Agent } from './agents.js';
import { updateCheckFailing } from './check-health.js';

/**
 * Results a team runner sends (DESIGN.md 5): written for the runner's own checks only (others are dropped and
 * named in the answer), then each check's failing state is derived again from its latest results, which the
 * database holds whatever order batches arrive in: a check fails once more than allowed_failures runs in a row
 * failed. A check that starts or stops failing moves its service's health (check-health.ts).
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
  for (const result of results) {
    const check = checks.get(result.check_id);
    if (!check) {
      dropped.add(result.check_id);
      continue;
    }
    rows.push(healthCheckResultRow(check, { ...result, start: Date.parse(result.start) }));
  }
  if (rows.length > 0) await db.transaction().execute((trx) => insertHealthCheckResults(trx, rows));
  const now = ctx.now();
  for (const check of checks.values()) await updateFailing(ctx, check, now, { id: null, name: runner.name });
  return { accepted: rows.length, dropped: [...dropped] };
}

/** Derives the check's failing state from its latest results; a change moves the service's health. */
async function updateFailing(ctx: ServerContext, check: HealthCheckRow, now: Date, agent: Agent): Promise<void> {
  const outcomes = await listLatestOutcomes(ctx.database.db, check.id, check.allowed_failures + 1);
  const failing = isCheckFailing(consecutiveFailures(outcomes), check.allowed_failures);
  await updateCheckFailing(ctx.database.db, check, failing, now, agent);
}
