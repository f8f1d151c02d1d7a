import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthCheck, HealthCheckResult } from '../../src/contract/health.js';
import { startSharedRunner, type SharedRunner } from '../../src/server/jobs/shared-runner.js';
import { closeSharedAgents } from '../../src/runner/probe.js';
import { addMember, createTeam } from '../support/fixtures.js';
import { until } from '../support/until.js';
import {
  authHeaders,
  hostOf,
  json,
  registerWorkspace,
  startTestServer,
  type Member,
  type Method,
  type TestServer,
} from '../support/server.js';

/**
 * Issue 26 and docs/decisions.md#checks: check kinds and assertions through the API and the shared runner, on both
 * engines. A local HTTP target answers a JSON health document whose version the test changes; a TCP port answers a
 * banner.
 */
let server: TestServer;
let owner: Member;
let guest: Member;
let outsider: Member;
let target: Server;
let tcp: TcpServer;
let base: string;
let tcpPort: number;
let version = '1.2.3';
let slowMs = 0;

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  server.app.inject({ method, url, headers: authHeaders(actor), ...(payload ? { payload } : {}) });

const results = async (id: string) =>
  json<HealthCheckResult[]>(await call(owner, 'GET', `/api/health-checks/${id}/reports/health-check-results`));
const healthOf = async (service: string) =>
  json<{ health: string }>(await call(owner, 'GET', `/api/services/${service}`)).health;

const common = { runner: null, frequency: 1, timeout: 2, allowed_failures: 0, importance: 'critical' };

