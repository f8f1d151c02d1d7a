import { QueryClient, type QueryKey, type QueryPersister } from '@tanstack/react-query';
import type { createDexieQueryPersister } from '../../local/query-persister.js';
import { ApiError } from './client.js';

/**
 * The app's retry policy for reads: a 4xx answer (a missing record, a refused list) will not change on a retry,
 * so it fails at once; anything else (a 5xx, the network) is retried once.
 */
export function retryUnlessClientError(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

type Persister = ReturnType<typeof createDexieQueryPersister>;

export interface QueryClientParts {
  /** The Dexie persister of the signed-in user: what was last seen renders at once, online or not. */
  persister?: Persister | null;
  /** Lays the writes still pending over every answer (local/writes.ts). */
  overlay?: ((queryKey: QueryKey, data: unknown) => unknown) | null;
}

/** The query client of the app: every query gets the retry policy above, the persister and the overlay. */
export function createQueryClient({ persister = null, overlay = null }: QueryClientParts = {}): QueryClient {
  const wrap: QueryPersister<unknown, QueryKey> | undefined =
    persister || overlay
      ? async (queryFn, context, query) => {
          const data = persister ? await persister.persisterFn(queryFn, context, query) : await queryFn(context);
          return overlay ? overlay(query.queryKey, data) : data;
        }
      : undefined;
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        retry: retryUnlessClientError,
        refetchOnWindowFocus: false,
        // Offline, the fetch still runs so the persister can answer from Dexie.
        networkMode: 'offlineFirst',
        ...(wrap ? { persister: wrap } : {}),
      },
    },
  });
  // Fetches are stored by the persister; a screen's own update after a write (setQueryData) is stored too,
  // or the next visit would first show what the server said before the write.
  client.getQueryCache().subscribe((event) => {
    if (persister && event.type === 'updated' && event.action.type === 'success' && event.action.manual) {
      if (event.query.meta?.persist !== false) void persister.persistQuery(event.query);
    }
  });
  return client;
}
