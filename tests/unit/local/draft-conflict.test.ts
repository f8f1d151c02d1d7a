import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/app/api/client.js';
import { keys } from '../../../src/app/api/query-keys.js';
import { conflictsOf, outboxSender, PendingWrites, settleConflict, WriteKinds } from '../../../src/app/local/writes.js';
import { draftSaveWrite } from '../../../src/app/pages/draft-writes.js';
import type { DraftPage } from '../../../src/contract/pages.js';
import { failedEntries, mutate, replay } from '../../../src/local/outbox.js';
import { freshDb } from './helpers.js';

const theirs: DraftPage = {
  id: 'd1',
  handle: 'launch',
  section: 'announcements',
  title: 'Launch',
  content: 'Their text',
  lock: 3,
  is_published: false,
  published_at: null,
  updated_at: '2026-11-23T10:00:00.000Z',
  updated_by: { name: 'Ann' },
  revisions: 3,
};

/** A server holding one draft at `theirs.lock`: a save on another lock is 412 with the current draft. */
function draftServer() {
  let current = theirs;
  const saves: Array<{ url: string; body: { title?: string; content?: string; lock: number }; key: string }> = [];
  const fetch = async (url: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { title?: string; content?: string; lock: number };
    saves.push({ url: String(url), body, key: (init?.headers as Record<string, string>)['idempotency-key']! });
    if (body.lock !== current.lock)
      return new Response(JSON.stringify(current), { status: 412, headers: { 'content-type': 'application/json' } });
    current = { ...current, ...body, lock: current.lock + 1, revisions: current.revisions + 1 };
    return new Response(JSON.stringify(current), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, saves, current: () => current };
}

const params = { service: 'payments', section: 'announcements' as const, handle: 'launch' };
const kinds = new WriteKinds([draftSaveWrite]);

async function saveOffline(db: ReturnType<typeof freshDb>, content: string, lock: number) {
  await mutate(db, {
    write: { kind: 'draft-save', operation: 'updateDraftPage', input: { params, body: { content, lock } } },
    label: 'Save Launch',
  });
}

describe('draft saves through the outbox', () => {
  it('replays a save made offline once, with its lock', async () => {
    const db = freshDb();
    const server = draftServer();
    const api = createApiClient({ getToken: () => 't', refreshToken: async () => null, fetch: server.fetch });
    await saveOffline(db, 'My text', 3);
    expect(await replay(db, outboxSender(api, kinds))).toEqual({ sent: 1, failed: 0, stopped: null });
    expect(server.saves.map((save) => [save.url, save.body])).toEqual([
      ['/api/services/payments/draft-pages/announcements/launch', { content: 'My text', lock: 3 }],
    ]);
    expect(server.current()).toMatchObject({ content: 'My text', lock: 4 });
    expect(await replay(db, outboxSender(api, kinds))).toEqual({ sent: 0, failed: 0, stopped: null });
  });

  it('keeps a stale save as a conflict with both texts, and keeping mine sends it on the current lock', async () => {
    const db = freshDb();
    const server = draftServer();
    const api = createApiClient({ getToken: () => 't', refreshToken: async () => null, fetch: server.fetch });
    // Edited offline from lock 2; someone else saved meanwhile (the server is at 3).
    await saveOffline(db, 'My text', 2);
    expect(await replay(db, outboxSender(api, kinds))).toEqual({ sent: 0, failed: 1, stopped: null });
    expect(server.current().content).toBe('Their text');

    const [conflict] = conflictsOf(await failedEntries(db), kinds);
    expect(conflict).toMatchObject({ kind: 'draft-save', mine: { params, body: { content: 'My text', lock: 2 } } });
    expect(conflict!.theirs).toEqual(theirs);

    await settleConflict(db, kinds, conflict!, 'mine');
    expect(await replay(db, outboxSender(api, kinds))).toEqual({ sent: 1, failed: 0, stopped: null });
    expect(server.saves.at(-1)!.body).toEqual({ content: 'My text', lock: 3 });
    // Another write than the refused one: another Idempotency-Key.
    expect(server.saves.at(-1)!.key).not.toBe(server.saves[0]!.key);
    expect(server.current()).toMatchObject({ content: 'My text', lock: 4 });
  });

  it('taking theirs drops the save and overwrites nothing', async () => {
    const db = freshDb();
    const server = draftServer();
    const api = createApiClient({ getToken: () => 't', refreshToken: async () => null, fetch: server.fetch });
    await saveOffline(db, 'My text', 1);
    await replay(db, outboxSender(api, kinds));
    const [conflict] = conflictsOf(await failedEntries(db), kinds);
    await settleConflict(db, kinds, conflict!, 'theirs');
    expect(await db.outbox.count()).toBe(0);
    expect(server.saves).toHaveLength(1);
    expect(server.current()).toEqual(theirs);
  });

  it('shows a pending save over the draft the server answered, and only over that draft', () => {
    const pending = new PendingWrites(kinds);
    pending.hold({ kind: 'draft-save', input: { params, body: { content: 'My text', lock: 3 } } });
    expect(pending.overlay(keys.draft('payments', 'announcements', 'launch'), theirs)).toEqual({
      ...theirs,
      content: 'My text',
    });
    expect(pending.overlay(keys.draft('payments', 'announcements', 'other'), theirs)).toBe(theirs);
  });
});
