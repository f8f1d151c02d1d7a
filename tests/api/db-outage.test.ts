/**
 * The database goes away and comes back under load (issue 10): the server's connections are killed with
 * pg_terminate_backend, then the database cannot be reached at all for a few seconds (the server talks to it
 * through a TCP proxy the test closes). The process keeps running, answers 503 with Retry-After meanwhile,
 * recovers by itself, and every write it acknowledged is in the database afterwards; the shared runner pauses
 * and loses none of its results.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSharedAgents } from '../../src/runner/probe.js';
import { startSharedRunner } from '../../src/server/jobs/shared-runner.js';
import { TEST_ENGINE, TEST_POSTGRES_URL } from '../support/database.js';
import { createTeam } from '../support/fixtures.js';
import {
  authHeaders,
  hostOf,
  json,
  STRONG_PASSWORD,
  registerWorkspace,
  startTestServer,
  type Member,
  type TestServer,
} from '../support/server.js';
import { TcpProxy } from '../support/tcp-proxy.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(TEST_ENGINE === 'postgres')('the database going away on PostgreSQL', () => {
  let proxy: TcpProxy;
  let server: TestServer;
  let owner: Member;
  let admin: pg.Client;
  let target: Server;
  /** Probes the target received; each is answered after PROBE_MS, so one can be in flight as the database goes. */
  let probes = 0;
  let onProbe = () => {};
  const PROBE_MS = 600;

  beforeAll(async () => {
    const direct = new URL(TEST_POSTGRES_URL);
    proxy = new TcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(TEST_POSTGRES_URL);
    viaProxy.port = String(await proxy.open());
    server = await startTestServer({
      DATABASE_URL: viaProxy.toString(),
      BEACON_DB_CONNECT_TIMEOUT_MS: '1000',
      BEACON_ALLOW_PRIVATE_TARGETS: '1',
    });
    owner = await registerWorkspace(server, 'outage');
    await createTeam(server, owner, { name: 'Ops', handle: 'ops' });
    // Never through the proxy: the test's own view of the database.
    admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    target = createServer((_request, response) => {
      probes++;
      onProbe();
      setTimeout(() => response.end('ok'), PROBE_MS);
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await proxy.open();
    await server.close();
    await admin.end();
    await closeSharedAgents();
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
    await proxy.close();
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    server.app.inject({ method, url, headers: authHeaders(owner), ...(payload ? { payload } : {}) });

  it('keeps running, answers 503 with Retry-After meanwhile, recovers, and loses no acknowledged write', async () => {
    const schema = server.database.env.BEACON_DATABASE_SCHEMA!;
    const check = await call('POST', '/api/teams/ops/services', { name: 'Probed', handle: 'probed' });
    expect(check.statusCode).toBe(201);
    const port = (target.address() as AddressInfo).port;
    const made = await call('POST', '/api/services/probed/health-checks', {
      name: 'Probe',
      endpoint: `http://127.0.0.1:${port}/ok`,
      runner: null,
      frequency: 1,
      timeout: 3,
      allowed_failures: 0,
      importance: 'warning',
      disabled: false,
      paused: false,
    });
    expect(made.statusCode).toBe(201);
    const runner = startSharedRunner(server.ctx, { reloadMs: 500, flushMs: 200, tickMs: 100 });

    // The load: a few workers each creating a service and reading it back, with a pause between rounds.
    const tally = { ok: 0, unavailable: 0, other: [] as string[] };
    const acknowledged: string[] = [];
    const expectStatus = (response: LightMyRequestResponse, status: number) => {
      if (response.statusCode === status) tally.ok++;
      else if (response.statusCode === 503) {
        tally.unavailable++;
        const body = json<Record<string, unknown>>(response);
        if (!response.headers['retry-after'] || Object.keys(body).join() !== 'message')
          tally.other.push(`503 without Retry-After or with more than a message: ${response.body}`);
      } else tally.other.push(`${response.statusCode} ${response.body}`);
    };
    let loading = true;
    const worker = async (n: number) => {
      for (let i = 0; loading; i++) {
        const handle = `load-${n}-${i}`;
        const created = await call('POST', '/api/teams/ops/services', { name: `Load ${n} ${i}`, handle });
        expectStatus(created, 201);
        if (created.statusCode === 201) acknowledged.push(json<{ id: string }>(created).id);
        expectStatus(await call('GET', created.statusCode === 201 ? `/api/services/${handle}` : '/api/teams/ops'), 200);
        await sleep(50);
      }
    };
    const workers = [0, 1, 2].map(worker);
    const waitForOk = async (more: number) => {
      const goal = tally.ok + more;
      const deadline = Date.now() + 15_000;
      while (tally.ok < goal && Date.now() < deadline) await sleep(50);
      expect(tally.ok).toBeGreaterThanOrEqual(goal);
    };
    await waitForOk(20);
    while (probes < 2) await sleep(100);

    // 1. Every connection of this server killed, three times over.
    let terminated = 0;
    for (let round = 0; round < 3; round++) {
      const killed = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
        [`beacon/${schema}`],
      );
      terminated += killed.rowCount ?? 0;
      await sleep(300);
    }
    expect(terminated).toBeGreaterThan(0);
    await waitForOk(20);
    const afterKills = { ...tally };

    // 2. The database out of reach for three seconds (connections cut, new ones refused), from just after a
    // probe started: its result arrives while the database is away and must be kept until it is back.
    const before = tally.unavailable;
    await new Promise<void>((resolve) => (onProbe = resolve));
    await proxy.close();
    await sleep(500);
    const healthz = await server.app.inject({ method: 'GET', url: '/api/healthz' });
    expect(healthz.statusCode).toBe(503);
    expect(healthz.headers['retry-after']).toBeDefined();
    expect(json(healthz)).toEqual({ message: expect.any(String) });
    expect((await server.app.inject({ method: 'GET', url: '/api/livez' })).statusCode).toBe(200);
    await sleep(1000);
    // The shared runner has paused: no probe starts while the database is away.
    const probesPaused = probes;
    await sleep(1500);
    expect(probes).toBe(probesPaused);
    expect(tally.unavailable).toBeGreaterThan(before);

    // 3. Back: readiness returns, the load and the runner carry on by themselves.
    await proxy.open();
    const deadline = Date.now() + 10_000;
    while ((await server.app.inject({ method: 'GET', url: '/api/healthz' })).statusCode !== 200) {
      expect(Date.now()).toBeLessThan(deadline);
      await sleep(100);
    }
    await waitForOk(20);
    const deadlineProbes = Date.now() + 10_000;
    while (probes < probesPaused + 2 && Date.now() < deadlineProbes) await sleep(100);
    expect(probes).toBeGreaterThanOrEqual(probesPaused + 2);

    loading = false;
    await Promise.all(workers);
    await runner.stop();

    // Nothing but 2xx and 503; every acknowledged write and every probe result is in the database.
    expect(tally.other).toEqual([]);
    const stored = await admin.query<{ id: string }>(`select id from ${schema}.services where id = any($1)`, [
      acknowledged,
    ]);
    expect(stored.rowCount).toBe(acknowledged.length);
    const results = await admin.query<{ starts: string }>(
      `select count(distinct start) as starts from ${schema}.health_check_results`,
    );
    expect(Number(results.rows[0]!.starts)).toBe(probes);
    console.info(
      `db outage: ${acknowledged.length} writes acknowledged and stored; ${tally.ok} answers 2xx, ` +
        `${tally.unavailable} answers 503 (${afterKills.unavailable} of them around ${terminated} terminated ` +
        `backends); ${probes} probes, all stored (${probesPaused} before the database went away)`,
    );
  }, 90_000);
});

/**
 * Issue 25: PostgreSQL refusing new connections while the pool holds none: its role's CONNECTION LIMIT reached
 * (as with "too many clients"), the server starting up (57P03), a proxy in front of it cutting every new
 * connection. Reads, writes, logins and readiness answer 503 with Retry-After and a `{message}` body, and the
 * server recovers by itself once connections are accepted again.
 */
describe.runIf(TEST_ENGINE === 'postgres')('PostgreSQL refusing new connections', () => {
  const role = `beacon_refused_${randomBytes(4).toString('hex')}`;
  const schema = `test_${role}`;
  let admin: pg.Client;
  let proxy: TcpProxy;
  let server: TestServer;
  let owner: Member;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    // A role of its own: superusers are never held to a connection limit.
    await admin.query(`create role ${role} login`);
    await admin.query(`create schema ${schema} authorization ${role}`);
    // Migrations need pg_trgm, which only a superuser installs (once per database, as an operator would).
    await admin.query('create extension if not exists pg_trgm with schema public');
    const direct = new URL(TEST_POSTGRES_URL);
    proxy = new TcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const url = new URL(TEST_POSTGRES_URL);
    url.username = role;
    url.port = String(await proxy.open());
    server = await startTestServer({ DATABASE_URL: url.toString(), BEACON_DATABASE_SCHEMA: schema });
    owner = await registerWorkspace(server, 'refused');
    await createTeam(server, owner, { name: 'Ops', handle: 'ops' });
  });
  afterAll(async () => {
    proxy.refuseNew(null);
    await admin.query(`alter role ${role} connection limit -1`);
    await server.close();
    await proxy.close();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.query(`drop role if exists ${role}`);
    await admin.end();
  });

  const refusedThenRecovered = (refuse: () => Promise<void>, accept: () => Promise<void>, name: string) =>
    refusedAndRecovered(server, owner, refuse, accept, name, () =>
      admin.query('select pg_terminate_backend(pid) from pg_stat_activity where usename = $1', [role]),
    );

  it("answers 503 while the role's connection limit is reached, then recovers", () =>
    refusedThenRecovered(
      async () => void (await admin.query(`alter role ${role} connection limit 0`)),
      async () => void (await admin.query(`alter role ${role} connection limit -1`)),
      'limit',
    ));

  it('answers 503 while the database is starting up, then recovers', () =>
    refusedThenRecovered(
      async () => proxy.refuseNew('starting-up'),
      async () => proxy.refuseNew(null),
      'starting',
    ));

  it('answers 503 while a proxy cuts every new connection, then recovers', () =>
    refusedThenRecovered(
      async () => proxy.refuseNew('reset'),
      async () => proxy.refuseNew(null),
      'reset',
    ));

  it.each([
    ['the database refusing connections (55000)', 'not-allowed'],
    ['pg_hba refusing the host (28000)', 'no-hba'],
  ] as const)('answers 503 while %s, then recovers: decided by where it failed, not its code', (_, refusal) =>
    refusedThenRecovered(
      async () => proxy.refuseNew(refusal),
      async () => proxy.refuseNew(null),
      refusal,
    ),
  );
});

