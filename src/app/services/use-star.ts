import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { liveQuery } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect } from 'react';
import type { Service } from '../../contract/catalogue.js';
import { toggleStar } from '../../domain/catalogue.js';
import type { LocalDb, OutboxEntry } from '../../local/db.js';
import { useAuth } from '../auth/auth-context.js';
import { useLocal } from '../local/local-provider.js';
import { cancelServiceFetches, editServiceEverywhere, serviceRef, type StarredItem } from './service-api.js';

/** What the star toggle needs of a service. */
export type StarTarget = Pick<Service, 'id' | 'handle' | 'name' | 'thumbnail_url' | 'starred' | 'starred_count'>;

/** The `entities` rows holding a star not yet confirmed by the server: type 'star', id the service handle. */
export const STAR_ENTITY = 'star';

export interface StarRow {
  starred: boolean;
}

export function starPath(username: string, handle: string): string {
  return `/users/${encodeURIComponent(username)}/starred/${encodeURIComponent(handle)}`;
}

/** The service handle an outbox path stars or unstars, or null for any other write. */
export function starHandleOf(path: string): string | null {
  const match = /^\/users\/[^/]+\/starred\/([^/]+)$/.exec(path);
  return match ? decodeURIComponent(match[1]!) : null;
}

/**
 * The service with its star set to `starred`; the count moves (domain toggleStar) only when the star changes,
 * so applying the same state twice changes nothing.
 */
export function withStarred<T extends Pick<Service, 'handle' | 'starred' | 'starred_count'>>(
  service: T,
  starred: boolean,
): T {
  if (service.starred === starred) return service;
  const next = toggleStar(service.starred ? [service.handle] : [], service.starred_count, service.handle);
  return { ...service, starred: next.starred.includes(service.handle), starred_count: next.count };
}

/** The starred list with the service in it or out of it. */
export function withStarredItem(
  list: StarredItem[] | undefined,
  service: StarTarget,
  starred: boolean,
): StarredItem[] | undefined {
  if (!list) return list;
  const handles = list.map((item) => item.profile.handle);
  if (handles.includes(service.handle) === starred) return list;
  const next = toggleStar(handles, handles.length, service.handle).starred;
  return starred
    ? [...list, { id: service.id, profile: serviceRef(service) }]
    : list.filter((item) => next.includes(item.profile.handle));
}

/** Writes the star into every cached copy of the service and into the user's starred list. */
function applyStar(queryClient: QueryClient, username: string, service: StarTarget, starred: boolean): void {
  editServiceEverywhere(queryClient, service.handle, (cached) => withStarred(cached, starred));
  queryClient.setQueryData<StarredItem[]>(['user', username, 'starred'], (list) =>
    withStarredItem(list, service, starred),
  );
}

// ---- following the outbox ----

function isStarEntry(entry: OutboxEntry): boolean {
  return starHandleOf(entry.path) !== null;
}

/** Drops the star rows no pending outbox entry stands behind any more (sent, or refused and marked failed). */
export async function settleStars(db: LocalDb): Promise<void> {
  await db.transaction('rw', ['entities', 'outbox'], async () => {
    const pending = await db.outbox.where('status').equals('pending').toArray();
    const waiting = new Set(pending.map((entry) => starHandleOf(entry.path)).filter((h): h is string => h !== null));
    const rows = await db.entities.where('type').equals(STAR_ENTITY).toArray();
    const done = rows.filter((row) => !waiting.has(row.id)).map((row): [string, string] => [row.type, row.id]);
    if (done.length > 0) await db.entities.bulkDelete(done);
  });
}

interface Sync {
  refs: number;
  stop(): void;
}

const syncs = new WeakMap<LocalDb, Sync>();

/**
 * One watcher per database, however many star buttons are shown: when star writes leave the outbox, their rows
 * are dropped; when none is pending any more the starred list is read again, and after a refused write the
 * services too (the optimistic star was wrong).
 */
