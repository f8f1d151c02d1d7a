import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftPage } from '../../src/contract/pages.js';
import { buildApp } from '../../src/server/app.js';
import { closeContext, createContext } from '../../src/server/bootstrap.js';
import type { ServerContext } from '../../src/server/context.js';
import { createService, seedWorkspace } from '../support/fixtures.js';
import { authHeaders, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

/**
 * Issue 25 and docs/api.md#conventions: writes that take an Idempotency-Key keep their first answer per caller and key,
 * in the database. A replay (what the outbox sends when an answer was lost) answers the same and changes nothing,
 * also from another process and after a restart; the same key with another request is 422.
 */
let server: TestServer;
let bob: Member;
let alice: Member;

beforeAll(async () => {
  server = await startTestServer();
  ({ teamAdmin: alice, teamMember: bob } = await seedWorkspace(server, { domain: 'replayco' }));
  await createService(server, alice, 'payments', { name: 'Billing', handle: 'billing' });
});
afterAll(() => server.close());

let keys = 0;
const newKey = () => `key-${++keys}-${Date.now()}`;

function send(app: FastifyInstance, actor: Member, method: Method, url: string, key: string, payload?: object) {
  return app.inject({
    method,
    url,
    headers: { ...authHeaders(actor), 'idempotency-key': key },
    ...(payload ? { payload } : {}),
  });
}

/** Sends once, then replays with the same key and body: the replay answers the same status and body. */
async function onceAndReplay(
  actor: Member,
  method: Method,
  url: string,
  payload?: object,
  replayOn: FastifyInstance = server.app,
) {
  const key = newKey();
  const first = await send(server.app, actor, method, url, key, payload);
  const replay = await send(replayOn, actor, method, url, key, payload);
  expect(replay.statusCode, `${method} ${url}: ${replay.body}`).toBe(first.statusCode);
  expect(replay.body).toBe(first.body);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(first.headers['idempotent-replayed']).toBeUndefined();
  return { first, replay, key };
}

const body = <T>(response: LightMyRequestResponse) => json<T>(response);
const read = async <T>(actor: Member, url: string) => {
  const response = await server.app.inject({ method: 'GET', url, headers: authHeaders(actor) });
  expect(response.statusCode, response.body).toBe(200);
  return json<T>(response);
};

describe('replayed writes', () => {
  const drafts = '/api/services/billing/draft-pages';
  const draftUrl = `${drafts}/announcements/replayed`;

  it('a draft created, saved, published, unpublished and deleted: each replay answers as the first time', async () => {
    const created = await onceAndReplay(bob, 'POST', drafts, {
      section: 'announcements',
      title: 'Replayed',
      content: 'One',
    });
    expect(created.first.statusCode).toBe(201);
    expect((await read<DraftPage[]>(bob, `${drafts}?section=announcements`)).map((d) => d.handle)).toEqual([
      'replayed',
    ]);

    // The outbox's case: the save applied, its answer lost, the same save sent again. Not a 412.
    const saved = await onceAndReplay(bob, 'PATCH', draftUrl, { content: 'Two', lock: 1 });
    expect(saved.first.statusCode).toBe(200);
    expect(body<DraftPage>(saved.replay)).toMatchObject({ content: 'Two', lock: 2, revisions: 2 });
    expect(await read<DraftPage>(bob, draftUrl)).toMatchObject({ content: 'Two', lock: 2, revisions: 2 });

    const published = await onceAndReplay(bob, 'POST', `${draftUrl}/actions/publish`);
    expect(body<DraftPage>(published.replay).is_published).toBe(true);
    const unpublished = await onceAndReplay(bob, 'POST', `${draftUrl}/actions/unpublish`);
    expect(body<DraftPage>(unpublished.replay).is_published).toBe(false);
    const deleted = await onceAndReplay(bob, 'DELETE', draftUrl);
    expect(deleted.first.statusCode).toBe(204);
    expect((await server.app.inject({ method: 'GET', url: draftUrl, headers: authHeaders(bob) })).statusCode).toBe(404);
  });

  it("through a section's own door and its content page", async () => {
    const created = await onceAndReplay(bob, 'POST', '/api/services/billing/api-docs-drafts', {
      version: 'v1',
      content: '# API',
    });
    const { id } = body<DraftPage>(created.first);
    const saved = await onceAndReplay(bob, 'PATCH', `/api/api-docs-drafts/${id}`, { content: '# API 2', lock: 1 });
    expect(body<DraftPage>(saved.replay).lock).toBe(2);
    const page = await onceAndReplay(bob, 'PATCH', `/api/api-docs-drafts/${id}/pages/index.md`, {
      content: '# API 3',
      lock: 2,
    });
    expect(body<DraftPage>(page.replay)).toMatchObject({ content: '# API 3', lock: 3 });
    expect(await read<DraftPage>(bob, `/api/api-docs-drafts/${id}`)).toMatchObject({ lock: 3, revisions: 3 });
  });

  it('notices: opened and updated once', async () => {
    const opened = await onceAndReplay(bob, 'POST', '/api/services/billing/notices', {
      type: 'incident',
      title: 'Slow payments',
      message: 'Looking',
      health: 'warning',
    });
    const notice = body<{ id: string }>(opened.first);
    await onceAndReplay(bob, 'PATCH', `/api/notices/${notice.id}`, { status: 'identified', message: 'Found it' });
    const list = await read<{ id: string; history: unknown[] }[]>(bob, '/api/services/billing/notices');
    expect(list.map((n) => n.id)).toEqual([notice.id]);
    expect(list[0]!.history).toHaveLength(2);
  });

  it('a client error is the answer too: a stale save stays 412 on replay', async () => {
    await send(server.app, bob, 'POST', drafts, newKey(), { section: 'release-notes', title: 'Stale' });
    const url = `${drafts}/release-notes/stale`;
    await send(server.app, alice, 'PATCH', url, newKey(), { content: 'Alice', lock: 1 });
    const stale = await onceAndReplay(bob, 'PATCH', url, { content: 'Bob', lock: 1 });
    expect(stale.first.statusCode).toBe(412);
    expect((await read<DraftPage>(bob, url)).content).toBe('Alice');
  });

  it('the same key with another request is 422 and changes nothing', async () => {
    await send(server.app, bob, 'POST', drafts, newKey(), { section: 'release-notes', title: 'Reused' });
    const url = `${drafts}/release-notes/reused`;
    const key = newKey();
    expect((await send(server.app, bob, 'PATCH', url, key, { content: 'First', lock: 1 })).statusCode).toBe(200);
    const other = await send(server.app, bob, 'PATCH', url, key, { content: 'Second', lock: 2 });
    expect(other.statusCode).toBe(422);
    expect(json(other)).toMatchObject({ message: expect.stringMatching(/Idempotency-Key/) });
    // Another path with the key is another request too.
    expect((await send(server.app, bob, 'POST', `${url}/actions/publish`, key)).statusCode).toBe(422);
    expect(await read<DraftPage>(bob, url)).toMatchObject({ content: 'First', lock: 2, is_published: false });
  });

  it("keys are each caller's own", async () => {
    await send(server.app, bob, 'POST', drafts, newKey(), { section: 'release-notes', title: 'Shared key' });
    const url = `${drafts}/release-notes/shared-key`;
    const key = newKey();
    expect((await send(server.app, bob, 'PATCH', url, key, { content: 'Bob', lock: 1 })).statusCode).toBe(200);
    // Alice's request with Bob's key runs as hers: a stale lock, so 412, not Bob's kept 200.
    expect((await send(server.app, alice, 'PATCH', url, key, { content: 'Bob', lock: 1 })).statusCode).toBe(412);
  });

  it('a kept answer lasts 24 hours; after that the key is free again', async () => {
    await send(server.app, bob, 'POST', drafts, newKey(), { section: 'release-notes', title: 'Day old' });
    const url = `${drafts}/release-notes/day-old`;
    const key = newKey();
    expect((await send(server.app, bob, 'PATCH', url, key, { content: 'A', lock: 1 })).statusCode).toBe(200);
    const age = (hours: number) =>
      server.ctx.database.db
        .updateTable('idempotency_keys')
        .set({ created_at: new Date(Date.now() - hours * 3600_000).toISOString() })
        .where('key', '=', key)
        .execute();
    await age(23.9);
    const replay = await send(server.app, bob, 'PATCH', url, key, { content: 'A', lock: 1 });
    expect([replay.statusCode, replay.headers['idempotent-replayed']]).toEqual([200, 'true']);
    await age(24.1);
    // Gone: the same request runs again, and its lock is stale now.
    expect((await send(server.app, bob, 'PATCH', url, key, { content: 'A', lock: 1 })).statusCode).toBe(412);
  });

  it('writes without a key are not kept', async () => {
    const url = `${drafts}`;
    const once = await server.app.inject({
      method: 'POST',
      url,
      headers: authHeaders(bob),
      payload: { section: 'release-notes', title: 'No key' },
    });
    expect(once.statusCode).toBe(201);
    const twice = await server.app.inject({
      method: 'POST',
      url,
      headers: authHeaders(bob),
      payload: { section: 'release-notes', title: 'No key' },
    });
    expect(twice.statusCode).toBe(422);
  });
});

describe('replays from another process and after a restart', () => {
  /** Another server on the same database: its own memory, caches and connections. */
  async function anotherProcess(): Promise<{ app: FastifyInstance; ctx: ServerContext }> {
    const ctx = await createContext(server.ctx.config, pino({ level: 'silent' }));
    const app = await buildApp(ctx);
    await app.ready();
    return { app, ctx };
  }
  const stop = async ({ app, ctx }: { app: FastifyInstance; ctx: ServerContext }) => {
    await app.close();
    await closeContext(ctx);
  };

  it('answers a replay sent to another process as the first time, and again after that process restarts', async () => {
    await send(server.app, bob, 'POST', '/api/services/billing/draft-pages', newKey(), {
      section: 'announcements',
      title: 'Elsewhere',
    });
    const url = '/api/services/billing/draft-pages/announcements/elsewhere';
    const payload = { content: 'Saved once', lock: 1 };
    const other = await anotherProcess();
    let key: string;
    try {
      ({ key } = await onceAndReplay(bob, 'PATCH', url, payload, other.app));
    } finally {
      await stop(other);
    }
    const restarted = await anotherProcess();
    try {
      const replay = await send(restarted.app, bob, 'PATCH', url, key, payload);
      expect(replay.statusCode).toBe(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(json<DraftPage>(replay)).toMatchObject({ content: 'Saved once', lock: 2 });
    } finally {
      await stop(restarted);
    }
    expect(await read<DraftPage>(bob, url)).toMatchObject({ lock: 2, revisions: 2 });
  });
});
