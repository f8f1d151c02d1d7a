/**
 * The local-first store (docs/decisions.md#offline): one IndexedDB database per workspace and user, so a shared
 * browser never shows one user's or one tenant's data to another. Dexie is the store TanStack Query writes
 * through (`queries`), the records seen (`entities`), the user's drafts (`drafts`) and the outbox of writes
 * waiting for the network (`outbox`).
 *
 * Schema changes: never edit a published version. Add `this.version(n + 1).stores({ newTable: '...' })`
 * below (Dexie keeps the tables of earlier versions) and, when rows need changing, an `.upgrade(tx => ...)`.
 */
import type { PersistedQuery } from '@tanstack/query-persist-client-core';
import { Dexie, type EntityTable, type Table } from 'dexie';

/**
 * One TanStack query as last seen, written by the query persister (query-persister.ts).
 * `key` is the persister's storage key: a prefix and the query hash (the query key serialised).
 */
export interface QueryRow {
  key: string;
  /** The persisted query (its key, hash, state with the data, and the buster), stored as an object. */
  value: PersistedQuery;
  /** Epoch milliseconds of the write. */
  updatedAt: number;
}

/** The kinds of record kept in `entities`; later issues add kinds here. */
export type EntityType = 'service' | 'team' | 'user' | (string & Record<never, never>);

/** A record seen from the API, keyed by its kind and id (`[type+id]`). */
export interface EntityRow<T = unknown> {
  type: EntityType;
  id: string;
  data: T;
  /** Epoch milliseconds of the last local write. */
  updatedAt: number;
}

/**
 * A local draft (e.g. a notice or a service being edited). `data` is the draft document; `version` is the
 * server version it was based on, sent back so a stale write gets 412 (docs/decisions.md#api-conventions).
 */
export interface DraftRow<T = unknown> {
  id: string;
  data: T;
  version?: number;
  updatedAt: number;
}

export type OutboxStatus = 'pending' | 'failed';

/**
 * A write waiting to be sent; replayed strictly in `seq` order (outbox.ts). It names what it does, not where it
 * goes: `kind` (the app's write kind, which knows its optimistic view and what to refresh once settled),
 * `operation` (the contract operation's id) and `input` (the operation's params, query and body).
 */
export interface OutboxEntry {
  /** Auto-increment: the order the writes were made in. */
  seq: number;
  /** The Idempotency-Key header sent with every try (a UUID); the server applies the write once. */
  key: string;
  kind: string;
  operation: string;
  /** The operation's input (structured-cloneable). */
  input: unknown;
  /** What the optimistic view needs that the request does not carry (e.g. the starred service's name). */
  view?: unknown;
  /** Epoch milliseconds when the write was made. */
  createdAt: number;
  status: OutboxStatus;
  /** How many times the entry was handed to `send`. */
  attempts: number;
  /** Why the last try did not succeed, e.g. `412 Precondition Failed: ...` or a network error. */
  lastError?: string;
  /** The HTTP status of the last try that got an answer (a failed entry's reason, e.g. 412 for a conflict). */
  lastStatus?: number;
  /** The body of the answer that refused it: for a 412, the server's current version the write conflicts with. */
  lastBody?: unknown;
  /** Human text for the pending list, e.g. "Star Payments". */
  label: string;
}

/** The tables an outbox `mutate()` may write besides the outbox itself. */
export type LocalTableName = 'queries' | 'entities' | 'drafts';

export class LocalDb extends Dexie {
  queries!: EntityTable<QueryRow, 'key'>;
  entities!: Table<EntityRow, [string, string]>;
  drafts!: EntityTable<DraftRow, 'id'>;
  outbox!: EntityTable<OutboxEntry, 'seq'>;

  constructor(name: string) {
    super(name);
    // Version 1. Only indexed fields are listed; rows may carry more.
    this.version(1).stores({
      queries: 'key, updatedAt',
      entities: '[type+id], type, updatedAt',
      drafts: 'id, updatedAt',
      outbox: '++seq, status',
    });
    // Version 2: outbox entries name their kind, operation and input instead of a URL. Stars queued by version 1
    // are carried over; the star rows it kept in `entities` go (the outbox alone holds what is pending).
    this.version(2)
      .stores({})
      .upgrade(async (tx) => {
        await tx
          .table('outbox')
          .toCollection()
          .modify((entry: Record<string, unknown>, ref: { value?: unknown }) => {
            const star = /^\/users\/([^/]+)\/starred\/([^/]+)$/.exec(String(entry.path ?? ''));
            if (!star || (entry.method !== 'PUT' && entry.method !== 'DELETE')) {
              delete ref.value;
              return;
            }
            const starring = entry.method === 'PUT';
            entry.kind = starring ? 'star' : 'unstar';
            entry.operation = starring ? 'starService' : 'unstarService';
            entry.input = { params: { username: decodeURIComponent(star[1]!), service: decodeURIComponent(star[2]!) } };
            delete entry.method;
            delete entry.path;
            delete entry.body;
          });
        await tx.table('entities').where('type').equals('star').delete();
      });
  }
}

/** `beacon-{workspace}-{handle}`; both are lowercase on the server (validators), so case is folded. */
export function localDbName(workspace: string, handle: string): string {
  return `beacon-${workspace.toLowerCase()}-${handle.toLowerCase()}`;
}

const instances = new Map<string, LocalDb>();

/** The local database of one workspace and user; one instance per name, opened lazily by Dexie. */
export function openLocalDb(workspace: string, handle: string): LocalDb {
  const name = localDbName(workspace, handle);
  let db = instances.get(name);
  if (!db) {
    db = new LocalDb(name);
    instances.set(name, db);
    // Opened now, not at the first read: a fresh profile takes a while to create the database, and the first
    // answers from the network should find it ready to store them. A failure shows at the first use.
    db.open().catch(() => undefined);
  }
  return db;
}

/** Closes and forgets the instance (e.g. on logout); the data stays for the next login. */
export function closeLocalDb(workspace: string, handle: string): void {
  const name = localDbName(workspace, handle);
  instances.get(name)?.close();
  instances.delete(name);
}

/** Deletes the user's local data (e.g. "sign out and forget this device"). */
export async function deleteLocalDb(workspace: string, handle: string): Promise<void> {
  const name = localDbName(workspace, handle);
  const db = instances.get(name);
  instances.delete(name);
  if (db) await db.delete();
  else await Dexie.delete(name);
}
