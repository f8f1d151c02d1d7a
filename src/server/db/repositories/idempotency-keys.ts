import type { Selectable } from 'kysely';
import type { IdempotencyKeysTable } from '../schema.js';
import type { Db } from './workspaces.js';

export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;
export type KeyOf = Pick<IdempotencyKeyRow, 'workspace_id' | 'caller' | 'key'>;

/**
 * Claims a key for a request about to run: true when this call took it, false when a row was there already.
 * Rows created before `expired` are pruned first (nothing else deletes them), so a key can be used again after.
 */
export async function claimIdempotencyKey(
  db: Db,
  row: KeyOf & Pick<IdempotencyKeyRow, 'fingerprint' | 'created_at'>,
  expired: string,
): Promise<boolean> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<', expired).execute();
  const result = await db
    .insertInto('idempotency_keys')
    .values({ ...row, status: null, body: null })
    .onConflict((oc) => oc.columns(['workspace_id', 'caller', 'key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export function findIdempotencyKey(db: Db, id: KeyOf): Promise<IdempotencyKeyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('workspace_id', '=', id.workspace_id)
    .where('caller', '=', id.caller)
    .where('key', '=', id.key)
    .executeTakeFirst();
}

/** Keeps the first answer of the request that claimed the key. */
export async function keepIdempotentAnswer(db: Db, id: KeyOf, answer: { status: number; body: string }) {
  await db
    .updateTable('idempotency_keys')
    .set(answer)
    .where('workspace_id', '=', id.workspace_id)
    .where('caller', '=', id.caller)
    .where('key', '=', id.key)
    .execute();
}

/** Frees a key whose request failed on our side (5xx, the database away), so a retry runs it again. */
export async function releaseIdempotencyKey(db: Db, id: KeyOf): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('workspace_id', '=', id.workspace_id)
    .where('caller', '=', id.caller)
    .where('key', '=', id.key)
    .execute();
}
