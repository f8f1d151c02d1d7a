import type { ApiDriftTable } from '../schema.js';
import type { Db } from './workspaces.js';

/** API drift (docs/decisions.md#spec-checks): one row per operation of a spec page whose answers break it. */

/** The drift recorded for one operation of a service's spec page, if any. */
export function findOperationDrift(
  db: Db,
  serviceId: string,
  pageId: string | null,
  operationId: string | null,
): Promise<{ id: string; last_seen: string } | undefined> {
  return db
    .selectFrom('api_drift')
    .select(['id', 'last_seen'])
    .where('service_id', '=', serviceId)
    .where('page_id', '=', pageId)
    .where('operation_id', '=', operationId)
    .executeTakeFirst();
}

/** Moves a drift's last sighting forward (never back, whichever runner reports first). */
export async function touchDrift(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('api_drift').set({ last_seen: at }).where('id', '=', id).where('last_seen', '<', at).execute();
}

/** Deletes a drift; true when this call deleted it. */
export async function deleteDrift(db: Db, id: string): Promise<boolean> {
  const { numDeletedRows } = await db.deleteFrom('api_drift').where('id', '=', id).executeTakeFirst();
  return numDeletedRows > 0n;
}

/** Records a drift; true when this call recorded it (not when the operation's drift was there already). */
export async function insertDrift(db: Db, row: ApiDriftTable): Promise<boolean> {
  const inserted = await db
    .insertInto('api_drift')
    .values(row)
    .onConflict((oc) => oc.columns(['service_id', 'page_id', 'operation_id']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** A service's drift with its page's handle and its check's name, oldest first. */
export function listServiceDrift(db: Db, workspaceId: string, serviceId: string) {
  return db
    .selectFrom('api_drift')
    .innerJoin('pages', 'pages.id', 'api_drift.page_id')
    .leftJoin('health_checks', 'health_checks.id', 'api_drift.check_id')
    .select([
      'api_drift.operation_id',
      'api_drift.method',
      'api_drift.path',
      'api_drift.spec_version',
      'api_drift.since',
      'api_drift.last_seen',
      'api_drift.example',
      'pages.handle as page',
      'health_checks.id as check_id',
      'health_checks.name as check_name',
    ])
    .where('api_drift.workspace_id', '=', workspaceId)
    .where('api_drift.service_id', '=', serviceId)
    .orderBy('api_drift.since')
    .orderBy('api_drift.operation_id')
    .execute();
}

/** The drift of a spec page's operations. */
export function listPageDrift(db: Db, pageId: string): Promise<{ id: string; operation_id: string }[]> {
  return db.selectFrom('api_drift').select(['id', 'operation_id']).where('page_id', '=', pageId).execute();
}

export async function deleteDriftByIds(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('api_drift').where('id', 'in', ids).execute();
}

/** Deletes all drift of a spec page (unpublished or deleted). */
export async function deletePageDrift(db: Db, workspaceId: string, pageId: string): Promise<void> {
  await db.deleteFrom('api_drift').where('workspace_id', '=', workspaceId).where('page_id', '=', pageId).execute();
}
