import { QueryClientProvider, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { OperationInput, Operation } from '../../contract/operation.js';
import type { LocalDb } from '../../local/db.js';
import type { MutateOptions } from '../../local/outbox.js';
import { ApiError, type ApiClient } from '../api/client.js';
import { createQueryClient } from '../api/query-client.js';
import { useAuth } from '../session/auth-context.js';
import type * as LocalLayer from './local-layer.js';
import { outboxSender, PendingWrites, WriteKinds, type AnyWriteKind, type WriteKind } from './writes.js';

/** Stored queries from another build are dropped rather than misread. */
const CACHE_BUSTER = 'v1';

/** What a signed-in user's local layer needs: its code (with Dexie) and every kind of write the app queues. */
export interface LocalCode {
  layer: typeof LocalLayer;
  writeKinds: readonly AnyWriteKind[];
}

/** The local layer's code, downloaded once, when first asked for. */
export interface LocalCodeLoader {
  load(): Promise<LocalCode>;
  /** The code, once it is there. */
  loaded(): LocalCode | null;
}

/** `writeKinds` loads the app's write kinds (the composition root lists them; they import the features). */
export function localCodeLoader(writeKinds: () => Promise<readonly AnyWriteKind[]>): LocalCodeLoader {
  let code: LocalCode | null = null;
  let loading: Promise<LocalCode> | null = null;
  const load = (): Promise<LocalCode> =>
    (loading ??= Promise.all([import('./local-layer.js'), writeKinds()]).then(
      ([layer, kinds]) => (code = { layer, writeKinds: kinds }),
      (error: unknown) => {
        // Offline before the service worker kept it: the next call tries again.
        loading = null;
        throw error;
      },
    ));
  return { load, loaded: () => code };
}

/** The code once it is there, asking for it while `wanted`; a render follows its arrival. */
function useLocalCode(code: LocalCodeLoader, wanted: boolean): LocalCode | null {
  const [, arrived] = useState<LocalCode | null>(null);
  const loaded = code.loaded();
  useEffect(() => {
    if (!wanted || loaded) return;
    let stopped = false;
    code.load().then(
      (value) => !stopped && arrived(value),
      () => undefined,
    );
    return () => {
      stopped = true;
    };
  }, [code, wanted, loaded]);
  return loaded;
}

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
 * the app is online. `code` brings the database's code and the write kinds once there is a user: the session
 * waits for it before it shows one (AuthProvider's `prepareSignedIn`), so a signed-in screen starts on the user's
 * database. Should a user come without it (its download failed), queries go to the network until it is there.
 */
export function LocalProvider({
  code,
  onSignedIn,
  children,
}: {
  code: LocalCodeLoader;
  /** Called with the user's query client once there is a token: the first screen's data can start then. */
  onSignedIn?: (client: QueryClient, api: ApiClient) => void;
  children: ReactNode;
}) {
  const { state, api, domain } = useAuth();
  const handle = state.user?.handle ?? state.username;
  const local = useLocalCode(code, Boolean(handle));
  const db = useMemo(() => (handle && local ? local.layer.openLocalDb(domain, handle) : null), [local, domain, handle]);
  const kinds = useMemo(() => new WriteKinds(local?.writeKinds ?? []), [local]);
  const pending = useMemo(() => new PendingWrites(kinds), [kinds]);
  const client = useMemo(
    () =>
      createQueryClient({
        persister: db && local ? local.layer.createDexieQueryPersister(db, { buster: CACHE_BUSTER }) : null,
        overlay: (queryKey, data) => pending.overlay(queryKey, data),
      }),
    [db, local, pending],
  );

  useEffect(
    () => (db && local ? local.layer.followOutbox(db, pending, client) : undefined),
    [db, local, pending, client],
  );

  // Spec section 4: a token (a sign-in, or the session found at start) is followed by a fetch of the user and of
  // their starred services (the user is the session's; the starred list goes into the cache the screens read).
  const signedIn = Boolean(state.token);
  useEffect(() => {
    if (!signedIn || !handle || !local) return;
    local.layer.prefetchStarred(client, api, handle);
    onSignedIn?.(client, api);
  }, [client, api, handle, signedIn, local, onSignedIn]);

  useEffect(() => {
    if (!db || !local || !state.token) return;
    return local.layer.startOutboxSync(db, outboxSender(api, kinds));
  }, [db, local, api, kinds, state.token]);

  const value = useMemo<WritePath>(
    () => ({
      pending,
      local:
        db && local
          ? {
              db,
              mutate: async (options) => {
                pending.add(await local.layer.mutate(db, options));
              },
            }
          : null,
    }),
    [db, local, pending],
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
        const done = error instanceof ApiError && kind.alreadyDone?.includes(error.status);
        pending.settle(queryClient, write, done ? 'done' : 'failed');
        if (!done) throw error;
      }
    },
    [path, api, queryClient],
  );
}
