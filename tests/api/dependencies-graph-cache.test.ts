/**
 * The graph's answers are kept per process until the graph changes (cache/graph-cache.ts, migration 012).
 * What must hold: a change made by another `beacon serve` process, or straight in the database, shows at once;
 * an answer computed for one viewer is never given to a viewer who may see less; compressed answers are the
 * same graph.
 */
import { randomUUID } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceGraph, type ServiceGraph } from '../../src/contract/dependencies.js';
import { GRAPH_MAX_DEPTH, GRAPH_NODE_LIMIT } from '../../src/domain/graph.js';
import { buildApp } from '../../src/server/app.js';
import { closeContext, createContext } from '../../src/server/bootstrap.js';
import { loadConfig } from '../../src/server/config.js';
import type { ServerContext } from '../../src/server/context.js';
import { walkDependencies } from '../../src/server/db/repositories/dependencies.js';
import { FreshReads } from '../../src/server/cache/answer-cache.js';
import { GraphCache } from '../../src/server/cache/graph-cache.js';
import { addMember, createService, createTeam, seedWorkspace } from '../support/fixtures.js';
import { authHeaders, callAs, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

let server: TestServer;
/** A second `beacon serve` on the same database: its own connections and its own caches. */
let other: { app: FastifyInstance; ctx: ServerContext };
let owner: Member;
let admin: Member;
/** Admin of team payments, which owns the owner-only service vault. */
let alice: Member;
/** A member outside team payments. */
let rita: Member;
/** The owner of otherco, a workspace acme links to. */
let outsider: Member;

const call = (app: FastifyInstance, actor: Member, method: Method, url: string, payload?: object) =>
  app.inject({ method, url, headers: authHeaders(actor), ...(payload ? { payload } : {}) });

/** The graph as `actor` reads it from `app`, checked against the contract. */
async function graphOf(service: string, actor: Member = alice, app: FastifyInstance = server.app) {
  const response = await call(app, actor, 'GET', `/api/services/${service}/graph?depth=2`);
  expect(response.statusCode, response.body).toBe(200);
  return serviceGraph.parse(response.json());
}

const ids = (graph: ServiceGraph) => graph.nodes.map((node) => node.id).sort();
const nodeOf = (graph: ServiceGraph, id: string) => graph.nodes.find((node) => node.id === id);

beforeAll(async () => {
  server = await startTestServer();
  ({ owner, admin, teamAdmin: alice, outsider } = await seedWorkspace(server));
  rita = await addMember(server, owner, 'rita');
  for (const handle of ['checkout', 'ledger', 'search'])
    await createService(server, alice, 'payments', { name: handle, handle });
  await createService(server, alice, 'payments', { name: 'vault', handle: 'vault', visibility: 'owner' });
  for (const [service, on] of [
    ['checkout', 'ledger'],
    ['ledger', 'vault'],
  ])
    expect(
      (await callAs(server, alice, 'POST', `/api/services/${service}/dependencies`, { service: { id: on } }))
        .statusCode,
    ).toBe(201);
  const ctx = await createContext(loadConfig({ ...server.database.env, PORT: '8080' }), pino({ level: 'silent' }));
  other = { ctx, app: await buildApp(ctx) };
  await other.app.ready();
});

afterAll(async () => {
  await other.app.close();
  await closeContext(other.ctx);
  await server.close();
});

describe('the graph cache', () => {
  it('shows a dependency added by another process at once, and one removed in the database', async () => {
    expect(ids(await graphOf('checkout'))).toEqual(['checkout', 'ledger', 'vault']);
    const added = await call(other.app, alice, 'POST', '/api/services/search/dependencies', {
      service: { id: 'checkout' },
    });
    expect(added.statusCode).toBe(201);
    const graph = await graphOf('checkout');
    expect(ids(graph)).toEqual(['checkout', 'ledger', 'search', 'vault']);
    expect(nodeOf(graph, 'checkout')!.dependents).toEqual(['search']);

    // Neither process: a write straight to the database (a script, a restore) bumps the version too.
    const { db } = server.ctx.database;
    await db.deleteFrom('service_dependencies').execute();
    expect(ids(await graphOf('checkout'))).toEqual(['checkout']);
    for (const [service, on] of [
      ['checkout', 'ledger'],
      ['ledger', 'vault'],
    ])
      expect(
        (await call(other.app, alice, 'POST', `/api/services/${service}/dependencies`, { service: { id: on } }))
          .statusCode,
      ).toBe(201);
    expect(ids(await graphOf('checkout'))).toEqual(['checkout', 'ledger', 'vault']);
  });

  it('shows a name and a health changed by another process, and ignores changes a graph does not show', async () => {
    await graphOf('checkout');
    const version = async () =>
      (await sql<{ version: number | string }>`select version from graph_versions`.execute(server.ctx.database.db))
        .rows[0]!.version;
    const before = await version();
    const patched = await call(other.app, alice, 'PATCH', '/api/services/ledger', { description: 'The ledger' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(await version()).toBe(before);

    expect((await call(other.app, alice, 'PATCH', '/api/services/ledger', { name: 'Ledger' })).statusCode).toBe(200);
    const health = await call(other.app, alice, 'POST', '/api/services/ledger/actions/change-health', {
      health: 'critical',
    });
    expect(health.statusCode).toBe(200);
    expect(nodeOf(await graphOf('checkout'), 'ledger')).toMatchObject({ name: 'Ledger', health: 'critical' });
  });

  it('never gives a non-member the answer a member of the owning team was given', async () => {
    // alice (team payments) sees the owner-only vault; her answer is cached first.
    expect(ids(await graphOf('ledger', alice))).toEqual(['checkout', 'ledger', 'vault']);
    expect(ids(await graphOf('ledger', rita))).toEqual(['checkout', 'ledger']);
    expect(ids(await graphOf('ledger', admin))).toEqual(['checkout', 'ledger', 'vault']);
    expect(ids(await graphOf('ledger', rita))).toEqual(['checkout', 'ledger']);
    expect((await call(server.app, rita, 'GET', '/api/services/vault/graph')).statusCode).toBe(404);

    // Joining the team in the other process shows it at once (this one's viewer cache has not heard of it);
    // leaving hides it again.
    const joined = await call(other.app, alice, 'POST', '/api/teams/payments/members', {
      user: { id: rita.id },
      role: 'member',
    });
    expect(joined.statusCode, joined.body).toBe(201);
    expect(ids(await graphOf('ledger', rita))).toEqual(['checkout', 'ledger', 'vault']);
    expect((await call(server.app, rita, 'GET', '/api/services/vault/graph')).statusCode).toBe(200);
    const left = await call(other.app, alice, 'DELETE', `/api/teams/payments/members/${rita.id}`);
    expect(left.statusCode, left.body).toBe(204);
    expect(ids(await graphOf('ledger', rita))).toEqual(['checkout', 'ledger']);
    expect((await call(server.app, rita, 'GET', '/api/services/vault/graph')).statusCode).toBe(404);

    // A service made owner-only in the other process disappears from what non-members were given.
    await graphOf('checkout', rita);
    const hidden = await call(other.app, alice, 'POST', '/api/services/ledger/actions/change-visibility', {
      visibility: 'owner',
    });
    expect(hidden.statusCode).toBe(200);
    expect(ids(await graphOf('checkout', rita))).toEqual(['checkout']);
    expect(ids(await graphOf('checkout', alice))).toEqual(['checkout', 'ledger', 'vault']);
    await call(other.app, alice, 'POST', '/api/services/ledger/actions/change-visibility', { visibility: 'workspace' });
  });

  it('follows a linked workspace: its public service’s health, and the link itself', async () => {
    await createTeam(server, outsider, { name: 'Status', handle: 'status' });
    await createService(server, outsider, 'status', { name: 'Status', handle: 'status', visibility: 'public' });
    expect((await callAs(server, owner, 'POST', '/api/remotes', { remote: 'otherco' })).statusCode).toBe(201);
    const url = '/api/services/checkout/remote-dependencies';
    expect((await callAs(server, alice, 'POST', url, { workspace: 'otherco', service: 'status' })).statusCode).toBe(
      201,
    );
    expect(nodeOf(await graphOf('checkout'), 'otherco:status')).toMatchObject({ health: 'good', workspace: 'otherco' });

    // The linked workspace changes its service in the other process: the graph of this one follows.
    const changed = await call(other.app, outsider, 'POST', '/api/services/status/actions/change-health', {
      health: 'warning',
    });
    expect(changed.statusCode).toBe(200);
    expect(nodeOf(await graphOf('checkout'), 'otherco:status')).toMatchObject({ health: 'warning' });

    expect((await call(other.app, owner, 'DELETE', '/api/remotes/otherco')).statusCode).toBe(204);
    expect(nodeOf(await graphOf('checkout'), 'otherco:status')).toMatchObject({ health: null });
  });

  it('sends the same graph compressed to a client that accepts it', async () => {
    for (let i = 0; i < 30; i++)
      await callAs(server, alice, 'POST', '/api/teams/payments/services', {
        name: `Filler ${i}`,
        handle: `filler-${i}`,
      });
    for (let i = 0; i < 30; i++)
      await callAs(server, alice, 'POST', `/api/services/filler-${i}/dependencies`, { service: { id: 'checkout' } });
    const plain = await call(server.app, alice, 'GET', '/api/services/checkout/graph');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const graph = serviceGraph.parse(plain.json());
    expect(graph.nodes.length).toBeGreaterThan(30);
    for (const [coding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const response = await server.app.inject({
        method: 'GET',
        url: '/api/services/checkout/graph',
        headers: { ...authHeaders(alice), 'accept-encoding': coding === 'br' ? 'gzip, br' : 'gzip' },
      });
      expect(response.headers['content-encoding']).toBe(coding);
      expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
      expect(JSON.parse(decode(response.rawPayload).toString())).toEqual(graph);
    }
  });
});

describe('a graph past the node limit', () => {
  it('keeps the nearest services, the same however deep it is asked for', async () => {
    // bulk-0 <- 50 services <- 2,100 services: the limit is reached at depth 2, well before depth 6.
    const { db } = server.ctx.database;
    const checkout = await db
      .selectFrom('services')
      .selectAll()
      .where('handle', '=', 'checkout')
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const services = Array.from({ length: 2151 }, (_, i) => ({
      ...checkout,
      id: randomUUID(),
      handle: `bulk-${i}`,
      name: `Bulk ${i}`,
    }));
    const dependencies = services.slice(1).map((service, i) => ({
      workspace_id: checkout.workspace_id,
      service_id: service.id,
      dependency_id: i < 50 ? services[0]!.id : services[1 + (i % 50)]!.id,
      created_at: now,
    }));
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < services.length; i += 100) {
        const rows = services.slice(i, i + 100).map(({ search_text: _search, starred_count: _starred, ...row }) => row);
        await trx.insertInto('services').values(rows).execute();
      }
      for (let i = 0; i < dependencies.length; i += 200)
        await trx
          .insertInto('service_dependencies')
          .values(dependencies.slice(i, i + 200))
          .execute();
    });
    const walked = await walkDependencies(db, services[0]!.id, [], GRAPH_MAX_DEPTH, GRAPH_NODE_LIMIT + 1);
    expect(walked).toHaveLength(GRAPH_NODE_LIMIT + 1);
    for (const depth of [2, GRAPH_MAX_DEPTH]) {
      const response = await call(server.app, alice, 'GET', `/api/services/bulk-0/graph?depth=${depth}`);
      const graph = serviceGraph.parse(response.json());
      expect(graph.truncated).toBe(true);
      expect(graph.nodes.map((node) => node.id)).toEqual(walked.slice(0, GRAPH_NODE_LIMIT).map((row) => row.handle));
    }
  });
});

describe('FreshReads', () => {
  it('gives a request a read that started after it came, shared with the others that came meanwhile', async () => {
    const reads = new FreshReads<number>();
    let started = 0;
    const read = async () => {
      const mine = (started += 1);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return mine;
    };
    const first = reads.read('k', read);
    const waiting = [reads.read('k', read), reads.read('k', read)];
    const other = reads.read('other', read);
    expect(started).toBe(2);
    expect(await first).toBe(1);
    expect(await Promise.all(waiting)).toEqual([3, 3]);
    expect(await other).toBe(2);
    expect(await reads.read('k', read)).toBe(4);
  });
});

describe('GraphCache', () => {
  const bytes = (n: number) => Buffer.alloc(n, 'x');

  it('computes an answer once however many ask meanwhile, and keeps no failure', async () => {
    const cache = new GraphCache(1_000_000);
    let computed = 0;
    const compute = async () => {
      computed += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return bytes(10);
    };
    const answers = await Promise.all([1, 2, 3].map(() => cache.answer('w', 'w=1', 'k', compute)));
    expect(computed).toBe(1);
    expect(new Set(answers).size).toBe(1);
    await expect(cache.answer('w', 'w=1', 'missing', () => Promise.reject(new Error('404')))).rejects.toThrow('404');
    await cache.answer('w', 'w=1', 'missing', async () => bytes(1));
    expect(cache.size).toBe(11);
  });

  it('forgets a workspace’s answers when its versions change, and the least recently used beyond its budget', async () => {
    const cache = new GraphCache(100);
    const teams = async () => ['b', 'a'];
    expect(await cache.restrictedTeams('w', 'w=1', teams)).toEqual(['a', 'b']);
    await cache.answer('w', 'w=1', 'one', async () => bytes(40));
    await cache.answer('w', 'w=1', 'two', async () => bytes(40));
    await cache.answer('w', 'w=1', 'one', async () => bytes(99));
    await cache.answer('w', 'w=1', 'three', async () => bytes(40));
    // 'two' was the least recently used.
    expect(cache.size).toBe(80);
    expect((await cache.answer('w', 'w=1', 'one', async () => bytes(1))).body.length).toBe(40);
    await cache.restrictedTeams('w', 'w=2', teams);
    expect(cache.size).toBe(0);
  });
});
