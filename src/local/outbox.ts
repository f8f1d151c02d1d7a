/**
 * The one write path of the app (docs/decisions.md#offline). `mutate()` applies a change to the local database
 * and appends the request that makes it on the server to the outbox, in one Dexie transaction: either both
 * happen or neither. `replay()` sends the outbox in order, each entry with its own Idempotency-Key, so a
 * write that reached the server before the answer was lost is applied once (docs/decisions.md#api-conventions).
 *
 * What an answer does to an entry (see {@link outcomeOf}):
 * - 2xx: done, the entry is deleted.
 * - `send` throws (offline, DNS, CORS, aborted): the replay stops; the entry stays pending, first in line.
 * - 5xx, 408, 429, 401 and status 0: the server or the session cannot take it now; the replay stops and the
 *   entry stays pending (attempts counted) for the next run. A 401 means the session is gone even after the
 *   client's token refresh: the write waits for the user to log in again instead of being dropped.
 * - an answer the sender marks `done` (a refusal the write's kind reads as "already so"): done, deleted.
 * - any other status (400, 403, 404, 409, 412, 422, ...): retrying will not help; the entry is marked
 *   `failed` with the status and message, kept for the user (retry or discard), and the replay goes on with
 *   the next entry. A 412 leaves the local draft as it is: it is the conflict the user settles.
 */
import type { TXWithTables } from 'dexie';
import type { LocalDb, LocalTableName, OutboxEntry } from './db.js';

/** The write an entry makes on the server: its kind, the contract operation's id and its input. */
export interface OutboxWrite {
  kind: string;
  operation: string;
  /** The operation's params, query and body; stored in IndexedDB, so it must be structured-cloneable. */
  input: unknown;
  /** What the optimistic view needs besides the input (see OutboxEntry.view). */
  view?: unknown;
}

/** The transaction `apply` runs in: a Dexie transaction with the database's tables on it. */
export type LocalTx = TXWithTables<LocalDb>;

export interface MutateOptions {
  /**
   * The local change. Write through `tx` (`await tx.entities.put(...)`) and await every write: a write
   * that fails unawaited does not roll the transaction back. Only Dexie calls may be awaited in here
   * (awaiting a fetch or a timer would end the transaction). Throwing rolls back both the change and the
   * outbox entry.
   */
  apply?: (tx: LocalTx) => Promise<void> | void;
  /** The tables `apply` writes or reads besides the outbox. */
  tables?: readonly LocalTableName[];
  write: OutboxWrite;
  /** Human text for the pending list, e.g. "Star Payments". */
  label: string;
}

/** What the app's API call answered. `message` (the error body's message) is kept as `lastError`. */
export interface SendResult {
  status: number;
  message?: string;
  /** The answer's body when it refused the write (kept on the failed entry: a 412 carries the current version). */
  body?: unknown;
  /** The write's kind reads this refusal as "already so" (an alert acknowledged first by someone else): done. */
  done?: boolean;
}

/**
 * Sends one entry: the app calls the entry's operation with its input and the header
 * `Idempotency-Key: entry.key`, resolves with the HTTP status of any answer (also 4xx and 5xx) and
 * rejects only when no answer came (network error).
 */
export type OutboxSend = (entry: OutboxEntry) => Promise<SendResult>;

export interface ReplayResult {
  /** Entries answered 2xx and deleted. */
  sent: number;
  /** Entries marked failed during this run. */
  failed: number;
  /** Why the run stopped before the outbox was empty: no answer, or an answer that says "later". */
  stopped: 'network' | 'retry-later' | null;
}

export type Outcome = 'done' | 'failed' | 'retry-later';

/** How an HTTP status settles an outbox entry (see the module comment). */
export function outcomeOf(status: number): Outcome {
  if (status >= 200 && status < 300) return 'done';
  if (status === 0 || status === 401 || status === 408 || status === 429 || status >= 500) return 'retry-later';
  return 'failed';
}

