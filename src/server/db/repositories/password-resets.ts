import type { Db } from './workspaces.js';

export async function insertPasswordReset(
  db: Db,
  row: { key_hash: string; workspace_id: string; user_id: string; expires_at: string },
): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({ ...row, used_at: null })
    .execute();
}

/** Claims an unused, unexpired reset key; the user id it belongs to, or undefined. */
export async function claimPasswordReset(
  db: Db,
  keyHash: string,
  now: string,
): Promise<{ workspace_id: string; user_id: string } | undefined> {
  const row = await db
    .selectFrom('password_resets')
    .select(['workspace_id', 'user_id'])
    .where('key_hash', '=', keyHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  const result = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('key_hash', '=', keyHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? row : undefined;
}

/** Uses up every reset key of a user still open, so a reset leaves no older link working. */
export async function usePasswordResetsOf(db: Db, workspaceId: string, userId: string, now: string): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
