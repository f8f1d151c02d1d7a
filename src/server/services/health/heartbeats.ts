/**
 * Heartbeat checks (docs/decisions.md#checks): a job pings the check's secret URL; the shared runner looks at the last
 * ping on the check's schedule and records a failure while the job is late. A ping is a result of its own (a `fail`
 * ping, or a non-zero exit code, a failed one), and the check's failing state follows its stored results as a
 * team runner's does (catalogue/service-health.ts), whichever process took the ping.
 */
import type { CheckRun } from '../../../domain/check-kinds.js';
import { heartbeatVerdict } from '../../../domain/heartbeat.js';
import type { ServerContext } from '../../context.js';
import {
  findHealthCheck,
  findHeartbeatByPingToken,
  healthCheckResultRow,
  insertHealthCheckResults,
  updateHealthCheck,
} from '../../db/repositories/health.js';
import type { HealthCheckRow, WorkspaceRow } from '../../db/schema.js';
import type { Db } from '../../db/repositories/workspaces.js';
import { notFound } from '../../errors.js';
import { SHARED_RUNNER_AGENT } from '../accounts/agents.js';
import { updateFailingFromResults } from '../catalogue/service-health.js';
import { sha256 } from '../../crypto/secrets.js';

export type PingKind = 'success' | 'start' | 'fail';

/**
 * Stores a run of a heartbeat, with what `alongside` writes in the same transaction, and lets the check's failing
 * state follow its results.
 */
async function recordRun(
  ctx: ServerContext,
  check: HealthCheckRow,
  run: CheckRun,
  alongside?: (trx: Db) => Promise<void>,
): Promise<void> {
  const { db } = ctx.database;
  await db.transaction().execute(async (trx) => {
    await alongside?.(trx);
    await insertHealthCheckResults(trx, [healthCheckResultRow(check, run)]);
  });
  await updateFailingFromResults(db, check, ctx.now(), SHARED_RUNNER_AGENT, check.importance);
}

/**
 * A ping on the workspace of the request's host. An unknown token, or one of another workspace, is 404 and
 * nothing else is said. `start` is taken and changes nothing; a paused or disabled check keeps the ping's time
 * but records no result.
 */
export async function recordPing(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  token: string,
  kind: PingKind,
  exitCode: number | undefined,
): Promise<void> {
  const { db } = ctx.database;
  const found = await findHeartbeatByPingToken(db, workspace.id, sha256(token));
  if (!found) throw notFound();
  if (kind === 'start') return;
  const failed = kind === 'fail' || (exitCode !== undefined && exitCode !== 0);
  const now = ctx.now().getTime();
  const run: CheckRun = {
    start: now,
    time: 0,
    success: !failed,
    ...(failed
      ? {
          error: {
            class: 'assertion' as const,
            message:
              exitCode !== undefined && exitCode !== 0
                ? `The job reported a failure (exit code ${exitCode})`
                : 'The job reported a failure',
          },
          severity: found.importance,
        }
      : {}),
  };
  const keepTime = (trx: Db) =>
    updateHealthCheck(trx, workspace.id, found.id, {
      last_ping_at: now,
      last_ping_kind: failed ? 'fail' : 'success',
      last_ping_exit_code: exitCode ?? null,
    });
  if (found.disabled || found.paused) return keepTime(db);
  // The ping's time and its result in one transaction: one commit a ping, not two.
  await recordRun(ctx, found, run, keepTime);
}

/**
 * The shared runner's look at a heartbeat (its check row read afresh: pings arrive through any process): while
 * the job is late, a failed run (class timeout) saying since when; on time, nothing to record.
 */
export async function checkHeartbeat(ctx: ServerContext, workspaceId: string, checkId: string): Promise<void> {
  const check = await findHealthCheck(ctx.database.db, workspaceId, checkId);
  if (!check || check.kind !== 'heartbeat' || check.disabled || check.paused) return;
  const now = ctx.now().getTime();
  const verdict = heartbeatVerdict(
    {
      periodSeconds: check.frequency,
      graceSeconds: check.grace ?? 0,
      schedule: check.schedule,
      timeZone: check.time_zone,
      lastPingAt: check.last_ping_at === null ? null : Number(check.last_ping_at),
      lastPingKind: check.last_ping_kind,
      since: Date.parse(check.updated_at),
    },
    now,
  );
  if (verdict.state !== 'late') return;
  await recordRun(ctx, check, {
    start: now,
    time: 0,
    success: false,
    error: { class: 'timeout', message: verdict.message },
    severity: check.importance,
  });
}
