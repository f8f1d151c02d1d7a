/**
 * How a service's health moves (DESIGN.md 5): manual changes, notices and checks all write it through
 * setServiceHealth, which logs the transition and emits an event in the caller's transaction.
 * recomputeServiceHealth derives it from the persisted signals: the importance of every failing check and the
 * health held by every open notice; with none, the service is good. updateCheckFailing is the one way a
 * runner (shared or team) moves a check's failing state.
 */
import type { Health } from '../../domain/catalogue.js';
import { worstHealth } from '../../domain/health.js';
import { recordEvent } from '../db/repositories/events.js';
import { listHealthSignals, recordHealthTransition, setCheckFailing } from '../db/repositories/health.js';
import { changeServiceHealth } from '../db/repositories/services.js';
import type { HealthCheckRow, HealthTransitionsTable } from '../db/schema.js';
import type { Db } from '../db/repositories/workspaces.js';

const HEALTH_CHANGED_EVENT = 'service.health_changed';

export interface HealthChange {
  workspaceId: string;
  serviceId: string;
  health: Health;
  at: Date;
  source: HealthTransitionsTable['source'];
  /** The user behind a manual or notice change; null for checks. */
  actorId: string | null;
  /** False when the caller records an event of its own that carries the change (a notice: DESIGN.md 4a). */
  announce?: boolean;
}

/** Sets the health if it differs; true when it changed (then logged and announced). */
export async function setServiceHealth(trx: Db, change: HealthChange): Promise<boolean> {
  const iso = change.at.toISOString();
  const changed = await changeServiceHealth(trx, change.workspaceId, change.serviceId, change.health, iso);
  if (!changed) return false;
  await recordHealthTransition(trx, {
    workspace_id: change.workspaceId,
    service_id: change.serviceId,
    at: change.at.getTime(),
    health: change.health,
    source: change.source,
  });
  if (change.announce === false) return true;
  await recordEvent(trx, {
    workspace_id: change.workspaceId,
    profile_type: 'service',
    profile_id: change.serviceId,
    type: HEALTH_CHANGED_EVENT,
    actor_id: change.actorId,
    data: { health: change.health, source: change.source },
    created_at: iso,
  });
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
  cause: Pick<HealthChange, 'source' | 'actorId' | 'announce'> = { source: 'check', actorId: null },
) {
  const run = async (trx: Db) => {
    const health = worstHealth(...(await listHealthSignals(trx, workspaceId, serviceId)));
    return setServiceHealth(trx, { workspaceId, serviceId, health, at: now, ...cause });
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/**
 * Persists whether a check is failing and, when that changed, lets its service take the health its signals now
 * call for, in one transaction. True when the check's state changed.
 */
export async function updateCheckFailing(
  db: Db,
  check: Pick<HealthCheckRow, 'id' | 'workspace_id' | 'service_id'>,
  failing: boolean,
  now: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const changed = await setCheckFailing(trx, check.workspace_id, check.id, failing);
    if (changed) await recomputeServiceHealth(trx, check.workspace_id, check.service_id, now);
    return changed;
  });
}
