import type { Db } from './workspaces.js';

export async function insertBetaKey(db: Db, key: string, email: string | null, now: string): Promise<void> {
  await db.insertInto('beta_keys').values({ key, email, created_at: now, used_at: null, workspace_id: null }).execute();
}

export function findBetaKey(db: Db, key: string) {
  return db.selectFrom('beta_keys').selectAll().where('key', '=', key).executeTakeFirst();
}

/** Marks a key used; false when another request used it first (single use, race-safe). */
export async function claimBetaKey(db: Db, key: string, workspaceId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('beta_keys')
    .set({ used_at: now, workspace_id: workspaceId })
    .where('key', '=', key)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countBetaKeys(db: Db): Promise<number> {
  const row = await db
    .selectFrom('beta_keys')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
