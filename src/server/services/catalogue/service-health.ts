/**
 * How a service's health moves (docs/decisions.md#health-maths): manual changes, notices and checks all write it
 * through setServiceHealth, which logs the transition and emits an event in the caller's transaction.
 * recomputeServiceHealth derives it from the persisted signals: the importance of every failing check and the
 * health held by every open notice; with none, the service is good. updateCheckFailing is the one way a
 * runner (shared or team) moves a check's failing state.
 */
import type { Health } from '../../../domain/catalogue.js';
import { failingStateOf, outcomesToRead, worstHealth } from '../../../domain/health.js';
import { followHealth } from '../alerting/lifecycle.js';
import { recordEvent } from '../events/record-event.js';
import {
  listHealthSignals,
  listLatestOutcomes,
  recordHealthTransition,
  setCheckFailing,
} from '../../db/repositories/health.js';
import { changeServiceHealth, currentServiceHealth } from '../../db/repositories/services.js';
import type { HealthCheckRow, HealthTransitionsTable } from '../../db/schema.js';
import type { Db } from '../../db/repositories/workspaces.js';
import { agentColumns, SHARED_RUNNER_AGENT, type Agent } from '../accounts/agents.js';

export interface HealthChange {
  workspaceId: string;
  serviceId: string;
  health: Health;
  at: Date;
  source: HealthTransitionsTable['source'];
  /** Who caused it: the user behind a manual or notice change, the runner of a check. */
  agent: Agent;
  /**
   * False when the caller records an event of its own that carries the change (a notice:
   * docs/decisions.md#api-conventions).
   */
  announce?: boolean;
}

/** Sets the health if it differs; true when it changed (then logged and announced). */
export async function setServiceHealth(trx: Db, change: HealthChange): Promise<boolean> {
  const iso = change.at.toISOString();
  // Locks the service's row (PostgreSQL) until the commit: the health read here is the one that changes.
  const from = await currentServiceHealth(trx, change.workspaceId, change.serviceId);
  if (from === undefined || from === change.health) return false;
  await recordHealthTransition(trx, {
    workspace_id: change.workspaceId,
    service_id: change.serviceId,
    at: change.at.getTime(),
    health: change.health,
    source: change.source,
  });
  await followHealth(trx, {
    workspaceId: change.workspaceId,
    serviceId: change.serviceId,
    from,
    to: change.health,
    at: change.at,
  });
  if (change.announce !== false)
    await recordEvent(trx, {
      workspace_id: change.workspaceId,
      profile_type: 'service',
      profile_id: change.serviceId,
      type: 'service.health_changed',
      ...agentColumns(change.agent),
      data: { health: change.health, from, source: change.source },
      created_at: iso,
    });
  // Last, so the lock it takes is held only to the commit: its triggers bump the workspace's catalogue and graph
  // versions (migrations 012, 021), one row that every write to the workspace's services waits on
  // (docs/decisions.md#health-maths).
  await changeServiceHealth(trx, change.workspaceId, change.serviceId, change.health, iso);
  return true;
}

/**
 * After a check started or stopped failing (or was paused, disabled or deleted while failing): the service takes
 * the derived health, in one transaction. True when it changed.
 */
export async function recomputeServiceHealth(
  db: Db,
  workspaceId: string,
  serviceId: string,
  now: Date,
  cause: Pick<HealthChange, 'source' | 'agent' | 'announce'> = { source: 'check', agent: SHARED_RUNNER_AGENT },
) {
  const run = async (trx: Db) => {
    const health = worstHealth(...(await listHealthSignals(trx, workspaceId, serviceId)));
    return setServiceHealth(trx, { workspaceId, serviceId, health, at: now, ...cause });
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/**
 * Persists whether a check is failing (and the severity it fails with: docs/decisions.md#checks) and, when that
 * changed, lets its service take the health its signals now call for, in one transaction. A change of failing writes
 * the event; a change of severity alone only moves the health. True when the check's failing state changed.
 */
export async function updateCheckFailing(
  db: Db,
  check: Pick<HealthCheckRow, 'id' | 'workspace_id' | 'service_id' | 'name' | 'importance'>,
  failing: boolean,
  now: Date,
  agent: Agent = SHARED_RUNNER_AGENT,
  severity: HealthCheckRow['failing_severity'] = null,
): Promise<boolean> {
  // Kept only when an assertion's own severity differs from the importance: otherwise the check fails with its
  // importance, whatever it is changed to later (listHealthSignals).
  const own = failing && severity && severity !== check.importance ? severity : null;
  return db.transaction().execute(async (trx) => {
    const { failingChanged, severityChanged } = await setCheckFailing(trx, check.workspace_id, check.id, failing, own);
    if (!failingChanged && !severityChanged) return false;
    if (failingChanged)
      await recordEvent(trx, {
        workspace_id: check.workspace_id,
        profile_type: 'service',
        profile_id: check.service_id,
        type: failing ? 'check.failing' : 'check.recovered',
        ...agentColumns(agent),
        data: { check: check.id, name: check.name },
        created_at: now.toISOString(),
      });
    await recomputeServiceHealth(trx, check.workspace_id, check.service_id, now, { source: 'check', agent });
    return failingChanged;
  });
}

/**
 * Derives the check's failing state from its latest stored results (team runners' batches arrive in any order,
 * heartbeats are pinged through any process): more than allowed_failures failures in a row fail it, recover_after
 * successes in a row make it good again. A change moves the service's health.
 */
export async function updateFailingFromResults(
  db: Db,
  check: HealthCheckRow,
  now: Date,
  agent: Agent,
  severity: HealthCheckRow['failing_severity'],
): Promise<void> {
  const outcomes = await listLatestOutcomes(db, check.id, outcomesToRead(check.allowed_failures, check.recover_after));
  const { failing } = failingStateOf(outcomes, Boolean(check.failing), check.allowed_failures, check.recover_after);
  await updateCheckFailing(db, check, failing, now, agent, severity);
}