describe.runIf(TEST_ENGINE === 'postgres')('a database set to refuse connections (ALLOW_CONNECTIONS false)', () => {
  const name = `beacon_closed_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let server: TestServer;
  let owner: Member;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${name}`;
    server = await startTestServer({ DATABASE_URL: url.toString(), BEACON_DB_CONNECT_TIMEOUT_MS: '1000' });
    owner = await registerWorkspace(server, 'closed');
    await createTeam(server, owner, { name: 'Ops', handle: 'ops' });
  });
  afterAll(async () => {
    await admin.query(`alter database ${name} allow_connections true`);
    await server.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('answers 503 while the database is closed to connections (a failover, maintenance), then recovers', () =>
    refusedAndRecovered(
      server,
      owner,
      async () => void (await admin.query(`alter database ${name} allow_connections false`)),
      async () => void (await admin.query(`alter database ${name} allow_connections true`)),
      'closed',
      () => admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]),
    ));
});

/**
 * Every kind of request, each needing a new connection, answers 503 while `refuse` holds (`drain` ends the
 * connections the server's pool held); then they work again after `accept`.
 */
async function refusedAndRecovered(
  server: TestServer,
  owner: Member,
  refuse: () => Promise<void>,
  accept: () => Promise<void>,
  name: string,
  drain: () => Promise<unknown>,
) {
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    server.app.inject({ method, url, headers: authHeaders(owner), ...(payload ? { payload } : {}) });
  expect((await call('GET', '/api/teams/ops')).statusCode).toBe(200);
  await refuse();
  // The pool drained: every connection it held is gone, so each request must open a new one.
  await drain();
  const answers = [
    await call('GET', '/api/teams/ops'),
    await call('GET', '/api/search/services?limit=5'),
    await call('POST', '/api/teams/ops/services', { name: 'Refused', handle: `refused-${name}` }),
    await call('GET', `/api/users/${owner.handle}/notifications`),
    await server.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { host: hostOf(owner.domain) },
      payload: { workspace: owner.domain, login: owner.email, password: STRONG_PASSWORD },
    }),
    await server.app.inject({ method: 'GET', url: '/api/healthz' }),
  ];
  for (const answer of answers) {
    expect(answer.statusCode, `${name}: ${answer.body}`).toBe(503);
    expect(answer.headers['retry-after']).toBeDefined();
    expect(json(answer)).toEqual({ message: expect.any(String) });
  }
  await accept();
  const deadline = Date.now() + 10_000;
  while ((await call('GET', '/api/teams/ops')).statusCode !== 200) {
    expect(Date.now()).toBeLessThan(deadline);
    await sleep(100);
  }
  const back = await call('POST', '/api/teams/ops/services', { name: 'Back', handle: `back-${name}` });
  expect(back.statusCode, back.body).toBe(201);
}
