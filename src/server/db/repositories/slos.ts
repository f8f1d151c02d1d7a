import type { ServiceSloRow, ServiceSlosTable } from '../schema.js';
import type { Db } from './workspaces.js';

export async function findSlo(db: Db, workspaceId: string, serviceId: string): Promise<ServiceSloRow | undefined> {
  return db
    .selectFrom('service_slos')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId)
    .executeTakeFirst();
}

/** Sets a service's SLO; a changed target or window starts its alerts afresh. */
export async function upsertSlo(
  db: Db,
  row: Pick<ServiceSlosTable, 'service_id' | 'workspace_id' | 'target_thousandths' | 'window_days'> & { at: string },
): Promise<void> {
  const { at, ...slo } = row;
  const values = { ...slo, fast_firing: 0, slow_firing: 0, created_at: at, updated_at: at };
  await db
    .insertInto('service_slos')
    .values(values)
    .onConflict((oc) =>
      oc.column('service_id').doUpdateSet({
        target_thousandths: slo.target_thousandths,
        window_days: slo.window_days,
        fast_firing: 0,
        slow_firing: 0,
        updated_at: at,
      }),
    )
    .execute();
}

/**
 * The SLOs whose service could be burning (jobs/slo-alerts.ts): an alert firing, a problem now, or a transition
 * of the service after `since` (the alerts' longest window), across workspaces, with the service's creation.
 */
export function listSlosThatMayBurn(db: Db, since: number) {
  return db
    .selectFrom('service_slos as slo')
    .innerJoin('services as service', 'service.id', 'slo.service_id')
    .select([
      'slo.service_id',
      'slo.workspace_id',
      'slo.target_thousandths',
      'slo.window_days',
      'slo.fast_firing',
      'slo.slow_firing',
      'service.created_at',
    ])
    .where((eb) =>
      eb.or([
        eb('slo.fast_firing', '=', 1),
        eb('slo.slow_firing', '=', 1),
        eb('service.health', 'not in', ['good', 'maintenance']),
        eb.exists(
          eb
            .selectFrom('health_transitions as t')
            .select('t.at')
            .whereRef('t.workspace_id', '=', 'slo.workspace_id')
            .whereRef('t.service_id', '=', 'slo.service_id')
            .where('t.at', '>', since),
        ),
      ]),
    )
    .execute();
}

/**
 * Sets an alert's firing flag only while it is still `was`; true when this call moved it (of several processes
 * sweeping, one does, and it announces the alert).
 */
export async function moveSloFiring(
  db: Db,
  serviceId: string,
  flag: 'fast_firing' | 'slow_firing',
  was: boolean,
  firing: boolean,
): Promise<boolean> {
  const moved = await db
    .updateTable('service_slos')
    .set({ [flag]: firing ? 1 : 0 })
    .where('service_id', '=', serviceId)
    .where(flag, '=', was ? 1 : 0)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) > 0;
}

/** True when there was one to delete. */
export async function deleteSlo(db: Db, workspaceId: string, serviceId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('service_slos')
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
