import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { openLocalDb, type LocalDb } from '../../local/db.js';
import { mutate as mutateLocal, startOutboxSync, type MutateOptions, type OutboxSend } from '../../local/outbox.js';
import { createDexieQueryPersister } from '../../local/query-persister.js';
import { ApiError, type ApiClient } from '../api/client.js';
import { useAuth } from '../auth/auth-context.js';

/** Stored queries from another build are dropped rather than misread. */
const CACHE_BUSTER = 'v1';

interface Local {
  db: LocalDb;
  /** The one write path for changes the app may queue offline (stars, mutes, drafts). */
  mutate(options: MutateOptions): Promise<void>;
}

const LocalContext = createContext<Local | null>(null);

/** Sends an outbox entry with its Idempotency-Key; answers every HTTP status, throws only without an answer. */
export function outboxSender(api: ApiClient): OutboxSend {
  return async (entry) => {
    try {
      const response = await api.request(entry.method, entry.path, {
        body: entry.body,
        headers: { 'idempotency-key': entry.key },
      });
      return { status: response.status };
    } catch (error) {
      if (error instanceof ApiError) return { status: error.status, message: error.message };
      throw error;
    }
  };
}

function queryClientFor(db: LocalDb | null): QueryClient {
  const persister = db ? createDexieQueryPersister(db, { buster: CACHE_BUSTER }) : null;
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        retry: 1,
        refetchOnWindowFocus: false,
        // Offline, the fetch still runs so the persister can answer from Dexie.
        networkMode: 'offlineFirst',
        ...(persister ? { persister: persister.persisterFn } : {}),
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

/**
 * Per workspace and user: the Dexie database, TanStack Query written through to it (screens render what was
 * last seen at once, online or not), and the outbox replaying queued writes when the app is online.
 */
export function LocalProvider({ children }: { children: ReactNode }) {
  const { state, api, domain } = useAuth();
  const handle = state.user?.handle ?? state.username;
  const db = useMemo(() => (handle ? openLocalDb(domain, handle) : null), [domain, handle]);
  const client = useMemo(() => queryClientFor(db), [db]);

  useEffect(() => {
    if (!db || !state.token) return;
    return startOutboxSync(db, outboxSender(api));
  }, [db, api, state.token]);

  const local = useMemo<Local | null>(
    () =>
      db
        ? {
            db,
            mutate: async (options) => {
              await mutateLocal(db, options);
            },
          }
        : null,
    [db],
  );

  return (
    <QueryClientProvider client={client}>
      <LocalContext.Provider value={local}>{children}</LocalContext.Provider>
    </QueryClientProvider>
  );
}

/** The local database of the signed-in user, or null before sign-in. */
export function useLocal(): Local | null {
  return useContext(LocalContext);
}
