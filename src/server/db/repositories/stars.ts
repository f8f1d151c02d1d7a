import type { Db } from './workspaces.js';

/** Stars a service; false when it was starred already (the primary key makes a replay a no-op). */
export async function insertStar(
  db: Db,
  row: { workspace_id: string; user_id: string; service_id: string; created_at: string },
): Promise<boolean> {
  const result = await db
    .insertInto('stars')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'service_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Removes a star; false when there was none. */
export async function deleteStar(db: Db, workspaceId: string, userId: string, serviceId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('stars')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .where('service_id', '=', serviceId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** The ids of the services a user starred. */
export async function starredServiceIds(db: Db, workspaceId: string, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('stars')
    .select('service_id')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .execute();
  return rows.map((row) => row.service_id);
}
