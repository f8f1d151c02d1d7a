/**
 * The one typed write path of the app (docs/decisions.md#offline) for the writes a user may make offline: stars, mutes
 * and draft saves. A write kind names its contract operation, how it changes what the user sees at once (its
 * overlay on cached data) and what to read again once it settled. The optimistic state lives in one place, the
 * outbox: while an entry is pending its overlay is laid over every cached copy of the data it touches and over
 * every answer fetched meanwhile, so neither a refetch nor a reload shows the write undone; once it settled (sent,
 * or refused) the overlay goes and the kind's queries are read again.
 */
import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { Operation, OperationInput } from '../../contract/operation.js';
import type { LocalDb, OutboxEntry } from '../../local/db.js';
import { ApiError, type ApiClient } from '../api/client.js';
import { discard, requeue, type OutboxSend } from '../../local/outbox.js';

export type WriteOutcome = 'done' | 'failed';

export interface WriteKind<O extends Operation = Operation, V = undefined> {
  kind: string;
  operation: O;
  /**
   * The cached data of query `queryKey` as the user should see it with this write made: the same object when
   * the write does not touch it. Must be idempotent (it is laid over again after every fetch).
   */
  overlay?(queryKey: QueryKey, data: unknown, input: OperationInput<O>, view: V): unknown;
  /**
   * Refusals that say the server already holds what the write asks (acknowledging an alert someone else
   * acknowledged first: 409): the write is done, not failed, and is not kept for the user to retry.
   */
  alreadyDone?: readonly number[];
  /** What to read again once the write settled: sent (`done`) or refused (`failed`, the overlay was wrong). */
  invalidates(input: OperationInput<O>, outcome: WriteOutcome): QueryKey[];
  /**
   * For writes that can conflict (a 412 with the server's current version): the input that keeps the user's
   * change on top of that version (e.g. with its lock). Without it a 412 is an ordinary refusal.
   */
  rebase?(input: OperationInput<O>, current: unknown): OperationInput<O>;
}

/** A write the server refused with 412: the user's side and the server's, for the user to settle. */
export interface Conflict {
  seq: number;
  kind: string;
  mine: unknown;
  theirs: unknown;
}

/** The conflicts among the outbox's failed entries (those of kinds that can rebase). */
export function conflictsOf(entries: readonly OutboxEntry[], kinds: WriteKinds): Conflict[] {
  return entries
    .filter((entry) => entry.status === 'failed' && entry.lastStatus === 412 && kinds.get(entry.kind)?.rebase)
    .map((entry) => ({ seq: entry.seq, kind: entry.kind, mine: entry.input, theirs: entry.lastBody }));
}

/**
 * Settles a conflict: `mine` sends the user's change again on top of the server's version (the kind's rebase),
 * `theirs` drops it (the kind's queries are read again, showing the server's version).
 */
export async function settleConflict(
  db: LocalDb,
  kinds: WriteKinds,
  conflict: Conflict,
  choice: 'mine' | 'theirs',
): Promise<void> {
  const kind = kinds.get(conflict.kind);
  if (choice === 'mine' && kind?.rebase)
    await requeue(db, conflict.seq, kind.rebase(conflict.mine as never, conflict.theirs));
  else await discard(db, conflict.seq);
}

// The registry holds kinds of every operation; each kind is typed where it is defined.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyWriteKind = WriteKind<any, any>;

/** Whether an overlay is looking at the query `expected` (keys compare as TanStack hashes them). */
export function isQueryKey(queryKey: QueryKey, expected: QueryKey): boolean {
  return hashKey(queryKey) === hashKey(expected);
}

/** Declares a write kind (the identity, for inference). */
export function writeKind<O extends Operation, V = undefined>(kind: WriteKind<O, V>): WriteKind<O, V> {
  return kind;
}

export class WriteKinds {
  private readonly byKind: Map<string, AnyWriteKind>;
  constructor(kinds: readonly AnyWriteKind[]) {
    this.byKind = new Map(kinds.map((kind) => [kind.kind, kind]));
  }
  get(kind: string): AnyWriteKind | undefined {
    return this.byKind.get(kind);
  }
}

