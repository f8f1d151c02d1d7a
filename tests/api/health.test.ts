import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DailyHealthEntry, HealthCheck } from '../../src/contract/health.js';
import { addMember, createService, createTeam, seedWorkspace, workspaceIdOf } from '../support/fixtures.js';
import {
  authHeaders,
  json,
  atTime,
  startTestServer,
  type Member,
  type TestServer,
  callAs,
  type Method,
} from '../support/server.js';

/** What a check of the spec's fields answers beside them (docs/decisions.md#checks). */
const HTTP_DEFAULTS = {
  kind: 'http',
  request: null,
  starttls: null,
  record: null,
  assertions: [{ source: 'status', op: 'in', value: ['200..299'] }],
  assertions_text: 'status in 200..299',
  retries: 0,
  recover_after: 1,
  grace: null,
  schedule: null,
  time_zone: null,
  ping_url: null,
  spec: null,
};
/** The columns check kinds added to a stored result (docs/decisions.md#checks), empty. */
const NO_DETAILS = { error_class: null, assertions: null, cert: null, severity: null };
let server: TestServer;
let owner: Member;
/** Admin of team payments. */
let alice: Member;
/** Member of team search only. */
let carol: Member;
let guest: Member;
let outsider: Member;

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const midnight = (ms: number) => Math.floor(ms / DAY) * DAY;

/** Runs `fn` with the server clock at `ms`. */
const at = <T>(ms: number, fn: () => Promise<T>) => atTime(server, ms, fn);

const fullBody = {
  name: 'Checkout up',
  endpoint: 'https://checkout.example/health',
  runner: null,
  frequency: 30,
  timeout: 5,
  allowed_failures: 2,
  importance: 'critical',
  disabled: true,
  paused: false,
};

beforeAll(async () => {
  server = await startTestServer();
  const seeded = await seedWorkspace(server, { domain: 'healthco' });
  ({ owner, teamAdmin: alice, guest, outsider } = seeded);
  carol = await addMember(server, owner, 'carol');
  await createTeam(server, carol, { name: 'Search', handle: 'search' });
  await createService(server, alice, 'payments', { name: 'Checkout', handle: 'checkout' });
});
afterAll(() => server.close());

