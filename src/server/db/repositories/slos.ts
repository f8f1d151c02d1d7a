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

/** True when there was one to delete. */
export async function deleteSlo(db: Db, workspaceId: string, serviceId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('service_slos')
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
