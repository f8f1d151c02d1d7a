import type { Db } from './workspaces.js';

export async function recordLoginFailure(db: Db, workspaceId: string, address: string, at: string): Promise<void> {
  await db.insertInto('login_failures').values({ workspace_id: workspaceId, address, at }).execute();
}

/** Failures for one workspace and address since `since`, with the oldest one (for Retry-After). */
export async function loginFailuresSince(db: Db, workspaceId: string, address: string, since: string) {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min('at').as('oldest')])
    .where('workspace_id', '=', workspaceId)
    .where('address', '=', address)
    .where('at', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: row.oldest as string | null };
}

export async function pruneLoginFailures(db: Db, before: string): Promise<void> {
  await db.deleteFrom('login_failures').where('at', '<=', before).execute();
}
