import { createServer, type Server } from 'node:http';
import type { FeedEvent } from '../../src/contract/feeds.js';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runner, RunnerSync } from '../../src/contract/clients.js';
import type { HealthCheck, HealthCheckResult } from '../../src/contract/health.js';
import { beacon } from '../support/processes.js';
import { addMember, createClient, createService, createTeam, seedWorkspace } from '../support/fixtures.js';
import { callAs, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

let server: TestServer;
let owner: Member;
/** Admin of team ops. */
let alice: Member;
/** Plain member of team ops. */
let bob: Member;
/** Admin of team search only. */
let carol: Member;
let guest: Member;
let outsider: Member;

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);

const checkBody = (runner: string | null, extra: object = {}) => ({
  name: 'Internal up',
  endpoint: 'http://10.0.0.5/health',
  runner,
  frequency: 15,
  timeout: 1,
  allowed_failures: 0,
  importance: 'warning',
  disabled: false,
  paused: false,
  ...extra,
});

/** A client of `team` with `scopes` and a token for it, as a Member to call with. */
async function clientOf(team: string, scopes: string[], admin: Member = alice) {
  const { client, caller } = await createClient(server, admin, team, { scopes, description: 'Runner agent' });
  return { made: client, member: caller };
}

beforeAll(async () => {
  server = await startTestServer();
  const seeded = await seedWorkspace(server, { domain: 'runco', team: { name: 'Ops', handle: 'ops' } });
  ({ owner, teamAdmin: alice, teamMember: bob, guest, outsider } = seeded);
  carol = await addMember(server, owner, 'carol');
  await createTeam(server, carol, { name: 'Search', handle: 'search' });
  await createService(server, alice, 'ops', { name: 'Gateway', handle: 'gateway' });
  await createService(server, carol, 'search', { name: 'Indexer', handle: 'indexer' });
});
afterAll(() => server.close());

