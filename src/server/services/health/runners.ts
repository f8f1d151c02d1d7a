import { randomUUID } from 'node:crypto';
import type {
  Runner,
  RunnerCreate,
  RunnerResults,
  RunnerResultsAccepted,
  RunnerSync,
  RunnerSyncRequest,
  RunnerUpdate,
} from '../../../contract/clients.js';
import { canAdminTeam } from '../../../domain/catalogue.js';
import { isoNow, type ServerContext } from '../../context.js';
import {
  deleteRunner as deleteRunnerRow,
  findRunner,
  insertRunner,
  listRunnerChecks,
  listTeamRunners,
  runnerHasChecks,
  updateRunner as updateRunnerRow,
} from '../../db/repositories/runners.js';
import type { RunnerRow } from '../../db/schema.js';
import { badRequest, conflict, fieldError, forbidden, notFound } from '../../errors.js';
import type { Caller } from '../accounts/auth.js';
import { checkAssertions } from './check-settings.js';
import { publishedSpecsOf, runnerSpecOf } from './spec-checks.js';
import { chooseHandle, withFreeHandle } from '../catalogue/handles.js';
import { recordRunnerResults } from './runner-results.js';
import { findTeamOr404 } from '../catalogue/teams.js';
import { viewerOf } from '../../cache/viewer.js';

/**
 * Team runners (spec/catalogue.md sections 2.3, 3 and 7; docs/api.md#api-clients-and-team-runners): `beacon runner`
 * agents that probe the health checks naming them, inside their team's network. Every member may list a team's runners
 * (the health check dialog offers them); team admins manage them, and so does an API client of the team with
 * beacon.runner.manage. Only the team's own clients (or its admins) may drive a runner: sync it, send results.
 */
const RUNNER_NOT_FOUND = 'The runner was not found';
const RUNNER_LINKED = 'Runner is currently linked to a healthcheck';

function toRunner(row: RunnerRow, team: { id: string; handle: string }): Runner {
  return {
    id: row.id,
    handle: row.handle,
    name: row.name,
    description: row.description,
    sync_status: row.sync_status,
    last_sync: row.last_sync,
    team: { id: team.id, handle: team.handle },
  };
}

/** Team admins (workspace admins and owners included), and API clients of the team itself. */
async function canManageRunners(ctx: ServerContext, caller: Caller, teamId: string): Promise<boolean> {
  if (caller.client) return caller.client.teamId === teamId;
  return canAdminTeam(await viewerOf(ctx, caller), teamId);
}

async function managedTeam(ctx: ServerContext, caller: Caller, teamIdOrHandle: string) {
  const team = await findTeamOr404(ctx, caller.workspace.id, teamIdOrHandle);
  if (!(await canManageRunners(ctx, caller, team.id))) throw forbidden('Only team admins can manage its runners');
  return team;
}

export async function listRunners(ctx: ServerContext, caller: Caller, teamIdOrHandle: string): Promise<Runner[]> {
  const team = await findTeamOr404(ctx, caller.workspace.id, teamIdOrHandle);
  const rows = await listTeamRunners(ctx.database.db, caller.workspace.id, team.id);
  return rows.map((row) => toRunner(row, team));
}

async function runnerOfTeam(ctx: ServerContext, workspaceId: string, team: { id: string }, handle: string) {
  const row = await findRunner(ctx.database.db, workspaceId, handle);
  if (!row || row.team_id !== team.id) throw notFound(RUNNER_NOT_FOUND);
  return row;
}

export async function getRunner(ctx: ServerContext, caller: Caller, teamIdOrHandle: string, handle: string) {
  const team = await findTeamOr404(ctx, caller.workspace.id, teamIdOrHandle);
  return toRunner(await runnerOfTeam(ctx, caller.workspace.id, team, handle), team);
}

export async function createRunner(
  ctx: ServerContext,
  caller: Caller,
  teamIdOrHandle: string,
  input: RunnerCreate,
): Promise<Runner> {
  const team = await managedTeam(ctx, caller, teamIdOrHandle);
  const { db } = ctx.database;
  const workspaceId = caller.workspace.id;
  const taken = async (handle: string) => Boolean(await findRunner(db, workspaceId, handle));
  const handle = await chooseHandle(input, 'runner', taken);
  const now = isoNow(ctx);
  const row: RunnerRow = {
    id: randomUUID(),
    workspace_id: workspaceId,
    team_id: team.id,
    handle,
    name: input.name,
    description: input.description,
    sync_status: 'never',
    sync_error: null,
    last_sync: null,
    created_at: now,
    updated_at: now,
  };
  await withFreeHandle(
    () => taken(handle),
    () => insertRunner(db, row),
  );
  return toRunner(row, team);
}

