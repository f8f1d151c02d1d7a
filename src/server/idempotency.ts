/**
 * Replayable writes (docs/api.md#conventions, the IETF Idempotency-Key header draft): the first answer of a write per
 * caller and key is kept in the database for 24 hours, whichever process answered it, and a replay of the same request
 * gets that answer again without running the write; the same key with another request is 422, and a replay while
 * the first is still running is 409. Answers our side failed to give (5xx, the database away) are not kept, so
 * the retry runs the write.
 */
import type { ServerContext } from './context.js';
import {
  claimIdempotencyKey,
  findIdempotencyKey,
  keepIdempotentAnswer,
  releaseIdempotencyKey,
  type KeyOf,
} from './db/repositories/idempotency-keys.js';
import { errorBodyOf, HttpError } from './errors.js';
import type { Caller } from './services/accounts/auth.js';
import { sha256 } from './crypto/secrets.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** A key claimed by a request that never finished (its process died mid-write) is free again after this. */
const ABANDONED_MS = 60_000;

export interface KeptAnswer {
  status: number;
  /** The JSON body as sent; empty for 204. */
  body: string;
}

/** What identifies a request beside its key: method, path with query, and the validated body. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return sha256(`${method} ${url}\n${JSON.stringify(body ?? null)}`);
}

const callerOf = (caller: Caller) => (caller.client ? `client:${caller.client.id}` : `user:${caller.user.id}`);

/** Client errors are the write's answer too (a stale lock stays a 412 on replay); throttling is not. */
const keepsError = (error: unknown): error is HttpError =>
  error instanceof HttpError && error.statusCode < 500 && error.statusCode !== 429;

/**
 * Runs `write` once per caller and key: answers its result (or its client error), or the answer kept from the
 * first time with `replayed`.
 */
export async function answerOnce(
  ctx: ServerContext,
  caller: Caller,
  key: string,
  fingerprint: string,
  write: () => Promise<KeptAnswer>,
): Promise<KeptAnswer & { replayed: boolean }> {
  const { db } = ctx.database;
  const id: KeyOf = { workspace_id: caller.workspace.id, caller: callerOf(caller), key };
  let claimed = false;
  for (let attempt = 0; attempt < 3 && !claimed; attempt++) {
    const now = ctx.now().getTime();
    claimed = await claimIdempotencyKey(
      db,
      { ...id, fingerprint, created_at: new Date(now).toISOString() },
      new Date(now - IDEMPOTENCY_TTL_MS).toISOString(),
    );
    if (claimed) break;
    const kept = await findIdempotencyKey(db, id);
    if (!kept) continue; // Pruned or released meanwhile: claim again.
    if (kept.fingerprint !== fingerprint)
      throw new HttpError(422, 'This Idempotency-Key was already used for another request', {
        'idempotency-key': ['Already used for another request'],
      });
    if (kept.status !== null) return { status: kept.status, body: kept.body ?? '', replayed: true };
    if (Date.parse(kept.created_at) >= now - ABANDONED_MS) break;
    await releaseIdempotencyKey(db, id);
  }
  if (!claimed)
    throw new HttpError(409, 'A request with this Idempotency-Key is still being processed; try again shortly');
  let answer: KeptAnswer;
  try {
    answer = await write();
  } catch (error) {
    if (!keepsError(error)) {
      await releaseIdempotencyKey(db, id).catch(() => {});
      throw error;
    }
    answer = { status: error.statusCode, body: JSON.stringify(errorBodyOf(error)) };
  }
  await keepIdempotentAnswer(db, id, answer);
  return { ...answer, replayed: false };
}
