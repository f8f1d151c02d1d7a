import { QueryClientProvider, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react';
import type { OperationInput, Operation } from '../../contract/operation.js';
import { openLocalDb, type LocalDb } from '../../local/db.js';
import { mutate as mutateLocal, startOutboxSync, type MutateOptions } from '../../local/outbox.js';
import { createDexieQueryPersister } from '../../local/query-persister.js';
import type { ApiClient } from '../api/client.js';
import { createQueryClient } from '../api/query-client.js';
import { getStarredQueryOptions } from '../api/shared-queries.js';
import { useAuth } from '../session/auth-context.js';
import { outboxSender, PendingWrites, WriteKinds, type AnyWriteKind, type WriteKind } from './writes.js';

/** Stored queries from another build are dropped rather than misread. */
const CACHE_BUSTER = 'v1';

interface Local {
  db: LocalDb;
  /** Appends a write to the outbox (with a local change of its own, for drafts). */
  mutate(options: MutateOptions): Promise<void>;
}

interface WritePath {
  local: Local | null;
  pending: PendingWrites;
}

const LocalContext = createContext<WritePath | null>(null);

/**
 * Per workspace and user: the Dexie database, TanStack Query written through to it (screens render what was
 * last seen at once, online or not), the pending writes laid over it, and the outbox replaying queued writes when
 * the app is online. `writeKinds` are every kind of write the app queues (the composition root lists them, so a
 * write queued on one screen replays whichever screen is open).
 */
export function LocalProvider({
  writeKinds,
  onSignedIn,
  children,
}: {
  writeKinds: readonly AnyWriteKind[];
  /** Called with the user's query client once there is a token: the first screen's data can start then. */
  onSignedIn?: (client: QueryClient, api: ApiClient) => void;
  children: ReactNode;
}) {
  const { state, api, domain } = useAuth();
  const handle = state.user?.handle ?? state.username;
  const db = useMemo(() => (handle ? openLocalDb(domain, handle) : null), [domain, handle]);
  const kinds = useMemo(() => new WriteKinds(writeKinds), [writeKinds]);
  const pending = useMemo(() => new PendingWrites(kinds), [kinds]);
  const client = useMemo(
    () =>
      createQueryClient({
        persister: db ? createDexieQueryPersister(db, { buster: CACHE_BUSTER }) : null,
        overlay: (queryKey, data) => pending.overlay(queryKey, data),
      }),
    [db, pending],
  );

  useEffect(() => (db ? pending.follow(db, client) : undefined), [db, pending, client]);

  // Spec section 4: a token (a sign-in, or the session found at start) is followed by a fetch of the user and of
  // their starred services (the user is the session's; the starred list goes into the cache the screens read).
  const signedIn = Boolean(state.token);
  useEffect(() => {
    if (!signedIn || !handle) return;
    void client.prefetchQuery(getStarredQueryOptions(api, handle));
    onSignedIn?.(client, api);
  }, [client, api, handle, signedIn, onSignedIn]);

  useEffect(() => {
    if (!db || !state.token) return;
    return startOutboxSync(db, outboxSender(api, kinds));
  }, [db, api, kinds, state.token]);

  const value = useMemo<WritePath>(
    () => ({
      pending,
      local: db
        ? {
            db,
            mutate: async (options) => {
              pending.add(await mutateLocal(db, options));
            },
          }
        : null,
    }),
    [db, pending],
  );

  return (
    <QueryClientProvider client={client}>
      <LocalContext.Provider value={value}>{children}</LocalContext.Provider>
    </QueryClientProvider>
  );
}

/** The local database of the signed-in user, or null before sign-in. */
export function useLocal(): Local | null {
  return useContext(LocalContext)?.local ?? null;
}

/**
 * Makes a write of a kind: cancels fetches that would land over it, lays it over the cache at once, and queues
 * it in the outbox (sent when online). Without a local database (not signed in yet) it goes straight to the
 * server. `label` names it in the pending list ("Star Payments").
 */
export function useWrite() {
  const path = useContext(LocalContext);
  const { api } = useAuth();
  const queryClient = useQueryClient();
  return useCallback(
    async <O extends Operation, V>(
      kind: WriteKind<O, V>,
      input: OperationInput<O>,
      { label, view }: { label: string; view?: V },
    ): Promise<void> => {
      if (!path) throw new Error('useWrite outside LocalProvider');
      const { pending, local } = path;
      const write = { kind: kind.kind, operation: kind.operation.id, input, view };
      await pending.cancelFetchesUnder(queryClient, write);
      const release = pending.hold(write);
      pending.applyTo(queryClient);
      try {
        if (local) {
          await local.mutate({ write, label });
          release();
        } else {
          await api.call(kind.operation, input as never);
          release();
          pending.settle(queryClient, write, 'done');
        }
      } catch (error) {
        release();
        pending.settle(queryClient, write, 'failed');
        throw error;
      }
    },
    [path, api, queryClient],
  );
}