describe('team runners', () => {
  it('a team admin adds a runner; every member may list and read them', async () => {
    const response = await call(alice, 'POST', '/api/teams/ops/runners', {
      name: 'DC One',
      description: 'In the first data centre',
      handle: 'dc-one',
    });
    expect(response.statusCode).toBe(201);
    expect(json(response)).toEqual({
      id: expect.any(String),
      handle: 'dc-one',
      name: 'DC One',
      description: 'In the first data centre',
      sync_status: 'never',
      last_sync: null,
      team: { id: expect.any(String), handle: 'ops' },
    });
    // Without a handle, one is made from the name.
    const made = json<Runner>(
      await call(owner, 'POST', '/api/teams/ops/runners', { name: 'Another One', description: 'Second' }),
    );
    expect(made.handle).toBe('another-one');
    for (const actor of [alice, bob, carol, guest, owner]) {
      const list = await call(actor, 'GET', '/api/teams/ops/runners');
      expect(list.statusCode).toBe(200);
      expect(json<Runner[]>(list).map((r) => r.handle)).toEqual(['another-one', 'dc-one']);
      expect((await call(actor, 'GET', '/api/teams/ops/runners/dc-one')).statusCode).toBe(200);
    }
    expect((await call(alice, 'GET', '/api/teams/search/runners/dc-one')).statusCode).toBe(404);
    expect((await call(outsider, 'GET', '/api/teams/ops/runners')).statusCode).toBe(404);
    expect((await call(outsider, 'GET', '/api/teams/ops/runners/dc-one')).statusCode).toBe(404);
  });

  it('only team admins (and workspace admins and owners) change runners', async () => {
    for (const actor of [bob, carol, guest]) {
      expect((await call(actor, 'POST', '/api/teams/ops/runners', { name: 'X', description: 'Y' })).statusCode).toBe(
        403,
      );
      expect(
        (await call(actor, 'PUT', '/api/teams/ops/runners/dc-one', { name: 'X', description: 'Y' })).statusCode,
      ).toBe(403);
      expect((await call(actor, 'DELETE', '/api/teams/ops/runners/another-one')).statusCode).toBe(403);
    }
    const updated = await call(alice, 'PUT', '/api/teams/ops/runners/dc-one', {
      name: 'DC 1',
      description: 'First data centre',
    });
    expect(updated.statusCode).toBe(200);
    expect(json(updated)).toMatchObject({ handle: 'dc-one', name: 'DC 1', description: 'First data centre' });
    expect((await call(owner, 'DELETE', '/api/teams/ops/runners/another-one')).statusCode).toBe(204);
    expect((await call(alice, 'GET', '/api/teams/ops/runners/another-one')).statusCode).toBe(404);
  });

  it('refuses bad input with field errors', async () => {
    const cases: Array<[Method, string, object, string]> = [
      ['POST', '/api/teams/ops/runners', { name: '', description: 'x' }, 'name'],
      ['POST', '/api/teams/ops/runners', { name: 'X' }, 'description'],
      ['POST', '/api/teams/ops/runners', { name: 'X', description: 'Y', handle: 'no way' }, 'handle'],
      ['PUT', '/api/teams/ops/runners/dc-one', { name: 'X', description: 'Y', handle: 'new' }, 'handle'],
      ['PUT', '/api/teams/ops/runners/dc-one', { name: 'X', description: ' ' }, 'description'],
    ];
    for (const [method, url, payload, field] of cases) {
      const response = await call(alice, method, url, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(json<{ errors: object }>(response).errors)).toContain(field);
    }
    // Runner handles are unique in the workspace.
    const taken = await call(carol, 'POST', '/api/teams/search/runners', {
      name: 'X',
      description: 'Y',
      handle: 'dc-one',
    });
    expect(taken.statusCode).toBe(409);
    expect(json(taken)).toMatchObject({ errors: { handle: [expect.any(String)] } });
  });

  it('health checks take a runner of the owning team only, and show its handle', async () => {
    await call(carol, 'POST', '/api/teams/search/runners', {
      name: 'Search DC',
      description: 'x',
      handle: 'search-dc',
    });
    const foreign = await call(alice, 'POST', '/api/services/gateway/health-checks', checkBody('search-dc'));
    expect(foreign.statusCode).toBe(400);
    expect(json(foreign)).toMatchObject({ errors: { runner: [expect.any(String)] } });
    const unknown = await call(alice, 'POST', '/api/services/gateway/health-checks', checkBody('nowhere'));
    expect(unknown.statusCode).toBe(400);
    const created = await call(alice, 'POST', '/api/services/gateway/health-checks', checkBody('dc-one'));
    expect(created.statusCode).toBe(201);
    const check = json<HealthCheck>(created);
    expect(check.runner).toBe('dc-one');
    expect(json<HealthCheck[]>(await call(bob, 'GET', '/api/services/gateway/health-checks'))[0]!.runner).toBe(
      'dc-one',
    );
    const moved = await call(alice, 'PATCH', `/api/health-checks/${check.id}`, checkBody('search-dc'));
    expect(moved.statusCode).toBe(400);
    expect(json(moved)).toMatchObject({ errors: { runner: [expect.any(String)] } });

    // Spec 3: a runner a check names cannot be deleted.
    const refused = await call(alice, 'DELETE', '/api/teams/ops/runners/dc-one');
    expect(refused.statusCode).toBe(409);
    expect(json(refused)).toEqual({ message: 'Runner is currently linked to a healthcheck' });
    await call(alice, 'POST', '/api/teams/ops/runners', { name: 'Spare', description: 'x', handle: 'spare' });
    await call(alice, 'PATCH', `/api/health-checks/${check.id}`, checkBody('spare'));
    expect((await call(alice, 'DELETE', '/api/teams/ops/runners/dc-one')).statusCode).toBe(204);
    await call(alice, 'PATCH', `/api/health-checks/${check.id}`, checkBody(null));
    expect((await call(alice, 'DELETE', '/api/teams/ops/runners/spare')).statusCode).toBe(204);
  });
});