function subscribeStarSync(db: LocalDb, queryClient: QueryClient, username: string): () => void {
  let sync = syncs.get(db);
  if (!sync) {
    let previous: { pending: number; failed: number } | null = null;
    const subscription = liveQuery(() => db.outbox.filter(isStarEntry).toArray()).subscribe({
      next: (entries) => {
        const now = {
          pending: entries.filter((entry) => entry.status === 'pending').length,
          failed: entries.filter((entry) => entry.status === 'failed').length,
        };
        const before = previous;
        previous = now;
        if (before !== null && now.pending >= before.pending) return;
        void settleStars(db)
          .then(() => {
            if (before === null || now.pending > 0) return;
            void queryClient.invalidateQueries({ queryKey: ['user', username, 'starred'] });
            if (now.failed > before.failed) {
              void queryClient.invalidateQueries({ queryKey: ['service'] });
              void queryClient.invalidateQueries({ queryKey: ['services'] });
              void queryClient.invalidateQueries({ queryKey: ['team'] });
            }
          })
          .catch(() => undefined);
      },
      // A failing IndexedDB leaves the optimistic state as it is.
      error: () => undefined,
    });
    const created: Sync = {
      refs: 0,
      stop: () => {
        subscription.unsubscribe();
        syncs.delete(db);
      },
    };
    syncs.set(db, created);
    sync = created;
  }
  const current = sync;
  current.refs++;
  return () => {
    current.refs--;
    if (current.refs === 0) current.stop();
  };
}

// ---- hooks ----

/**
 * Follows the star writes in the outbox while the calling component is shown (every star button does; so
 * does a screen listing starred services without one), settling them and refreshing the starred list.
 */
export function useStarSync(): void {
  const { state } = useAuth();
  const db = useLocal()?.db ?? null;
  const queryClient = useQueryClient();
  const username = state.user?.handle ?? state.username ?? '';
  useEffect(() => {
    if (!db || !username) return;
    return subscribeStarSync(db, queryClient, username);
  }, [db, queryClient, username]);
}

/**
 * The service as the user should see it: a star still waiting in the outbox (e.g. made offline, the page
 * reloaded since) wins over what the server said last.
 */
export function useStarredView<T extends StarTarget>(service: T): T {
  const db = useLocal()?.db;
  const override = useLiveQuery(async () => {
    if (!db) return undefined;
    const row = await db.entities.get([STAR_ENTITY, service.handle]);
    return (row?.data as StarRow | undefined)?.starred;
  }, [db, service.handle]);
  return override === undefined ? service : withStarred(service, override);
}

/**
 * The star toggle (DESIGN.md 6, one write path): the caches change at once, the star is written to the local
 * database with its request in the outbox, and the outbox sends it when the app is online.
 */
export function useStar(): { toggle(service: StarTarget): Promise<void> } {
  const { api, state } = useAuth();
  const local = useLocal();
  const queryClient = useQueryClient();
  const username = state.user?.handle ?? state.username ?? '';
  useStarSync();

  const toggle = useCallback(
    async (service: StarTarget) => {
      if (!username) return;
      const starred = !service.starred;
      const method = service.starred ? 'DELETE' : 'PUT';
      const path = starPath(username, service.handle);
      await Promise.all([
        cancelServiceFetches(queryClient, service.handle),
        queryClient.cancelQueries({ queryKey: ['user', username, 'starred'] }),
      ]);
      applyStar(queryClient, username, service, starred);
      try {
        if (local) {
          await local.mutate({
            tables: ['entities'],
            apply: async (tx) => {
              const data: StarRow = { starred };
              await tx.entities.put({ type: STAR_ENTITY, id: service.handle, data, updatedAt: Date.now() });
            },
            request: { method, path },
            label: `Star ${service.name}`,
          });
        } else {
          // No local database (not signed in yet): straight to the server.
          await api.send<unknown>(method, path);
        }
      } catch {
        applyStar(queryClient, username, { ...service, starred }, service.starred);
      }
    },
    [api, local, queryClient, username],
  );

  return { toggle };
}