/** A random UUID (v4); `crypto.randomUUID` where the context has it. */
export function newIdempotencyKey(): string {
  const webCrypto = globalThis.crypto;
  if (typeof webCrypto.randomUUID === 'function') return webCrypto.randomUUID();
  const bytes = webCrypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// ---- change notification (so a running sync sends a new write at once) ----

const listeners = new WeakMap<LocalDb, Set<() => void>>();

/** Calls `listener` after each `mutate()` and `retry()` on `db` in this tab; returns the unsubscribe. */
export function onOutboxChange(db: LocalDb, listener: () => void): () => void {
  let set = listeners.get(db);
  if (!set) {
    set = new Set();
    listeners.set(db, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

function notifyChange(db: LocalDb): void {
  for (const listener of listeners.get(db) ?? []) {
    try {
      listener();
    } catch {
      // A listener's failure is not the writer's.
    }
  }
}

// ---- writing ----

/** Applies the local change and appends its outbox entry in one transaction; resolves with the entry. */
export async function mutate(db: LocalDb, options: MutateOptions): Promise<OutboxEntry> {
  const { apply, tables = [], write, label } = options;
  const scope = [...new Set<string>([...tables, 'outbox'])];
  const entry = await db.transaction('rw', scope, async (tx) => {
    await apply?.(tx);
    const row: Omit<OutboxEntry, 'seq'> = {
      key: newIdempotencyKey(),
      kind: write.kind,
      operation: write.operation,
      input: write.input,
      ...(write.view !== undefined ? { view: write.view } : {}),
      createdAt: Date.now(),
      status: 'pending',
      attempts: 0,
      label,
    };
    const seq = await tx.outbox.add(row);
    return { ...row, seq } satisfies OutboxEntry;
  });
  notifyChange(db);
  return entry;
}

// ---- reading ----

export function pendingCount(db: LocalDb): Promise<number> {
  return db.outbox.where('status').equals('pending').count();
}

export function failedCount(db: LocalDb): Promise<number> {
  return db.outbox.where('status').equals('failed').count();
}

/** Pending entries, oldest first (the pending list). */
export function pendingEntries(db: LocalDb): Promise<OutboxEntry[]> {
  return db.outbox.where('status').equals('pending').sortBy('seq');
}

/** Failed entries, oldest first, with `lastStatus` and `lastError`. */
export function failedEntries(db: LocalDb): Promise<OutboxEntry[]> {
  return db.outbox.where('status').equals('failed').sortBy('seq');
}

// ---- settling failed entries ----

/** Drops an entry (the user gives the write up); the app refetches to undo the local change. */
export async function discard(db: LocalDb, seq: number): Promise<void> {
  await db.outbox.delete(seq);
}

/** Puts a failed entry back in line, in its place, changed by `change`; true if it was failed. */
async function backInLine(db: LocalDb, seq: number, change: (entry: OutboxEntry) => void): Promise<boolean> {
  const changed = await db.outbox
    .where('seq')
    .equals(seq)
    .and((entry) => entry.status === 'failed')
    .modify((entry) => {
      entry.status = 'pending';
      delete entry.lastError;
      delete entry.lastStatus;
      delete entry.lastBody;
      change(entry);
    });
  if (changed > 0) notifyChange(db);
  return changed > 0;
}

/** Puts a failed entry back in line (same key, same place in the order); true if it was failed. */
export function retry(db: LocalDb, seq: number): Promise<boolean> {
  return backInLine(db, seq, () => undefined);
}

/**
 * Settles a conflict (a write refused with 412) by keeping the local change: the entry goes back in line, in its
 * place, with its input rebased on the server's current version (e.g. its lock) and a new Idempotency-Key, since
 * it is now another write. True if the entry was a failed one.
 */
export function requeue(db: LocalDb, seq: number, input: unknown): Promise<boolean> {
  return backInLine(db, seq, (entry) => {
    entry.input = input;
    entry.key = newIdempotencyKey();
  });
}

// ---- replay ----

interface Run {
  promise: Promise<ReplayResult>;
  /** Set once the run has found the outbox empty or stopped; a later call starts a new run. */
  closed: boolean;
  /** A call joined the run: look once more before finding the outbox empty (its write may be newer). */
  again: boolean;
}

const runs = new WeakMap<LocalDb, Run>();

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function drain(db: LocalDb, send: OutboxSend, run: Run): Promise<ReplayResult> {
  const result: ReplayResult = { sent: 0, failed: 0, stopped: null };
  try {
    for (;;) {
      // The first pending entry: every entry handled below is deleted, marked failed or ends the run, so
      // this moves on; entries appended (or retried) meanwhile are picked up in seq order.
      const entry = await db.outbox
        .orderBy('seq')
        .filter((e) => e.status === 'pending')
        .first();
      if (!entry) {
        if (!run.again) return result;
        run.again = false;
        continue;
      }
      const attempts = entry.attempts + 1;
      let answer: SendResult;
      try {
        answer = await send(entry);
      } catch (error) {
        await db.outbox.update(entry.seq, { attempts, lastError: errorText(error) });
        result.stopped = 'network';
        return result;
      }
      const message = answer.message ? `${answer.status} ${answer.message}` : `HTTP ${answer.status}`;
      switch (answer.done ? 'done' : outcomeOf(answer.status)) {
        case 'done':
          await db.outbox.delete(entry.seq);
          result.sent++;
          break;
        case 'failed':
          await db.outbox.update(entry.seq, {
            status: 'failed',
            attempts,
            lastStatus: answer.status,
            lastError: message,
            ...(answer.body !== undefined ? { lastBody: answer.body } : {}),
          });
          result.failed++;
          break;
        case 'retry-later':
          await db.outbox.update(entry.seq, { attempts, lastStatus: answer.status, lastError: message });
          result.stopped = 'retry-later';
          return result;
      }
    }
  } finally {
    run.closed = true;
  }
}

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** Across tabs: the Web Locks API, where the browser has it, lets one tab replay a database at a time. */
function withLock<T>(db: LocalDb, task: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
  if (!locks || typeof locks.request !== 'function') return task();
  return locks.request(`beacon-outbox:${db.name}`, task);
}

/**
 * Sends the pending entries one at a time in `seq` order (see the module comment for what each answer
 * does). Only one replay of a database runs at a time: a call while one runs gets that run's promise (and
 * entries appended meanwhile are sent by it).
 */
export function replay(db: LocalDb, send: OutboxSend): Promise<ReplayResult> {
  const current = runs.get(db);
  if (current && !current.closed) {
    current.again = true;
    return current.promise;
  }
  const run: Run = { closed: false, again: false, promise: Promise.resolve({ sent: 0, failed: 0, stopped: null }) };
  run.promise = withLock(db, () => drain(db, send, run)).finally(() => {
    run.closed = true;
    if (runs.get(db) === run) runs.delete(db);
  });
  runs.set(db, run);
  return run.promise;
}

// ---- automatic sync ----

export interface OutboxSyncOptions {
  /** Replay on this timer too (ms). Default 30 s. */
  intervalMs?: number;
  /** Replay once right away. Default true. */
  immediate?: boolean;
  /** Called when a replay fails on the local database itself (not on a send). */
  onError?: (error: unknown) => void;
  /** Called with each finished replay's result. */
  onReplay?: (result: ReplayResult) => void;
}

/**
 * Replays the outbox when the browser comes online, when the window gets focus, on a timer and after each
 * local write; skipped while `navigator.onLine` is false. Works without a DOM (then only the timer and
 * writes trigger it). Returns the stop function.
 */
export function startOutboxSync(db: LocalDb, send: OutboxSend, options: OutboxSyncOptions = {}): () => void {
  const { intervalMs = 30_000, immediate = true, onError, onReplay } = options;
  let stopped = false;
  const kick = (): void => {
    if (stopped) return;
    if ((globalThis.navigator as { onLine?: boolean } | undefined)?.onLine === false) return;
    replay(db, send).then(
      (result) => onReplay?.(result),
      (error: unknown) => onError?.(error),
    );
  };
  const target: EventTarget | undefined = typeof window !== 'undefined' ? window : undefined;
  target?.addEventListener('online', kick);
  target?.addEventListener('focus', kick);
  const timer = setInterval(kick, intervalMs);
  const unsubscribe = onOutboxChange(db, kick);
  if (immediate) kick();
  return () => {
    stopped = true;
    target?.removeEventListener('online', kick);
    target?.removeEventListener('focus', kick);
    clearInterval(timer);
    unsubscribe();
  };
}
