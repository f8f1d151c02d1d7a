import 'fake-indexeddb/auto';
import { onlineManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LocalDb } from '../../../src/local/db.js';
import {
  createDexiePersister,
  createDexieQueryPersister,
  dexieQueryStorage,
  QUERY_MAX_AGE_MS,
} from '../../../src/local/query-persister.js';
import { freshDb } from './helpers.js';

const services = [{ handle: 'payments', name: 'Payments', updatedAt: new Date('2025-01-02T03:04:05Z') }];
const offline = () => Promise.reject(new TypeError('Failed to fetch'));

function client(db: LocalDb, buster = 'v1'): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { persister: createDexiePersister(db, { buster }), networkMode: 'offlineFirst', retry: false },
    },
  });
}

/** Fetches with one client, so the result is written through to Dexie. */
async function seen(db: LocalDb, buster = 'v1'): Promise<void> {
  const first = client(db, buster);
  expect(await first.fetchQuery({ queryKey: ['services', { team: 'core' }], queryFn: async () => services })).toEqual(
    services,
  );
  await vi.waitFor(async () => expect(await db.queries.count()).toBe(1));
  first.clear();
}

afterEach(() => {
  onlineManager.setOnline(true);
});

describe('createDexiePersister', () => {
  it('writes a fetched query through to the queries table', async () => {
    const db = freshDb();
    await seen(db);
    const [row] = await db.queries.toArray();
    expect(row?.key).toBe('q-["services",{"team":"core"}]');
    expect(row?.updatedAt).toEqual(expect.any(Number));
    expect(row?.value).toMatchObject({
      buster: 'v1',
      queryKey: ['services', { team: 'core' }],
      state: { data: services, status: 'success', error: null, fetchStatus: 'idle' },
    });
  });

  it('restores the data into a fresh QueryClient when the network fetch fails', async () => {
    const db = freshDb();
    await seen(db);

    const fresh = client(db);
    const queryFn = vi.fn(offline);
    const data = await fresh.fetchQuery({ queryKey: ['services', { team: 'core' }], queryFn });
    expect(data).toEqual(services);
    // Dates survive: the row holds the object, not JSON.
    expect((data as typeof services)[0]?.updatedAt).toBeInstanceOf(Date);
    // Without observers a restored query is not refetched: the network was not asked.
    expect(queryFn).not.toHaveBeenCalled();
    expect(fresh.getQueryState(['services', { team: 'core' }])?.dataUpdatedAt).toBeGreaterThan(0);

    // ensureQueryData answers from the restored cache too.
    const other = client(db);
    expect(await other.ensureQueryData({ queryKey: ['services', { team: 'core' }], queryFn: offline })).toEqual(
      services,
    );
  });

  it('renders last-seen data through an observer while offline; the failing refetch keeps the data', async () => {
    const db = freshDb();
    await seen(db);
    onlineManager.setOnline(false);
    const fresh = client(db);
    const queryFn = vi.fn(offline);
    const observer = new QueryObserver(fresh, { queryKey: ['services', { team: 'core' }], queryFn });
    const results: Array<{ data: unknown; status: string }> = [];
    const unsubscribe = observer.subscribe((result) => results.push({ data: result.data, status: result.status }));
    await vi.waitFor(() => expect(results).toContainEqual({ data: services, status: 'success' }));
    // Stale for the observer: refetched in the background, which fails (caught) and keeps the data.
    await vi.waitFor(() => expect(queryFn).toHaveBeenCalledTimes(1));
    await vi.waitFor(() => expect(observer.getCurrentResult()).toMatchObject({ status: 'error', data: services }));
    expect(observer.getCurrentResult().error).toBeInstanceOf(TypeError);
    unsubscribe();
  });

  it('refetches a restored query for an observer and stores the fresh data', async () => {
    const db = freshDb();
    await seen(db);
    const fresh = client(db);
    const newer = [{ handle: 'payments', name: 'Payments v2', updatedAt: new Date() }];
    const observer = new QueryObserver(fresh, { queryKey: ['services', { team: 'core' }], queryFn: async () => newer });
    const seenData: unknown[] = [];
    const unsubscribe = observer.subscribe((result) => seenData.push(result.data));
    await vi.waitFor(() => expect(seenData.at(-1)).toEqual(newer));
    expect(seenData).toContainEqual(services); // the stored data came first
    await vi.waitFor(async () => expect((await db.queries.toArray())[0]?.value.state.data).toEqual(newer));
    unsubscribe();
  });

  it('leaves out queries with meta.persist false', async () => {
    const db = freshDb();
    const first = client(db);
    await first.fetchQuery({ queryKey: ['secret'], queryFn: async () => 's3cret', meta: { persist: false } });
    await first.fetchQuery({ queryKey: ['teams'], queryFn: async () => ['core'] });
    await vi.waitFor(async () => expect(await db.queries.count()).toBe(1));
    expect((await db.queries.toArray())[0]?.key).toBe('q-["teams"]');
  });

  it('does not restore with another buster or after maxAge', async () => {
    const db = freshDb();
    await seen(db, 'v1');
    await expect(
      client(db, 'v2').fetchQuery({ queryKey: ['services', { team: 'core' }], queryFn: offline }),
    ).rejects.toThrow('Failed to fetch');
    // The busted row is removed.
    expect(await db.queries.count()).toBe(0);

    await seen(db, 'v1');
    const later = Date.now() + QUERY_MAX_AGE_MS + 1000;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    try {
      await expect(
        client(db).fetchQuery({ queryKey: ['services', { team: 'core' }], queryFn: offline }),
      ).rejects.toThrow();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('keeps queries apart by key and can restore them all into a client', async () => {
    const db = freshDb();
    const first = client(db);
    await first.fetchQuery({ queryKey: ['teams'], queryFn: async () => ['core'] });
    await first.fetchQuery({ queryKey: ['users', 'ann'], queryFn: async () => ({ handle: 'ann' }) });
    await vi.waitFor(async () => expect(await db.queries.count()).toBe(2));

    const fresh = new QueryClient();
    await createDexieQueryPersister(db, { buster: 'v1' }).restoreQueries(fresh);
    expect(fresh.getQueryData(['teams'])).toEqual(['core']);
    expect(fresh.getQueryData(['users', 'ann'])).toEqual({ handle: 'ann' });
  });

  it('never fails a query when IndexedDB fails', async () => {
    const db = freshDb();
    const storage = dexieQueryStorage(db);
    db.close({ disableAutoOpen: true });
    expect(await storage.getItem('q-x')).toBeNull();
    await expect(storage.setItem('q-x', {} as never)).resolves.toBeUndefined();
    await expect(storage.removeItem('q-x')).resolves.toBeUndefined();
    expect(await storage.entries?.()).toEqual([]);
    const broken = new QueryClient({ defaultOptions: { queries: { persister: createDexiePersister(db) } } });
    expect(await broken.fetchQuery({ queryKey: ['teams'], queryFn: async () => ['core'] })).toEqual(['core']);
  });
});
