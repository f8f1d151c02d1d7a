/**
 * TanStack Query written through to Dexie (docs/decisions.md#offline): every successful fetch is stored in the
 * `queries` table, and a query without data (a fresh page load, a fresh client, offline) is answered from
 * it at once; a stale restored query then refetches in the background once a component observes it.
 *
 * Use it as the client's default persister, with `networkMode: 'offlineFirst'` so that an offline fetch
 * still runs the persister (with the default `'online'` mode TanStack pauses before it, and nothing is
 * restored until the network returns):
 *
 * ```ts
 * new QueryClient({
 *   defaultOptions: { queries: { persister: createDexiePersister(db, { buster: BUILD_ID }), networkMode: 'offlineFirst' } },
 * });
 * ```
 *
 * A query with `meta: { persist: false }` is neither stored nor restored (for data that must not outlive
 * the session on disk).
 */
import {
  experimental_createQueryPersister,
  type AsyncStorage,
  type PersistedQuery,
} from '@tanstack/query-persist-client-core';
import {
  notifyManager,
  type Query,
  type QueryClient,
  type QueryFilters,
  type QueryFunctionContext,
  type QueryKey,
} from '@tanstack/react-query';
import type { LocalDb } from './db.js';

/** How long a stored query may be restored: 30 days. */
export const QUERY_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** The prefix of the `queries` keys: `q-{queryHash}` (the hash is the query key serialised). */
export const QUERY_KEY_PREFIX = 'q';

export interface DexiePersisterOptions {
  /** Stored queries with another buster are dropped (pass the build or API version). Default `''`. */
  buster?: string;
  /** Default {@link QUERY_MAX_AGE_MS}. */
  maxAge?: number;
}

/**
 * An async storage over the `queries` table. Rows hold the persisted query as an object (IndexedDB
 * clones it), not a JSON string, so dates and the like survive. A failing IndexedDB (quota, private
 * mode) never fails a query: reads answer "nothing stored" and writes are dropped.
 */
export function dexieQueryStorage(db: LocalDb): AsyncStorage<PersistedQuery> {
  return {
    async getItem(key) {
      try {
        return (await db.queries.get(key))?.value ?? null;
      } catch {
        return null;
      }
    },
    async setItem(key, value) {
      try {
        await db.queries.put({ key, value, updatedAt: Date.now() });
      } catch {
        // The cache is best effort.
      }
    },
    async removeItem(key) {
      try {
        await db.queries.delete(key);
      } catch {
        // Best effort too.
      }
    },
    async entries() {
      try {
        return (await db.queries.toArray()).map((row): [string, PersistedQuery] => [row.key, row.value]);
      } catch {
        return [];
      }
    },
  };
}

/**
 * The stored form of a query: its state without the error (errors may not be cloneable and are never
 * restored) and never mid-fetch.
 */
function toStored(persisted: PersistedQuery): PersistedQuery {
  return {
    ...persisted,
    state: { ...persisted.state, error: null, fetchFailureReason: null, fetchStatus: 'idle' },
  };
}

type CorePersister = ReturnType<typeof experimental_createQueryPersister<PersistedQuery>>;
// @tanstack/query-persist-client-core is typed against its own copy of @tanstack/query-core (5.104 here),
// @tanstack/react-query against another (5.108): the classes are the same at run time but not to tsc.
type CoreQuery = Parameters<CorePersister['persistQuery']>[0];
type CoreQueryClient = Parameters<CorePersister['restoreQueries']>[0];

/** Queries with `meta: { persist: false }` are neither stored nor restored. */
function persists(query: Query): boolean {
  return query.meta?.persist !== false;
}

/**
 * The full persister: `persisterFn` (the query option) and helpers to persist a query after a local
 * `setQueryData`, restore every stored query into a client, remove some, and drop expired rows.
 *
 * `persisterFn` is the library's, rewritten on its own parts for one difference: after answering from
 * Dexie, a stale query refetches in the background and a failing refetch is caught (the query records
 * the error and keeps the data). The library leaves that rejection unhandled, which happens exactly in the
 * offline case this is for.
 */
export function createDexieQueryPersister(db: LocalDb, options: DexiePersisterOptions = {}) {
  const core: CorePersister = experimental_createQueryPersister<PersistedQuery>({
    storage: dexieQueryStorage(db),
    buster: options.buster ?? '',
    maxAge: options.maxAge ?? QUERY_MAX_AGE_MS,
    prefix: QUERY_KEY_PREFIX,
    serialize: toStored,
    deserialize: (stored) => stored,
  });

  async function persisterFn<T, TQueryKey extends QueryKey>(
    queryFn: (context: QueryFunctionContext<TQueryKey>) => T | Promise<T>,
    context: QueryFunctionContext<TQueryKey>,
    query: Query,
  ): Promise<T> {
    if (!persists(query)) return queryFn(context);
    if (query.state.data === undefined) {
      const restored = await core.retrieveQuery<T>(query.queryHash, (persisted) => {
        query.setState({
          dataUpdatedAt: persisted.state.dataUpdatedAt,
          errorUpdatedAt: persisted.state.errorUpdatedAt,
        });
        if (query.isStale()) query.fetch().catch(() => undefined);
      });
      if (restored !== undefined) return restored;
    }
    const data = await queryFn(context);
    // After the fetch has settled into the query's state.
    notifyManager.schedule(() => void core.persistQuery(query as unknown as CoreQuery));
    return data;
  }

  return {
    persisterFn,
    /** Stores a query as it is now (e.g. after an optimistic `setQueryData`). */
    persistQuery: (query: Query): Promise<void> => core.persistQuery(query as unknown as CoreQuery),
    persistQueryByKey: (queryKey: QueryKey, client: QueryClient): Promise<void> =>
      core.persistQueryByKey(queryKey, client as unknown as CoreQueryClient),
    /** Puts every stored query (or those matching `filters`) into the client's cache. */
    restoreQueries: (client: QueryClient, filters?: Pick<QueryFilters, 'queryKey' | 'exact'>): Promise<void> =>
      core.restoreQueries(client as unknown as CoreQueryClient, filters),
    removeQueries: core.removeQueries,
    /** Deletes expired and busted rows. */
    persisterGc: core.persisterGc,
  };
}

/** The `persister` to set on a query or as the client's default query option. */
export function createDexiePersister(db: LocalDb, options: DexiePersisterOptions = {}) {
  return createDexieQueryPersister(db, options).persisterFn;
}