async function create(service: string, body: object) {
  const response = await call(owner, 'POST', `/api/services/${service}/health-checks`, { ...common, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return json<HealthCheck>(response);
}

beforeAll(async () => {
  target = createServer((request, response) => {
    // The RDAP bootstrap file (RFC 9224) of the domain checks: .de with no RDAP service, as IANA has it.
    if (request.url === '/rdap/dns.json') return void response.end(JSON.stringify({ services: [[['de'], []]] }));
    const send = () => {
      response.setHeader('content-type', 'application/json');
      response.setHeader('x-version', version);
      response.end(JSON.stringify({ status: 'UP', version }));
    };
    if (slowMs) setTimeout(send, slowMs);
    else send();
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  tcp = createTcpServer((socket) => socket.end('220 ready\r\n'));
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  tcpPort = (tcp.address() as AddressInfo).port;
  server = await startTestServer({
    BEACON_ALLOW_PRIVATE_TARGETS: '1',
    BEACON_CHECK_TEST_RATE_LIMIT: '12',
    BEACON_RDAP_BOOTSTRAP_URL: `${base}/rdap/dns.json`,
  });
  owner = await registerWorkspace(server, 'kindsco');
  guest = await addMember(server, owner, 'gus', 'guest');
  outsider = await registerWorkspace(server, 'otherco');
  await createTeam(server, owner, { name: 'Ops', handle: 'ops' });
  for (const handle of ['api-svc', 'database', 'cron-jobs', 'edge-tls'])
    expect(
      (await call(owner, 'POST', '/api/teams/ops/services', { name: `Service ${handle}`, handle })).statusCode,
    ).toBe(201);
});
afterAll(async () => {
  await server.close();
  await closeSharedAgents();
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
  await new Promise((resolve) => tcp.close(resolve));
});

describe('check settings per kind', () => {
  it('answers every kind with its assertions, typed and as text; the kind’s defaults when none are given', async () => {
    const http = await create('api-svc', { name: 'Health', endpoint: `${base}/health` });
    expect(http).toMatchObject({
      kind: 'http',
      assertions: [{ source: 'status', op: 'in', value: ['200..299'] }],
      assertions_text: 'status in 200..299',
      retries: 0,
      recover_after: 1,
      ping_url: null,
    });
    const tls = await create('edge-tls', { name: 'Cert', kind: 'tls', endpoint: 'example.com:443' });
    expect(tls.assertions.map((a) => a.source)).toEqual(['cert.valid', 'cert.days_left']);
    const dns = await create('edge-tls', { name: 'Zone', kind: 'dns', endpoint: 'example.com' });
    expect(dns).toMatchObject({ record: 'A', assertions_text: 'dns.rcode == NOERROR' });
    const typed = await create('api-svc', {
      name: 'Typed',
      endpoint: `${base}/`,
      request: { method: 'POST', headers: { 'x-probe': '1' }, body: '{}' },
      assertions: [{ source: 'latency_ms', op: '<', value: 800, severity: 'warning' }],
    });
    expect(typed).toMatchObject({
      request: { method: 'POST', headers: { 'x-probe': '1' }, body: '{}' },
      assertions_text: 'latency_ms < 800 warning',
    });
  });

  it('refuses a bad target per kind, fields a kind does not take, and assertions that do not hold', async () => {
    const refused = async (body: object, field: string) => {
      const response = await call(owner, 'POST', '/api/services/api-svc/health-checks', {
        ...common,
        name: 'Bad',
        ...body,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(json<{ errors: Record<string, string[]> }>(response).errors).toHaveProperty([field]);
    };
    await refused({ kind: 'http', endpoint: 'ftp://example.com' }, 'endpoint');
    await refused({ kind: 'tcp', endpoint: 'example.com' }, 'endpoint');
    await refused({ kind: 'tls', endpoint: 'example.com:99999' }, 'endpoint');
    await refused({ kind: 'dns', endpoint: 'not a name' }, 'endpoint');
    await refused({ kind: 'heartbeat', endpoint: 'https://example.com' }, 'endpoint');
    await refused({ kind: 'dns', endpoint: 'example.com', starttls: 'smtp' }, 'starttls');
    await refused({ kind: 'http', endpoint: `${base}/`, grace: 30 }, 'grace');
    await refused({ kind: 'heartbeat', schedule: 'every day' }, 'schedule');
    await refused({ kind: 'heartbeat', schedule: '0 3 * * *', time_zone: 'Mars/Olympus' }, 'time_zone');
    await refused({ kind: 'heartbeat', runner: 'some-runner' }, 'runner');
    await refused({ endpoint: `${base}/`, assertions_text: 'status in 200..299\nstatus flies 3' }, 'assertions_text');
    await refused({ endpoint: `${base}/`, assertions_text: 'dns.rcode == NOERROR' }, 'assertions_text');
    await refused({ endpoint: `${base}/`, assertions: [{ source: 'json:$.x[', op: '==', value: 1 }] }, 'assertions');
    await refused({ endpoint: `${base}/`, assertions: [], assertions_text: '' }, 'assertions_text');
    // Nothing was created by the refused requests.
    const names = json<HealthCheck[]>(await call(owner, 'GET', '/api/services/api-svc/health-checks')).map(
      (c) => c.name,
    );
    expect(names).not.toContain('Bad');
  });
});

describe('"Test": one run, nothing saved', () => {
  it('answers every assertion with the value it compared, the worst failing severity and the error', async () => {
    const before = json<HealthCheck[]>(await call(owner, 'GET', '/api/services/api-svc/health-checks')).length;
    const response = await call(owner, 'POST', '/api/services/api-svc/health-checks/actions/test', {
      ...common,
      name: 'Try',
      endpoint: `${base}/health`,
      assertions_text: [
        'status in 200..299',
        'json:version == "1.2.3"',
        'header:content-type contains json',
        'latency_ms < 10000 warning',
        'status == 201 error',
        'json:missing.field exists warning',
      ].join('\n'),
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = json<HealthCheckResult>(response);
    expect(result).toMatchObject({ success: false, status: 200, severity: 'error' });
    expect(result.error).toMatchObject({ class: 'assertion', message: expect.stringContaining('200') });
    expect(result.assertions!.map((a) => [a.source, a.pass, a.actual])).toEqual([
      ['status', true, '200'],
      ['json:version', true, '1.2.3'],
      ['header:content-type', true, 'application/json'],
      ['latency_ms', true, expect.stringMatching(/^\d+$/)],
      ['status', false, '200'],
      ['json:missing.field', false, null],
    ]);
    expect(json<HealthCheck[]>(await call(owner, 'GET', '/api/services/api-svc/health-checks')).length).toBe(before);
  });

  it('runs tcp with send and expect, and says refused the same way for any closed port', async () => {
    const banner = json<HealthCheckResult>(
      await call(owner, 'POST', '/api/services/database/health-checks/actions/test', {
        ...common,
        name: 'Banner',
        kind: 'tcp',
        endpoint: `127.0.0.1:${tcpPort}`,
        assertions_text: 'connected == true\nbody contains "220"',
      }),
    );
    expect(banner).toMatchObject({ success: true });
    const closed = json<HealthCheckResult>(
      await call(owner, 'POST', '/api/services/database/health-checks/actions/test', {
        ...common,
        name: 'Closed',
        kind: 'tcp',
        endpoint: '127.0.0.1:1',
      }),
    );
    expect(closed).toMatchObject({ success: false, error: { class: 'refused' } });
  });

  it('tries a connection the target resets before answering once more with retries: 1 (a network error)', async () => {
    let connections = 0;
    // Every other connection is reset as soon as the request arrives; the others are answered.
    const flaky = createTcpServer((socket) => {
      const reset = connections++ % 2 === 0;
      socket.on('error', () => {});
      socket.once('data', () =>
        reset ? socket.resetAndDestroy() : socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'),
      );
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/`;
    const run = async (retries: number) => {
      const response = await call(owner, 'POST', '/api/services/api-svc/health-checks/actions/test', {
        ...common,
        name: 'Flaky',
        endpoint,
        retries,
      });
      expect(response.statusCode, response.body).toBe(200);
      return json<HealthCheckResult>(response);
    };
    try {
      expect(await run(0)).toMatchObject({
        success: false,
        error: { class: 'refused', message: 'Connection reset by the server before answering' },
      });
      expect(connections).toBe(1);
      // The second connection is answered.
      connections = 0;
      expect(await run(1)).toMatchObject({ success: true, status: 200 });
      expect(connections).toBe(2);
    } finally {
      await new Promise((resolve) => flaky.close(resolve));
    }
  });

  it('says unknown for a domain whose TLD has no RDAP service, and passes', async () => {
    const result = json<HealthCheckResult>(
      await call(owner, 'POST', '/api/services/edge-tls/health-checks/actions/test', {
        ...common,
        name: 'Registration',
        kind: 'domain',
        endpoint: 'example.de',
      }),
    );
    expect(result).toMatchObject({
      success: true,
      assertions: [
        {
          source: 'domain.days_left',
          op: '>=',
          expected: '30 (not judged: .de has no RDAP service)',
          actual: 'unknown',
          pass: true,
        },
      ],
    });
    expect(result.error).toBeUndefined();
  });

  it('is for editors, and a heartbeat has nothing to run', async () => {
    const body = { ...common, name: 'Try', endpoint: `${base}/` };
    expect((await call(guest, 'POST', '/api/services/api-svc/health-checks/actions/test', body)).statusCode).toBe(403);
    expect((await call(outsider, 'POST', '/api/services/api-svc/health-checks/actions/test', body)).statusCode).toBe(
      404,
    );
    const heartbeat = await call(owner, 'POST', '/api/services/cron-jobs/health-checks/actions/test', {
      ...common,
      name: 'Beat',
      kind: 'heartbeat',
    });
    expect(heartbeat.statusCode).toBe(400);
  });

  it('is rate-limited per workspace', async () => {
    const body = { ...common, name: 'Try', endpoint: `${base}/` };
    let limited = 0;
    for (let i = 0; i < 14 && !limited; i++) {
      const response = await call(owner, 'POST', '/api/services/api-svc/health-checks/actions/test', body);
      if (response.statusCode === 429) limited++;
    }
    expect(limited).toBe(1);
  });
});

describe('the shared runner with assertions', () => {
  let runner: SharedRunner | undefined;
  afterAll(() => runner?.stop());

  it('fails a check with its worst failing assertion’s severity, and recovers after recover_after successes', async () => {
    await call(owner, 'POST', '/api/teams/ops/services', { name: 'Versioned', handle: 'versioned' });
    const check = await create('versioned', {
      name: 'Version',
      endpoint: `${base}/health`,
      recover_after: 2,
      assertions_text: 'status in 200..299\njson:version changed error\nlatency_ms < 300 warning',
    });
    runner = startSharedRunner(server.ctx, { reloadMs: 200, tickMs: 100 });
    await until(async () => (await results(check.id)).length >= 2);
    expect(await healthOf('versioned')).toBe('good');

    // A slow answer fails only its warning assertion: the service goes to warning, not the check's critical.
    slowMs = 400;
    await until(async () => (await healthOf('versioned')) === 'warning', 30_000);
    slowMs = 0;
    await until(async () => (await healthOf('versioned')) === 'good', 30_000);

    // The version changes: `changed` fails once (error), then holds again; recover_after 2 keeps it failing for
    // one more success.
    version = '1.3.0';
    await until(async () => (await healthOf('versioned')) === 'error', 30_000);
    const changed = (await results(check.id)).find((r) =>
      r.assertions?.some((a) => a.source === 'json:version' && !a.pass),
    );
    expect(changed!.assertions!.find((a) => a.source === 'json:version')).toMatchObject({
      actual: '1.3.0',
      expected: expect.stringContaining('1.2.3'),
      severity: 'error',
    });
    await until(async () => (await healthOf('versioned')) === 'good', 30_000);
    const after = (await results(check.id)).slice(-3).map((r) => r.success);
    expect(after.at(-1)).toBe(true);
  }, 90_000);
});

describe('heartbeats', () => {
  let runner: SharedRunner | undefined;
  afterAll(() => runner?.stop());
  let beat: HealthCheck;
  const ping = (url: string, method: 'GET' | 'POST' = 'GET', domain = 'kindsco', payload?: string) =>
    server.app.inject({
      method,
      url: new URL(url).pathname + new URL(url).search,
      headers: { host: hostOf(domain), ...(payload ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(payload ? { payload } : {}),
    });

  it('gives editors a secret ping URL; readers never see it', async () => {
    beat = await create('cron-jobs', { name: 'Nightly', kind: 'heartbeat', frequency: 2, grace: 1 });
    expect(beat.ping_url).toMatch(/^http:\/\/kindsco\.localhost.*\/api\/heartbeats\/[A-Za-z0-9_-]{40,}$/);
    const seen = json<HealthCheck[]>(await call(guest, 'GET', '/api/services/cron-jobs/health-checks'));
    expect(seen[0]).toMatchObject({ kind: 'heartbeat', ping_url: null });
  });

  it('takes pings without a login, from any tooling; a fail ping fails the check until the next success', async () => {
    expect(json(await ping(beat.ping_url!))).toEqual({ ok: true });
    expect((await ping(beat.ping_url!, 'POST', 'kindsco', 'log=done')).statusCode).toBe(200);
    expect((await ping(`${beat.ping_url!}/start`)).statusCode).toBe(200);
    // Unknown, or on another workspace's host: 404, nothing said.
    expect((await ping(`${beat.ping_url!.slice(0, -4)}AAAA`)).statusCode).toBe(404);
    expect((await ping(beat.ping_url!, 'GET', 'otherco')).statusCode).toBe(404);

    expect((await ping(`${beat.ping_url!}/fail?exit_code=3`)).statusCode).toBe(200);
    expect(await healthOf('cron-jobs')).toBe('critical');
    const failed = (await results(beat.id)).at(-1)!;
    expect(failed).toMatchObject({ success: false, error: { message: expect.stringContaining('exit code 3') } });
    await ping(beat.ping_url!);
    expect(await healthOf('cron-jobs')).toBe('good');
  });

  it('fails a late heartbeat (period plus grace) on the shared runner, and a ping brings it back', async () => {
    runner = startSharedRunner(server.ctx, { reloadMs: 200, tickMs: 100 });
    await until(async () => (await healthOf('cron-jobs')) === 'critical', 30_000);
    const late = (await results(beat.id)).at(-1)!;
    expect(late).toMatchObject({
      success: false,
      error: { class: 'timeout', message: expect.stringMatching(/No ping/) },
    });
    await ping(beat.ping_url!);
    expect(await healthOf('cron-jobs')).toBe('good');
  }, 45_000);

  it('rotating the URL retires the old one at once', async () => {
    const rotated = json<HealthCheck>(
      await call(owner, 'POST', `/api/health-checks/${beat.id}/actions/rotate-ping-url`),
    );
    expect(rotated.ping_url).not.toBe(beat.ping_url);
    expect((await ping(beat.ping_url!)).statusCode).toBe(404);
    expect((await ping(rotated.ping_url!)).statusCode).toBe(200);
    expect((await call(guest, 'POST', `/api/health-checks/${beat.id}/actions/rotate-ping-url`)).statusCode).toBe(403);
  });
});