export async function updateRunner(
  ctx: ServerContext,
  caller: Caller,
  teamIdOrHandle: string,
  handle: string,
  input: RunnerUpdate,
): Promise<Runner> {
  const team = await managedTeam(ctx, caller, teamIdOrHandle);
  const row = await runnerOfTeam(ctx, caller.workspace.id, team, handle);
  const patch = { name: input.name, description: input.description, updated_at: isoNow(ctx) };
  await updateRunnerRow(ctx.database.db, caller.workspace.id, row.id, patch);
  return toRunner({ ...row, ...patch }, team);
}

/** Spec 3: a runner a health check names cannot be deleted (409 with the spec's text). */
export async function deleteRunner(ctx: ServerContext, caller: Caller, teamIdOrHandle: string, handle: string) {
  const team = await managedTeam(ctx, caller, teamIdOrHandle);
  const row = await runnerOfTeam(ctx, caller.workspace.id, team, handle);
  const { db } = ctx.database;
  await db.transaction().execute(async (trx) => {
    if (await runnerHasChecks(trx, caller.workspace.id, row.handle)) throw conflict(RUNNER_LINKED);
    await deleteRunnerRow(trx, caller.workspace.id, row.id);
  });
}

/** For health checks: the runner named must be one of the owning team's (400 on `runner` otherwise). */
export async function requireTeamRunner(
  ctx: ServerContext,
  workspaceId: string,
  teamId: string,
  handle: string,
): Promise<void> {
  const row = await findRunner(ctx.database.db, workspaceId, handle);
  if (!row || row.handle !== handle || row.team_id !== teamId) {
    throw badRequest('The runner is not one of the owning team’s runners', fieldError('runner', 'Unknown runner'));
  }
}

/** The runner named in an agent's path, if the caller may drive it (404 if missing, 403 if not its team's). */
async function drivenRunner(ctx: ServerContext, caller: Caller, handle: string): Promise<RunnerRow> {
  const row = await findRunner(ctx.database.db, caller.workspace.id, handle);
  if (!row) throw notFound(RUNNER_NOT_FOUND);
  if (!(await canManageRunners(ctx, caller, row.team_id))) {
    throw forbidden('Only the team’s own clients can drive its runners');
  }
  return row;
}

/**
 * The agent's sync: the checks it should run now, and the runner's status (ok, or error with what the agent
 * reported) with the time.
 */
export async function syncRunner(
  ctx: ServerContext,
  caller: Caller,
  handle: string,
  report: RunnerSyncRequest | undefined,
): Promise<RunnerSync> {
  const row = await drivenRunner(ctx, caller, handle);
  const { db } = ctx.database;
  const error = report?.error?.trim() || null;
  const now = isoNow(ctx);
  await updateRunnerRow(db, caller.workspace.id, row.id, {
    last_sync: now,
    sync_status: error ? 'error' : 'ok',
    sync_error: error,
  });
  const checks = await listRunnerChecks(db, caller.workspace.id, row);
  const specs = await publishedSpecsOf(db, caller.workspace.id, checks);
  return {
    runner: { handle: row.handle, name: row.name },
    // Heartbeats are pinged, never probed: a runner has nothing to run for them.
    checks: checks
      .filter((check) => check.kind !== 'heartbeat')
      .map((check) => ({
        id: check.id,
        name: check.name,
        kind: check.kind,
        endpoint: check.endpoint,
        frequency: check.frequency,
        timeout: check.timeout,
        importance: check.importance,
        request: check.request ? (JSON.parse(check.request) as RunnerSync['checks'][number]['request']) : null,
        starttls: check.starttls,
        record: check.record,
        assertions: checkAssertions(check),
        retries: check.retries,
        spec: runnerSpecOf(check, specs),
      })),
  };
}

/** Results may start at most this far ahead of the server's clock (the agent's clock may be a little off). */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

export async function postRunnerResults(
  ctx: ServerContext,
  caller: Caller,
  handle: string,
  input: RunnerResults,
): Promise<RunnerResultsAccepted> {
  const row = await drivenRunner(ctx, caller, handle);
  const latest = ctx.now().getTime() + MAX_CLOCK_SKEW_MS;
  const errors: Record<string, string[]> = {};
  input.results.forEach((result, index) => {
    if (Date.parse(result.start) > latest) errors[`results.${index}.start`] = ['Must not be in the future'];
  });
  if (Object.keys(errors).length > 0) throw badRequest('Results must not start in the future', errors);
  return recordRunnerResults(ctx, row, input.results);
}