describe('the runner agent protocol', () => {
  let agent: Member;
  let checkId: string;

  beforeAll(async () => {
    await call(alice, 'POST', '/api/teams/ops/runners', { name: 'Agent Box', description: 'x', handle: 'agent-box' });
    agent = (await clientOf('ops', ['beacon.runner.read', 'beacon.runner.manage'])).member;
    checkId = json<HealthCheck>(
      await call(
        alice,
        'POST',
        '/api/services/gateway/health-checks',
        checkBody('agent-box', { allowed_failures: 1, importance: 'error', frequency: 5, timeout: 2 }),
      ),
    ).id;
    // Paused and disabled checks are not handed out; nor are the shared runner's.
    await call(alice, 'POST', '/api/services/gateway/health-checks', checkBody('agent-box', { paused: true }));
    await call(alice, 'POST', '/api/services/gateway/health-checks', checkBody('agent-box', { disabled: true }));
    await call(alice, 'POST', '/api/services/gateway/health-checks', checkBody(null));
  });

  it('sync hands out the runner’s active checks and records the sync', async () => {
    const response = await call(agent, 'POST', '/api/runners/agent-box/actions/sync', {});
    expect(response.statusCode).toBe(200);
    expect(json<RunnerSync>(response)).toEqual({
      runner: { handle: 'agent-box', name: 'Agent Box' },
      checks: [
        {
          id: checkId,
          name: 'Internal up',
          kind: 'http',
          endpoint: 'http://10.0.0.5/health',
          frequency: 5,
          timeout: 2,
          importance: 'error',
          request: null,
          starttls: null,
          record: null,
          // The kind's defaults, which the agent judges each run by (docs/decisions.md#checks).
          assertions: [{ source: 'status', op: 'in', value: ['200..299'] }],
          retries: 0,
          // Not made from a spec: no document to validate answers against (docs/decisions.md#spec-checks).
          spec: null,
        },
      ],
    });
    const runner = json<Runner>(await call(bob, 'GET', '/api/teams/ops/runners/agent-box'));
    expect(runner.sync_status).toBe('ok');
    expect(Date.parse(runner.last_sync!)).toBeGreaterThan(Date.now() - 60_000);
    // The agent reports an error: the status says so until a clean sync.
    await call(agent, 'POST', '/api/runners/agent-box/actions/sync', { error: 'could not send results' });
    expect(json<Runner>(await call(bob, 'GET', '/api/teams/ops/runners/agent-box')).sync_status).toBe('error');
    await call(agent, 'POST', '/api/runners/agent-box/actions/sync', {});
    expect(json<Runner>(await call(bob, 'GET', '/api/teams/ops/runners/agent-box')).sync_status).toBe('ok');
  });

  it('results are written for the runner’s own checks and move the service health', async () => {
    const start = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();
    const send = (results: object[]) => call(agent, 'POST', '/api/runners/agent-box/results', { results });
    const ok = await send([{ check_id: checkId, start: start(30), time: 12, success: true, status: 200 }]);
    expect(ok.statusCode).toBe(200);
    expect(json(ok)).toEqual({ accepted: 1, dropped: [] });

    // One failure is allowed; the second in a row raises the service to the check's importance. An agent older
    // than check kinds (issue 26) sends its error as text; a newer one with its class and assertions.
    await send([
      { check_id: checkId, start: start(20), time: 5, success: false, status: 500, error: 'HTTP status 500' },
    ]);
    expect(json<{ health: string }>(await call(bob, 'GET', '/api/services/gateway')).health).toBe('good');
    const foreign = await send([
      {
        check_id: checkId,
        start: start(10),
        time: 5,
        success: false,
        error: { class: 'timeout', message: 'Timed out after 2 s' },
        assertions: [
          { source: 'status', op: 'in', expected: '200..299', actual: null, pass: false, severity: 'error' },
        ],
        severity: 'error',
      },
      { check_id: 'not-mine', start: start(10), time: 5, success: true },
    ]);
    expect(json(foreign)).toEqual({ accepted: 1, dropped: ['not-mine'] });
    expect(json<{ health: string }>(await call(bob, 'GET', '/api/services/gateway')).health).toBe('error');
    // The feeds say so, by the runner (docs/decisions.md#feeds).
    const feed = json<FeedEvent[]>(await call(bob, 'GET', '/api/teams/ops/public-feed?limit=3'));
    // One transaction, one time: any may come first. The health change also opened the service's alert (issue 50).
    expect(feed.map((event) => [event.title, event.agent_name]).sort()).toEqual([
      ['Alert opened (Error): Health went from Good to Error', 'Beacon'],
      ['Health changed from Good to Error', 'Agent Box'],
      ['Health check Internal up is failing', 'Agent Box'],
    ]);

    const results = json<HealthCheckResult[]>(
      await call(bob, 'GET', `/api/health-checks/${checkId}/reports/health-check-results`),
    );
    expect(results).toEqual([
      { time: 12, latency_ms: 12, start: expect.any(String), success: true, status: 200 },
      {
        time: 5,
        latency_ms: 5,
        start: expect.any(String),
        success: false,
        status: 500,
        error: { class: 'protocol', message: 'HTTP status 500' },
      },
      {
        time: 5,
        latency_ms: 5,
        start: expect.any(String),
        success: false,
        error: { class: 'timeout', message: 'Timed out after 2 s' },
        assertions: [
          { source: 'status', op: 'in', expected: '200..299', actual: null, pass: false, severity: 'error' },
        ],
        severity: 'error',
      },
    ]);

    await send([{ check_id: checkId, start: start(1), time: 7, success: true, status: 200 }]);
    expect(json<{ health: string }>(await call(bob, 'GET', '/api/services/gateway')).health).toBe('good');
    // Each batch went into the check's aggregates too (issue 18).
    const days = json<Array<{ probes: number; failures: number; max: number | null }>>(
      await call(bob, 'GET', `/api/health-checks/${checkId}/reports/health-check-aggregates?bucket=day`),
    );
    expect(days.reduce((sum, day) => sum + day.probes, 0)).toBe(4);
    expect(days.reduce((sum, day) => sum + day.failures, 0)).toBe(2);
    expect(Math.max(...days.map((day) => day.max ?? 0))).toBe(12);
  });

  it('validates result batches', async () => {
    const send = (results: object[]) => call(agent, 'POST', '/api/runners/agent-box/results', { results });
    const future = await send([
      { check_id: checkId, start: new Date(Date.now() + 3_600_000).toISOString(), time: 1, success: true },
    ]);
    expect(future.statusCode).toBe(400);
    expect(json(future)).toMatchObject({ errors: { 'results.0.start': [expect.any(String)] } });
    const bad = await send([{ check_id: checkId, start: 'yesterday', time: -1, success: 'yes' }]);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(json<{ errors: object }>(bad).errors)).toEqual(
      expect.arrayContaining(['results.0.start', 'results.0.time', 'results.0.success']),
    );
    expect((await send([])).statusCode).toBe(400);
  });

  it('only the team’s own clients (and admins) drive its runners, with the right scopes', async () => {
    const other = (await clientOf('search', ['beacon.runner.read', 'beacon.runner.manage'], carol)).member;
    expect((await call(other, 'POST', '/api/runners/agent-box/actions/sync', {})).statusCode).toBe(403);
    expect(
      (
        await call(other, 'POST', '/api/runners/agent-box/results', {
          results: [{ check_id: checkId, start: new Date().toISOString(), time: 1, success: true }],
        })
      ).statusCode,
    ).toBe(403);
    // Another team's client may not manage this team's runners either, but reads them like a member.
    expect((await call(other, 'GET', '/api/teams/ops/runners')).statusCode).toBe(200);
    expect((await call(other, 'POST', '/api/teams/ops/runners', { name: 'X', description: 'Y' })).statusCode).toBe(403);

    // A sync records the runner's status: a read-only client may not change it.
    const reader = (await clientOf('ops', ['beacon.runner.read'])).member;
    const before = json<Runner>(await call(bob, 'GET', '/api/teams/ops/runners/agent-box'));
    const sync = await call(reader, 'POST', '/api/runners/agent-box/actions/sync', { error: 'from a reader' });
    expect(sync.statusCode).toBe(403);
    expect(json(sync)).toEqual({ message: 'Insufficient scope' });
    expect(json<Runner>(await call(bob, 'GET', '/api/teams/ops/runners/agent-box'))).toEqual(before);
    const write = await call(reader, 'POST', '/api/runners/agent-box/results', {
      results: [{ check_id: checkId, start: new Date().toISOString(), time: 1, success: true }],
    });
    expect(write.statusCode).toBe(403);
    expect(json(write)).toEqual({ message: 'Insufficient scope' });
    expect((await call(reader, 'POST', '/api/teams/ops/runners', { name: 'X', description: 'Y' })).statusCode).toBe(
      403,
    );

    // The team's own client with runner.manage manages the team's runners.
    const made = await call(agent, 'POST', '/api/teams/ops/runners', { name: 'Bot Runner', description: 'By a bot' });
    expect(made.statusCode).toBe(201);
    expect((await call(agent, 'DELETE', '/api/teams/ops/runners/bot-runner')).statusCode).toBe(204);
    // Users: team admins may drive; plain members may not.
    expect((await call(alice, 'POST', '/api/runners/agent-box/actions/sync', {})).statusCode).toBe(200);
    expect((await call(bob, 'POST', '/api/runners/agent-box/actions/sync', {})).statusCode).toBe(403);
    expect((await call(outsider, 'POST', '/api/runners/agent-box/actions/sync', {})).statusCode).toBe(404);
    expect((await call(agent, 'POST', '/api/runners/nowhere/actions/sync', {})).statusCode).toBe(404);
  });
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('beacon runner (end to end)', () => {
  let target: Server;
  let healthy = true;
  let hits = 0;

  beforeAll(async () => {
    target = createServer((_request, response) => {
      hits++;
      response.statusCode = healthy ? 200 : 500;
      response.end(healthy ? 'ok' : 'down');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    await server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await new Promise((resolve) => target.close(resolve));
  });

  it('syncs, probes a private target, posts results and raises the service health', async () => {
    const apiPort = (server.app.server.address() as AddressInfo).port;
    const targetPort = (target.address() as AddressInfo).port;
    await call(alice, 'POST', '/api/teams/ops/services', { name: 'Intranet', handle: 'intranet' });
    await call(alice, 'POST', '/api/teams/ops/runners', { name: 'Lab', description: 'The lab', handle: 'lab' });
    const check = json<HealthCheck>(
      await call(alice, 'POST', '/api/services/intranet/health-checks', {
        name: 'Intranet up',
        endpoint: `http://127.0.0.1:${targetPort}/health`,
        runner: 'lab',
        frequency: 1,
        timeout: 2,
        allowed_failures: 2,
        importance: 'critical',
      }),
    );
    // Every probing kind runs on a team runner with the same engine (docs/decisions.md#checks): a TCP port that greets.
    const greeter = createTcpServer((socket) => socket.end('220 lab ready\r\n'));
    await new Promise<void>((resolve) => greeter.listen(0, '127.0.0.1', resolve));
    const port = json<HealthCheck>(
      await call(alice, 'POST', '/api/services/intranet/health-checks', {
        name: 'Lab port',
        kind: 'tcp',
        endpoint: `127.0.0.1:${(greeter.address() as AddressInfo).port}`,
        runner: 'lab',
        frequency: 1,
        timeout: 2,
        assertions_text: 'connected == true\nbody contains "220"',
      }),
    );
    const { made } = await clientOf('ops', ['beacon.runner.read', 'beacon.runner.manage']);

    const agent = beacon(
      [
        'runner',
        '--url',
        `http://runco.localhost:${apiPort}`,
        '--client-id',
        made.client_id,
        '--client-secret',
        made.client_secret!,
        '--runner',
        'lab',
        '--sync-interval',
        '1',
      ],
      {},
    );
    try {
      await agent.waitFor(/synced: 2 check\(s\)/);
      const results = () =>
        call(bob, 'GET', `/api/health-checks/${check.id}/reports/health-check-results`).then((r) =>
          json<HealthCheckResult[]>(r),
        );
      const first = await until(results, (list) => list.some((r) => r.success));
      expect(first[0]).toMatchObject({ success: true, status: 200 });
      const greeted = await until(
        () =>
          call(bob, 'GET', `/api/health-checks/${port.id}/reports/health-check-results`).then((r) =>
            json<HealthCheckResult[]>(r),
          ),
        (list) => list.length > 0,
      );
      expect(greeted[0]).toMatchObject({
        success: true,
        assertions: [
          { source: 'connected', actual: 'true', pass: true },
          { source: 'body', actual: expect.stringContaining('220 lab ready'), pass: true },
        ],
      });
      const runner = json<Runner>(await call(bob, 'GET', '/api/teams/ops/runners/lab'));
      expect(runner.sync_status).toBe('ok');
      expect(Date.parse(runner.last_sync!)).toBeGreaterThan(Date.now() - 10_000);
      expect(json<{ health: string }>(await call(bob, 'GET', '/api/services/intranet')).health).toBe('good');

      healthy = false;
      // Two failures in a row are allowed; the third raises the service to critical.
      const service = () => call(bob, 'GET', '/api/services/intranet').then((r) => json<{ health: string }>(r));
      await until(service, (s) => s.health === 'critical');
      const failures = (await results()).filter((r) => !r.success);
      expect(failures.length).toBeGreaterThanOrEqual(3);
      // Judged by the agent with the check's assertions, which show the value they compared.
      expect(failures[0]).toMatchObject({
        success: false,
        status: 500,
        error: { class: 'assertion', message: 'status in 200..299: got 500' },
        assertions: [{ source: 'status', actual: '500', pass: false }],
      });

      healthy = true;
      await until(service, (s) => s.health === 'good');
      expect(hits).toBeGreaterThan(4);
    } finally {
      agent.child.kill('SIGTERM');
      greeter.close();
    }
    expect(await agent.exited).toBe(0);
    expect(agent.output()).toContain('stopped');
  }, 60000);

  it('exits with an error when the credentials are wrong', async () => {
    const apiPort = (server.app.server.address() as AddressInfo).port;
    const agent = beacon(
      [
        'runner',
        '--url',
        `http://runco.localhost:${apiPort}`,
        '--client-id',
        'nobody',
        '--client-secret',
        'wrong',
        '--runner',
        'lab',
      ],
      {},
    );
    expect(await agent.exited).toBe(1);
    expect(agent.output()).toContain('401 Invalid client credentials');
  }, 30000);
});
