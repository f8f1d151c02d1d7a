import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthCheck, HealthCheckResult } from '../../src/contract/health.js';
import { startSharedRunner, type SharedRunner } from '../../src/server/jobs/shared-runner.js';
import { closeSharedAgents } from '../../src/runner/probe.js';
import { createTeam } from '../support/fixtures.js';
import { until } from '../support/until.js';
import {
  authHeaders,
  json,
  registerWorkspace,
  startTestServer,
  type Member,
  type TestServer,
} from '../support/server.js';

let server: TestServer;
let owner: Member;
let target: Server;
let base: string;
/** Requests the target received, per path. */
const hits = new Map<string, number>();
let hangOpen = 0;
let hangMaxOpen = 0;

type Method = 'GET' | 'POST' | 'PATCH';
const call = (method: Method, url: string, payload?: object) =>
  server.app.inject({ method, url, headers: authHeaders(owner), ...(payload ? { payload } : {}) });

const results = async (checkId: string) =>
  json<HealthCheckResult[]>(await call('GET', `/api/health-checks/${checkId}/reports/health-check-results`));
const healthOf = async (service: string) =>
  json<{ health: string }>(await call('GET', `/api/services/${service}`)).health;

function checkBody(endpoint: string, overrides: Partial<HealthCheck> = {}) {
  return {
    name: `Check ${endpoint}`,
    endpoint: `${base}${endpoint}`,
    runner: null,
    frequency: 1,
    timeout: 1,
    allowed_failures: 0,
    importance: 'warning',
    disabled: false,
    paused: false,
    ...overrides,
  };
}

async function createCheck(service: string, endpoint: string, overrides: Partial<HealthCheck> = {}) {
  await call('POST', '/api/teams/ops/services', { name: service, handle: service });
  const response = await call('POST', `/api/services/${service}/health-checks`, checkBody(endpoint, overrides));
  expect(response.statusCode).toBe(201);
  return json<HealthCheck>(response).id;
}

beforeAll(async () => {
  target = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/hang') {
      hangOpen++;
      hangMaxOpen = Math.max(hangMaxOpen, hangOpen);
      request.socket.once('close', () => hangOpen--);
      return;
    }
    response.statusCode = path === '/fail' ? 500 : 200;
    response.end('ok');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  server = await startTestServer({ BEACON_ALLOW_PRIVATE_TARGETS: '1' });
  owner = await registerWorkspace(server, 'runnerco');
  await createTeam(server, owner, { name: 'Ops', handle: 'ops' });
});
afterAll(async () => {
  await server.close();
  await closeSharedAgents();
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
});

describe('the shared runner', () => {
  let runner: SharedRunner | undefined;
  afterAll(() => runner?.stop());

  it('probes checks, moves service health, never overlaps a check and skips paused ones', async () => {
    const okId = await createCheck('api', '/ok');
    const failId = await createCheck('billing', '/fail', { allowed_failures: 1, importance: 'error' });
    const hangId = await createCheck('slow', '/hang', { allowed_failures: 1000 });
    const pausedId = await createCheck('quiet', '/paused', { paused: true });
    runner = startSharedRunner(server.ctx, { reloadMs: 200, tickMs: 200 });

    await until(async () => (await results(okId)).filter((r) => r.success && r.status === 200).length >= 2);

    // Two failures with one allowed: the service takes the check's importance, logged as a 'check' transition.
    await until(async () => (await healthOf('billing')) === 'error');
    const failures = await results(failId);
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(failures.every((r) => !r.success && r.status === 500)).toBe(true);
    const transitions = await server.ctx.database.db
      .selectFrom('health_transitions')
      .innerJoin('services', 'services.id', 'health_transitions.service_id')
      .select(['health_transitions.health', 'health_transitions.source'])
      .where('services.handle', '=', 'billing')
      .execute();
    expect(transitions).toEqual([{ health: 'error', source: 'check' }]);

    // A new importance for the failing check moves the service as the change is saved.
    const weighted = await call(
      'PATCH',
      `/api/health-checks/${failId}`,
      checkBody('/fail', { name: 'Check /fail', allowed_failures: 1, importance: 'critical' }),
    );
    expect(weighted.statusCode).toBe(200);
    expect(await healthOf('billing')).toBe('critical');

    // The endpoint fixed: health is good again once the change is picked up and a probe succeeds.
    const patched = await call(
      'PATCH',
      `/api/health-checks/${failId}`,
      checkBody('/ok', { name: 'Check /fail', allowed_failures: 1, importance: 'error' }),
    );
    expect(patched.statusCode).toBe(200);
    await until(async () => (await healthOf('billing')) === 'good');

    // The hanging check: timed out runs, one at a time.
    await until(async () => (hits.get('/hang') ?? 0) >= 3);
    expect(hangMaxOpen).toBe(1);
    expect((await results(hangId)).some((r) => !r.success)).toBe(true);

    expect(hits.get('/paused') ?? 0).toBe(0);
    expect(await results(pausedId)).toEqual([]);
    expect(await healthOf('api')).toBe('good');

    await runner.stop();
    runner = undefined;
  });

  it('refuses private targets unless allowed', async () => {
    // The other checks off, so only the new one runs.
    for (const check of json<HealthCheck[]>(await call('GET', '/api/services/api/health-checks'))) {
      await call('PATCH', `/api/health-checks/${check.id}`, checkBody('/ok', { name: check.name, disabled: true }));
    }
    for (const service of ['billing', 'slow']) {
      for (const check of json<HealthCheck[]>(await call('GET', `/api/services/${service}/health-checks`))) {
        await call('PATCH', `/api/health-checks/${check.id}`, checkBody('/ok', { name: check.name, disabled: true }));
      }
    }
    const privateId = await createCheck('internal', '/private');
    const ctx = { ...server.ctx, config: { ...server.ctx.config, allowPrivateTargets: false } };
    runner = startSharedRunner(ctx, { reloadMs: 200, tickMs: 200 });
    const [result] = await until(async () => {
      const found = await results(privateId);
      return found.length > 0 && found;
    });
    expect(result!.success).toBe(false);
    expect(result!.error).toMatchObject({ class: 'refused', message: expect.stringMatching(/refused|not allowed/i) });
    expect(hits.get('/private') ?? 0).toBe(0);
    await runner.stop();
    runner = undefined;
  });
});
