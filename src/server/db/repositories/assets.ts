import type { Db } from './workspaces.js';

export async function insertAsset(
  db: Db,
  row: { id: string; workspace_id: string; content_type: string; data: Buffer; created_at: string },
): Promise<void> {
  await db.insertInto('assets').values(row).execute();
}

export function findAsset(db: Db, workspaceId: string, id: string) {
  return db
    .selectFrom('assets')
    .select(['id', 'content_type', 'data'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteAsset(db: Db, workspaceId: string, id: string): Promise<void> {
  await db.deleteFrom('assets').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}