describe('health checks', () => {
  let checkId: string;

  it('creates a check with the spec defaults filled in', async () => {
    const response = await call(alice, 'POST', '/api/services/checkout/health-checks', {
      name: 'Checkout up',
      endpoint: 'https://checkout.example/health',
    });
    expect(response.statusCode).toBe(201);
    const check = json<HealthCheck>(response);
    checkId = check.id;
    expect(check).toEqual({
      id: expect.any(String),
      name: 'Checkout up',
      endpoint: 'https://checkout.example/health',
      runner: null,
      frequency: 15,
      allowed_failures: 0,
      importance: 'warning',
      disabled: false,
      paused: false,
      timeout: 1,
      service: { handle: 'checkout' },
      // docs/decisions.md#checks: an http check by default, judged by the kind's default assertion.
      ...HTTP_DEFAULTS,
    });
    const listed = await call(guest, 'GET', '/api/services/checkout/health-checks');
    expect(listed.statusCode).toBe(200);
    expect(json(listed)).toEqual([check]);
    // The spec's spelling, with a trailing slash, answers the same.
    const slashed = await call(guest, 'GET', '/api/services/checkout/health-checks/');
    expect(slashed.statusCode).toBe(200);
    expect(json(slashed)).toEqual([check]);
  });

  it.each([
    ['frequency', { frequency: 0 }],
    ['timeout', { timeout: 16 }],
    ['timeout', { timeout: 0 }],
    ['allowed_failures', { allowed_failures: -1 }],
    ['importance', { importance: 'fatal' }],
    ['endpoint', { endpoint: 'ftp://x' }],
    ['endpoint', { endpoint: 'not a url' }],
    ['name', { name: ' ' }],
    ['colour', { colour: 'red' }],
  ])('refuses a bad %s with 400 naming the field', async (field, change) => {
    const body = { name: 'X', endpoint: 'https://x.example', ...change };
    const response = await call(alice, 'POST', '/api/services/checkout/health-checks', body);
    expect(response.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(response).errors).toHaveProperty([field]);
  });

  it('replaces a check with PATCH (full body) and refuses a partial one', async () => {
    const response = await call(alice, 'PATCH', `/api/health-checks/${checkId}`, fullBody);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ ...fullBody, ...HTTP_DEFAULTS, id: checkId, service: { handle: 'checkout' } });
    const again = await call(owner, 'GET', '/api/services/checkout/health-checks');
    expect(json(again)).toEqual([{ ...fullBody, ...HTTP_DEFAULTS, id: checkId, service: { handle: 'checkout' } }]);
    const partial = await call(alice, 'PATCH', `/api/health-checks/${checkId}`, { name: 'Only a name' });
    expect(partial.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(partial).errors).toHaveProperty('endpoint');
  });

  it('refuses members of other teams and guests with 403', async () => {
    const create = { name: 'X', endpoint: 'https://x.example' };
    for (const actor of [carol, guest]) {
      expect((await call(actor, 'POST', '/api/services/checkout/health-checks', create)).statusCode).toBe(403);
      expect((await call(actor, 'PATCH', `/api/health-checks/${checkId}`, fullBody)).statusCode).toBe(403);
    }
  });

  it('hides the checks of another workspace', async () => {
    expect((await call(outsider, 'PATCH', `/api/health-checks/${checkId}`, fullBody)).statusCode).toBe(404);
    expect((await call(outsider, 'GET', `/api/health-checks/${checkId}/reports/health-check-results`)).statusCode).toBe(
      404,
    );
    expect((await call(outsider, 'GET', '/api/services/checkout/health-checks')).statusCode).toBe(404);
    const foreignHost = await server.app.inject({
      method: 'GET',
      url: '/api/services/checkout/health-checks',
      headers: authHeaders(outsider, owner.domain),
    });
    expect(foreignHost.statusCode).toBe(401);
  });

  it('reports results oldest first, the last 24 hours by default', async () => {
    const now = Date.now();
    const result = { check_id: checkId, workspace_id: await workspaceIdOf(server, owner.domain) };
    await server.ctx.database.db
      .insertInto('health_check_results')
      .values([
        { ...result, ...NO_DETAILS, start: now - 2 * DAY, time: 5, success: 1, status: 200, error: null },
        { ...result, ...NO_DETAILS, start: now - 2 * HOUR, time: 40, success: 1, status: 200, error: null },
        {
          ...result,
          ...NO_DETAILS,
          start: now - HOUR,
          time: 1000,
          success: 0,
          status: null,
          error: 'Timed out',
          error_class: 'timeout',
        },
      ])
      .execute();
    const response = await call(guest, 'GET', `/api/health-checks/${checkId}/reports/health-check-results`);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual([
      { start: new Date(now - 2 * HOUR).toISOString(), time: 40, latency_ms: 40, success: true, status: 200 },
      {
        start: new Date(now - HOUR).toISOString(),
        time: 1000,
        latency_ms: 1000,
        success: false,
        error: { class: 'timeout', message: 'Timed out' },
      },
    ]);
    const from = new Date(now - 3 * DAY).toISOString();
    const all = await call(guest, 'GET', `/api/health-checks/${checkId}/reports/health-check-results?from=${from}`);
    expect(json<unknown[]>(all)).toHaveLength(3);
  });
});