/** Sends an outbox entry through its kind's operation with its Idempotency-Key; answers every HTTP status. */
export function outboxSender(api: ApiClient, kinds: WriteKinds): OutboxSend {
  return async (entry) => {
    const kind = kinds.get(entry.kind);
    if (!kind) return { status: 400, message: `Unknown write ${entry.kind}` };
    try {
      const response = await api.exchange(kind.operation, entry.input as never, {
        headers: { 'idempotency-key': entry.key },
      });
      return { status: response.status };
    } catch (error) {
      if (error instanceof ApiError && kind.alreadyDone?.includes(error.status))
        return { status: error.status, done: true };
      if (error instanceof ApiError) return { status: error.status, message: error.message, body: error.data };
      throw error;
    }
  };
}

/**
 * The pending writes of one local database, laid over the query cache. `overlay` is called on every answer
 * fetched (the query client's persister wraps every fetch with it); `update` keeps the pending list in step with
 * the outbox and settles what left it.
 */
/** What a write is, before and after it reached the outbox. */
export type Write = Pick<OutboxEntry, 'kind' | 'input' | 'view'>;

export class PendingWrites {
  private pending: OutboxEntry[] = [];
  /** Writes being made: laid over the cache until they are in the outbox (or sent, without one). */
  private readonly held = new Set<Write>();

  constructor(private readonly kinds: WriteKinds) {}

  /** The data with every pending write's overlay laid over it, oldest first. */
  overlay(queryKey: QueryKey, data: unknown): unknown {
    let result = data;
    for (const entry of [...this.pending, ...this.held]) {
      const kind = this.kinds.get(entry.kind);
      if (kind?.overlay) result = kind.overlay(queryKey, result, entry.input as never, entry.view);
    }
    return result;
  }

  /** Lays the pending writes over every cached query they change. */
  applyTo(queryClient: QueryClient): void {
    for (const query of queryClient.getQueryCache().findAll()) {
      const data = query.state.data;
      if (data === undefined) continue;
      const next = this.overlay(query.queryKey, data);
      if (next !== data) queryClient.setQueryData(query.queryKey, next);
    }
  }

  /** Stops fetches in flight whose answer, read before the write, would land over its overlay. */
  async cancelFetchesUnder(queryClient: QueryClient, entry: Write) {
    const kind = this.kinds.get(entry.kind);
    if (!kind?.overlay) return;
    await queryClient.cancelQueries({
      predicate: (query) =>
        query.state.fetchStatus === 'fetching' &&
        query.state.data !== undefined &&
        kind.overlay!(query.queryKey, query.state.data, entry.input as never, entry.view) !== query.state.data,
    });
  }

  /** Lays a write being made over the cache until the returned release is called. */
  hold(write: Write): () => void {
    this.held.add(write);
    return () => this.held.delete(write);
  }

  /** Adds a write just queued (before the outbox's live query reports it). */
  add(entry: OutboxEntry): void {
    if (!this.pending.some((known) => known.seq === entry.seq)) this.pending = [...this.pending, entry];
  }

  /** A write settled: its kind's queries are read again. */
  settle(queryClient: QueryClient, entry: Pick<Write, 'kind' | 'input'>, outcome: WriteOutcome): void {
    const kind = this.kinds.get(entry.kind);
    for (const queryKey of kind?.invalidates(entry.input as never, outcome) ?? [])
      void queryClient.invalidateQueries({ queryKey });
  }

  /**
   * The outbox's entries as they are now (local-layer.ts follows them, across tabs too): the pending list and its
   * overlay on the cache follow them, and the writes that left it are settled unless `settleLeft` is false (the
   * first look, when nothing has left yet).
   */
  update(queryClient: QueryClient, entries: readonly OutboxEntry[], settleLeft: boolean): void {
    const pending = entries.filter((entry) => entry.status === 'pending').sort((a, b) => a.seq - b.seq);
    const failed = new Set(entries.filter((entry) => entry.status === 'failed').map((entry) => entry.seq));
    const left = settleLeft ? this.pending.filter((entry) => !pending.some((still) => still.seq === entry.seq)) : [];
    this.pending = pending;
    this.applyTo(queryClient);
    for (const entry of left) this.settle(queryClient, entry, failed.has(entry.seq) ? 'failed' : 'done');
  }
}
