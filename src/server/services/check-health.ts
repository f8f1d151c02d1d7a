/**
 * How a service's health moves (DESIGN.md 5): manual changes, notices and checks all write it through
 * setServiceHealth, which logs the transition and emits an event in the caller's transaction.
 * recomputeServiceHealth derives it from the persisted signals: the importance of every failing check and the
 * health held by every open notice; with none, the service is good.
 */
import type { Health } from '../../domain/catalogue.js';
import { worstHealth } from '../../domain/health.js';
import { recordEvent } from '../db/repositories/events.js';
import { recordHealthTransition } from '../db/repositories/health.js';
import { changeServiceHealth } from '../db/repositories/services.js';
import type { HealthTransitionsTable } from '../db/schema.js';
import type { Db } from '../db/repositories/workspaces.js';

export const HEALTH_CHANGED_EVENT = 'service.health_changed';

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

/** The health the signals call for: the worst of the failing checks' importances and open notices' health. */
export async function derivedServiceHealth(db: Db, workspaceId: string, serviceId: string): Promise<Health> {
  const [checks, notices] = await Promise.all([
    db
      .selectFrom('health_checks')
      .select('importance')
      .where('workspace_id', '=', workspaceId)
      .where('service_id', '=', serviceId)
      .where('failing', '=', 1)
      .where('disabled', '=', 0)
      .where('paused', '=', 0)
      .execute(),
    db
      .selectFrom('notices')
      .select('health')
      .where('workspace_id', '=', workspaceId)
      .where('service_id', '=', serviceId)
      .where('open', '=', 1)
      .where('health', 'is not', null)
      .execute(),
  ]);
  return worstHealth(
    ...checks.map((check) => check.importance),
    ...notices.map((notice) => notice.health).filter((health): health is Health => health !== null),
  );
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
    const health = await derivedServiceHealth(trx, workspaceId, serviceId);
    return setServiceHealth(trx, { workspaceId, serviceId, health, at: now, ...cause });
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}