describe('service health transitions and daily health', () => {
  // Two days ago in real time, so every clock the test sets lies in the past (tokens stay valid).
  const yesterday = midnight(Date.now()) - 2 * DAY;
  const today = yesterday + DAY;
  const changeHealth = (health: string) =>
    call(alice, 'POST', '/api/services/ledger/actions/change-health', { health });
  const transitions = async () =>
    server.ctx.database.db
      .selectFrom('health_transitions')
      .innerJoin('services', 'services.id', 'health_transitions.service_id')
      .select(['health_transitions.health', 'health_transitions.source'])
      .where('services.handle', '=', 'ledger')
      .orderBy('health_transitions.at')
      .execute();

  it('records one manual transition per actual change of health', async () => {
    await at(yesterday - HOUR, () =>
      call(alice, 'POST', '/api/teams/payments/services', { name: 'Ledger', handle: 'ledger' }),
    );
    expect(await transitions()).toEqual([]);
    await at(yesterday + 6 * HOUR, () => changeHealth('critical'));
    await at(yesterday + 7 * HOUR, () => changeHealth('critical'));
    expect(await transitions()).toEqual([{ health: 'critical', source: 'manual' }]);
    await at(yesterday + 10 * HOUR, () => changeHealth('good'));
    await at(today - HOUR / 2, () => changeHealth('critical'));
    await at(today + HOUR, () => changeHealth('error'));
    expect((await transitions()).map((t) => t.health)).toEqual(['critical', 'good', 'critical', 'error']);
  });

  it('integrates the seconds per state for each day since creation, today included', async () => {
    const response = await at(today + 2 * HOUR, () =>
      call(guest, 'GET', '/api/services/ledger/reports/service-health-daily'),
    );
    expect(response.statusCode).toBe(200);
    const days = json<DailyHealthEntry[]>(response);
    const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(days).toEqual([
      { date: date(yesterday - DAY), critical: 0, error: 0, warning: 0, maintenance: 0 },
      { date: date(yesterday), critical: 4 * 3600 + 1800, error: 0, warning: 0, maintenance: 0 },
      { date: date(today), critical: 3600, error: 3600, warning: 0, maintenance: 0 },
    ]);
  });

  it('takes an explicit range, refuses from after to, and answers the last 90 days of a longer range', async () => {
    const iso = (ms: number) => new Date(ms).toISOString();
    const url = (from: number, to: number) =>
      `/api/services/ledger/reports/service-health-daily?from=${iso(from)}&to=${iso(to)}`;
    const oneDay = await call(guest, 'GET', url(yesterday, yesterday + DAY - 1000));
    expect(oneDay.statusCode).toBe(200);
    expect(json(oneDay)).toEqual([
      { date: iso(yesterday).slice(0, 10), critical: 4 * 3600 + 1800 - 1, error: 0, warning: 0, maintenance: 0 },
    ]);
    expect((await call(guest, 'GET', url(today, yesterday))).statusCode).toBe(400);
    expect((await call(guest, 'GET', url(today - 89 * DAY, today))).statusCode).toBe(200);
    const long = await call(guest, 'GET', url(today - 400 * DAY, today));
    expect(long.statusCode).toBe(200);
    const days = json<Array<{ date: string }>>(long);
    expect(days.length).toBeLessThanOrEqual(90);
    expect(days.at(-1)!.date).toBe(iso(today).slice(0, 10));
    const bad = await call(guest, 'GET', '/api/services/ledger/reports/service-health-daily?from=yesterday');
    expect(bad.statusCode).toBe(400);
  });

  it('hides the report of a hidden or foreign service', async () => {
    await call(alice, 'POST', '/api/services/ledger/actions/change-visibility', { visibility: 'owner' });
    expect((await call(carol, 'GET', '/api/services/ledger/reports/service-health-daily')).statusCode).toBe(404);
    expect((await call(outsider, 'GET', '/api/services/ledger/reports/service-health-daily')).statusCode).toBe(404);
    expect((await call(alice, 'GET', '/api/services/ledger/reports/service-health-daily')).statusCode).toBe(200);
  });
});

describe('concurrent health changes', () => {
  it('log exactly one transition when several requests set the same health at once', async () => {
    const created = await call(alice, 'POST', '/api/teams/payments/services', { name: 'Racer', handle: 'racer' });
    expect(created.statusCode).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(alice, 'POST', '/api/services/racer/actions/change-health', { health: 'warning' }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const logged = await server.ctx.database.db
      .selectFrom('health_transitions')
      .innerJoin('services', 'services.id', 'health_transitions.service_id')
      .select('health_transitions.health')
      .where('services.handle', '=', 'racer')
      .execute();
    expect(logged).toEqual([{ health: 'warning' }]);
  });
});
