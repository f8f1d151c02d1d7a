import type { Updateable } from 'kysely';
import type { HealthCheckRow, RunnerRow, RunnersTable } from '../schema.js';
import type { Db } from './workspaces.js';

export async function insertRunner(db: Db, row: RunnerRow): Promise<void> {
  await db.insertInto('runners').values(row).execute();
}

/** A team's runners by name. */
export function listTeamRunners(db: Db, workspaceId: string, teamId: string): Promise<RunnerRow[]> {
  return db
    .selectFrom('runners')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('team_id', '=', teamId)
    .orderBy('name')
    .orderBy('handle')
    .execute();
}

/** A runner by handle (unique in the workspace); its id is accepted too. */
export async function findRunner(db: Db, workspaceId: string, handleOrId: string): Promise<RunnerRow | undefined> {
  const ofWorkspace = db.selectFrom('runners').selectAll().where('workspace_id', '=', workspaceId);
  return (
    (await ofWorkspace.where('handle', '=', handleOrId).executeTakeFirst()) ??
    ofWorkspace.where('id', '=', handleOrId).executeTakeFirst()
  );
}

export type RunnerPatch = Omit<Updateable<RunnersTable>, 'id' | 'workspace_id' | 'team_id' | 'handle' | 'created_at'>;

export async function updateRunner(db: Db, workspaceId: string, id: string, patch: RunnerPatch): Promise<void> {
  await db.updateTable('runners').set(patch).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

export async function deleteRunner(db: Db, workspaceId: string, id: string): Promise<void> {
  await db.deleteFrom('runners').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/** Whether any health check names the runner (then it cannot be deleted). */
export async function runnerHasChecks(db: Db, workspaceId: string, handle: string): Promise<boolean> {
  const row = await db
    .selectFrom('health_checks')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('runner_id', '=', handle)
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * The checks a runner owns: those naming it, of services its team owns (a service moved to another team keeps
 * its checks, but they no longer go to the old team's runner).
 */
function checksOfRunner(db: Db, workspaceId: string, runner: RunnerRow) {
  return db
    .selectFrom('health_checks')
    .innerJoin('services', 'services.id', 'health_checks.service_id')
    .selectAll('health_checks')
    .where('health_checks.workspace_id', '=', workspaceId)
    .where('health_checks.runner_id', '=', runner.handle)
    .where('services.owner_team_id', '=', runner.team_id);
}

/** What a runner runs: its enabled, unpaused checks. */
export function listRunnerChecks(db: Db, workspaceId: string, runner: RunnerRow): Promise<HealthCheckRow[]> {
  return checksOfRunner(db, workspaceId, runner)
    .where('health_checks.disabled', '=', 0)
    .where('health_checks.paused', '=', 0)
    .orderBy('health_checks.id')
    .execute();
}

/** Of the given check ids, the runner's checks (paused or not). */
export function findRunnerChecks(db: Db, workspaceId: string, runner: RunnerRow, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([] as HealthCheckRow[]);
  return checksOfRunner(db, workspaceId, runner).where('health_checks.id', 'in', ids).execute();
}
