import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LocalDb, OutboxEntry } from '../../../src/local/db.js';
import {
  discard,
  failedCount,
  failedEntries,
  mutate,
  outcomeOf,
  pendingCount,
  pendingEntries,
  replay,
  retry,
  startOutboxSync,
  type OutboxSend,
  type SendResult,
} from '../../../src/local/outbox.js';
import { freshDb, pathOf, testWrite } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Stars a service locally and queues the API call. */
function star(db: LocalDb, handle: string): Promise<OutboxEntry> {
  return mutate(db, {
    tables: ['entities'],
    apply: async (tx) => {
      await tx.entities.put({ type: 'service', id: handle, data: { handle, starred: true }, updatedAt: Date.now() });
    },
    write: testWrite(`/services/${handle}/star`),
    label: `Star ${handle}`,
  });
}

/** A `send` that answers from a script of statuses (or throws for 'offline') and records what it got. */
function scripted(...answers: Array<number | 'offline'>) {
  const calls: OutboxEntry[] = [];
  const send: OutboxSend = async (entry) => {
    calls.push(entry);
    const answer = answers.shift() ?? 204;
    if (answer === 'offline') throw new TypeError('Failed to fetch');
    return { status: answer };
  };
  return { send, calls, paths: () => calls.map((c) => pathOf(c)) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('mutate', () => {
  it('applies the local change and appends the outbox entry', async () => {
    const db = freshDb();
    const entry = await star(db, 'payments');
    expect(entry).toMatchObject({
      seq: expect.any(Number),
      kind: 'test',
      operation: 'test',
      input: { path: '/services/payments/star' },
      status: 'pending',
      attempts: 0,
      label: 'Star payments',
    });
    expect(entry.key).toMatch(UUID);
    expect(entry.input).not.toHaveProperty('body');
    expect(entry).not.toHaveProperty('view');
    expect((await db.entities.get(['service', 'payments']))?.data).toEqual({ handle: 'payments', starred: true });
    expect(await db.outbox.toArray()).toEqual([entry]);
    expect(await pendingCount(db)).toBe(1);
  });

  it('keeps the input and gives every entry its own key, in order', async () => {
    const db = freshDb();
    const a = await mutate(db, {
      tables: ['drafts'],
      apply: async (tx) => {
        await tx.drafts.put({ id: 'n1', data: { title: 'Outage' }, version: 3, updatedAt: 1 });
      },
      write: testWrite('/drafts/n1', { title: 'Outage', version: 3 }),
      label: 'Edit draft',
    });
    const b = await star(db, 'billing');
    expect(b.seq).toBeGreaterThan(a.seq);
    expect(a.key).not.toBe(b.key);
    expect((await db.outbox.get(a.seq))?.input).toEqual({ path: '/drafts/n1', body: { title: 'Outage', version: 3 } });
  });

  it('is atomic: when apply throws neither the local change nor the entry exists', async () => {
    const db = freshDb();
    await expect(
      mutate(db, {
        tables: ['entities'],
        apply: async (tx) => {
          await tx.entities.put({ type: 'service', id: 'payments', data: { starred: true }, updatedAt: 1 });
          throw new Error('boom');
        },
        write: testWrite('/services/payments/star'),
        label: 'Star payments',
      }),
    ).rejects.toThrow('boom');
    expect(await db.entities.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });

  it('is atomic when the outbox write fails: the local change is rolled back', async () => {
    const db = freshDb();
    await expect(
      mutate(db, {
        tables: ['entities'],
        apply: (tx) => void tx.entities.put({ type: 'team', id: 'core', data: {}, updatedAt: 1 }),
        // A function cannot be cloned into IndexedDB: the add of the entry fails after apply ran.
        write: testWrite('/x', { fn: () => 1 }),
        label: 'x',
      }),
    ).rejects.toThrow();
    expect(await db.entities.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });

  it('refuses a table apply did not declare (and writes nothing)', async () => {
    const db = freshDb();
    await expect(
      mutate(db, {
        apply: async (tx) => {
          await tx.entities.put({ type: 'team', id: 'core', data: {}, updatedAt: 1 });
        },
        write: testWrite('/teams/core/mute'),
        label: 'Mute core',
      }),
    ).rejects.toThrow();
    expect(await db.entities.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('outcomeOf', () => {
  it('sorts statuses into done, failed and retry-later', () => {
    for (const s of [200, 201, 204]) expect(outcomeOf(s)).toBe('done');
    for (const s of [400, 403, 404, 409, 412, 422, 302]) expect(outcomeOf(s)).toBe('failed');
    for (const s of [0, 401, 408, 429, 500, 502, 503]) expect(outcomeOf(s)).toBe('retry-later');
  });
});

describe('replay', () => {
  it('sends in seq order with each entry and its Idempotency-Key, and deletes on 2xx', async () => {
    const db = freshDb();
    const entries = [await star(db, 'a'), await star(db, 'b'), await star(db, 'c')];
    const { send, calls } = scripted(200, 201, 204);
    expect(await replay(db, send)).toEqual({ sent: 3, failed: 0, stopped: null });
    expect(calls.map((c) => [c.seq, c.key, pathOf(c)])).toEqual(entries.map((e) => [e.seq, e.key, pathOf(e)]));
    expect(await db.outbox.count()).toBe(0);
    // The local change stays.
    expect(await db.entities.count()).toBe(3);
  });

  it('stops on a network error and keeps the order for the next run, with the same key', async () => {
    const db = freshDb();
    const [a, b, c] = [await star(db, 'a'), await star(db, 'b'), await star(db, 'c')];
    const first = scripted(204, 'offline');
    expect(await replay(db, first.send)).toEqual({ sent: 1, failed: 0, stopped: 'network' });
    expect(first.paths()).toEqual([pathOf(a), pathOf(b)]);
    const left = await pendingEntries(db);
    expect(left.map((e) => e.seq)).toEqual([b.seq, c.seq]);
    expect(left[0]).toMatchObject({ status: 'pending', attempts: 1, lastError: 'Failed to fetch', key: b.key });

    const second = scripted(204, 204);
    expect(await replay(db, second.send)).toEqual({ sent: 2, failed: 0, stopped: null });
    expect(second.calls.map((e) => [pathOf(e), e.key])).toEqual([
      [pathOf(b), b.key],
      [pathOf(c), c.key],
    ]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('marks a 4xx failed, keeps it and goes on with the next', async () => {
    const db = freshDb();
    const [a, b, c] = [await star(db, 'a'), await star(db, 'b'), await star(db, 'c')];
    const calls: string[] = [];
    const answers: Record<string, SendResult> = {
      [pathOf(a)]: { status: 412, message: 'The draft was changed by someone else.' },
      [pathOf(b)]: { status: 409 },
      [pathOf(c)]: { status: 204 },
    };
    const result = await replay(db, async (entry) => {
      calls.push(pathOf(entry));
      return answers[pathOf(entry)]!;
    });
    expect(result).toEqual({ sent: 1, failed: 2, stopped: null });
    expect(calls).toEqual([pathOf(a), pathOf(b), pathOf(c)]);
    const failed = await failedEntries(db);
    expect(failed.map((e) => [e.seq, e.status, e.lastStatus, e.lastError, e.attempts])).toEqual([
      [a.seq, 'failed', 412, '412 The draft was changed by someone else.', 1],
      [b.seq, 'failed', 409, 'HTTP 409', 1],
    ]);
    expect(await pendingCount(db)).toBe(0);
    expect(await failedCount(db)).toBe(2);

    // A later replay does not send failed entries again.
    const again = scripted();
    expect(await replay(db, again.send)).toEqual({ sent: 0, failed: 0, stopped: null });
    expect(again.calls).toEqual([]);
  });

  it('stops on a 5xx, counts the attempt and keeps the entry pending', async () => {
    const db = freshDb();
    const [a, b] = [await star(db, 'a'), await star(db, 'b')];
    const first = scripted(503);
    expect(await replay(db, first.send)).toEqual({ sent: 0, failed: 0, stopped: 'retry-later' });
    expect(first.paths()).toEqual([pathOf(a)]);
    expect(await db.outbox.get(a.seq)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatus: 503,
      lastError: 'HTTP 503',
    });
    const second = scripted(500);
    await replay(db, second.send);
    expect((await db.outbox.get(a.seq))?.attempts).toBe(2);
    const third = scripted(204, 204);
    expect(await replay(db, third.send)).toEqual({ sent: 2, failed: 0, stopped: null });
    expect(third.paths()).toEqual([pathOf(a), pathOf(b)]);
  });

  it('stops on a 401 or 429 instead of dropping the write', async () => {
    const db = freshDb();
    await star(db, 'a');
    expect((await replay(db, scripted(401).send)).stopped).toBe('retry-later');
    expect((await replay(db, scripted(429).send)).stopped).toBe('retry-later');
    expect(await pendingCount(db)).toBe(1);
  });

  it('runs once at a time: two concurrent calls send each entry exactly once', async () => {
    const db = freshDb();
    for (const h of ['a', 'b', 'c', 'd']) await star(db, h);
    const calls: number[] = [];
    const send: OutboxSend = async (entry) => {
      calls.push(entry.seq);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { status: 204 };
    };
    const one = replay(db, send);
    const two = replay(db, send);
    expect(two).toBe(one);
    await Promise.all([one, two]);
    expect(calls).toHaveLength(4);
    expect(new Set(calls).size).toBe(4);
    expect(calls).toEqual([...calls].sort((x, y) => x - y));
    expect(await db.outbox.count()).toBe(0);

    // Once finished, a new call starts a new run.
    const three = replay(db, send);
    expect(three).not.toBe(one);
    await three;
  });

  it('sends a write made while a replay runs in the same run', async () => {
    const db = freshDb();
    await star(db, 'a');
    const paths: string[] = [];
    let made = false;
    const send: OutboxSend = async (entry) => {
      paths.push(pathOf(entry));
      if (!made) {
        made = true;
        await star(db, 'b');
      }
      return { status: 204 };
    };
    expect(await replay(db, send)).toEqual({ sent: 2, failed: 0, stopped: null });
    expect(paths).toEqual(['/services/a/star', '/services/b/star']);
  });

  it('takes the cross-tab Web Lock named after the database where the browser has one', async () => {
    const db = freshDb();
    await star(db, 'a');
    const names: string[] = [];
    vi.stubGlobal('navigator', {
      locks: {
        request: async <T>(name: string, task: () => Promise<T>) => {
          names.push(name);
          return task();
        },
      },
    });
    expect((await replay(db, scripted(204).send)).sent).toBe(1);
    expect(names).toEqual([`beacon-outbox:${db.name}`]);
  });
});

describe('retry and discard', () => {
  it('retry puts a failed entry back in line with its key; discard deletes it', async () => {
    const db = freshDb();
    const [a, b] = [await star(db, 'a'), await star(db, 'b')];
    await replay(db, scripted(422, 409).send);
    expect(await failedCount(db)).toBe(2);

    expect(await retry(db, a.seq)).toBe(true);
    expect(await retry(db, a.seq)).toBe(false); // already pending
    expect(await db.outbox.get(a.seq)).toMatchObject({ status: 'pending', attempts: 1, key: a.key });
    expect(await db.outbox.get(a.seq)).not.toHaveProperty('lastError');

    await discard(db, b.seq);
    expect(await db.outbox.get(b.seq)).toBeUndefined();

    const next = scripted(204);
    expect(await replay(db, next.send)).toEqual({ sent: 1, failed: 0, stopped: null });
    expect(next.calls.map((e) => e.key)).toEqual([a.key]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('retry of a missing entry answers false', async () => {
    const db = freshDb();
    expect(await retry(db, 999)).toBe(false);
  });
});

describe('startOutboxSync', () => {
  it('replays at once, after a write, on a timer, and stops', async () => {
    const db = freshDb();
    await star(db, 'a');
    const { send, paths } = scripted();
    const stop = startOutboxSync(db, send, { intervalMs: 60_000 });
    await vi.waitFor(() => expect(paths()).toEqual(['/services/a/star']));
    await star(db, 'b');
    await vi.waitFor(() => expect(paths()).toEqual(['/services/a/star', '/services/b/star']));
    stop();
    await star(db, 'c');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(paths()).toHaveLength(2);
    expect(await pendingCount(db)).toBe(1);
  });

  it('retries on the timer after a 5xx', async () => {
    const db = freshDb();
    await star(db, 'a');
    const { send, paths } = scripted(503, 503);
    const stop = startOutboxSync(db, send, { intervalMs: 10 });
    await vi.waitFor(() => expect(paths()).toHaveLength(3));
    stop();
    expect(await db.outbox.count()).toBe(0);
  });

  it('replays on the window online and focus events, and not while navigator says offline', async () => {
    const db = freshDb();
    const target = new EventTarget();
    const nav = { onLine: false };
    vi.stubGlobal('window', target);
    vi.stubGlobal('navigator', nav);
    await star(db, 'a');
    const { send, paths } = scripted('offline');
    const stop = startOutboxSync(db, send, { intervalMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(paths()).toEqual([]); // offline: not even tried

    nav.onLine = true;
    target.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(paths()).toHaveLength(1)); // answered by a network error
    expect(await pendingCount(db)).toBe(1);

    target.dispatchEvent(new Event('focus'));
    await vi.waitFor(() => expect(paths()).toHaveLength(2));
    await vi.waitFor(async () => expect(await pendingCount(db)).toBe(0));

    stop();
    await star(db, 'b');
    target.dispatchEvent(new Event('focus'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(paths()).toHaveLength(2);
  });

  it('reports a failing replay to onError', async () => {
    const db = freshDb();
    await star(db, 'a');
    const errors: unknown[] = [];
    db.close();
    const stop = startOutboxSync(db, scripted().send, { intervalMs: 60_000, onError: (e) => errors.push(e) });
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    stop();
  });
});
