import type { Db } from './workspaces.js';

/** Returns the stored value, storing `fallback` first when the key is new (first writer wins). */
export async function getOrCreateSetting(db: Db, key: string, fallback: () => string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value: fallback() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}
