import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listHealthTransitions, listHealthTransitionsOf } from '../../src/server/db/repositories/health.js';
import { sweepSloAlerts } from '../../src/server/jobs/slo-alerts.js';
import { createService, seedWorkspace, type SeededWorkspace } from '../support/fixtures.js';
import { atTime, callAs, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

/** Issue 28, part 1: a service's SLO through the real server, on the engine the run was started for. */
let server: TestServer;
let cast: SeededWorkspace;
let base: number;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);

/** Runs `fn` with the server clock at `ms`. */
const at = <T>(ms: number, fn: () => Promise<T>) => atTime(server, ms, fn);

beforeAll(async () => {
  server = await startTestServer();
  cast = await seedWorkspace(server, { domain: 'sloco' });
  await createService(server, cast.teamAdmin, cast.team.handle, { name: 'Checkout', handle: 'checkout' });
  await createService(server, cast.teamAdmin, cast.team.handle, { name: 'Payments API', handle: 'payments-api' });
  await createService(server, cast.teamAdmin, cast.team.handle, {
    name: 'Vault',
    handle: 'vault',
    visibility: 'owner',
  });
  // Made ten days before the test's times (the clock moves back, where the callers' tokens are still good).
  base = Date.now() - 3 * HOUR;
  await server.ctx.database.db
    .updateTable('services')
    .set({ created_at: new Date(base - 10 * DAY).toISOString() })
    .where('handle', 'in', ['checkout', 'payments-api'])
    .execute();
});
afterAll(() => server.close());

describe('a service SLO', () => {
  it('is set by editors, read by members, and refused to others', async () => {
    expect((await call(cast.teamMember, 'GET', '/api/services/checkout/slo')).statusCode).toBe(404);
    expect((await call(cast.teamMember, 'GET', '/api/services/checkout/slo/status')).statusCode).toBe(404);

    // A guest is no editor.
    expect(
      (await call(cast.guest, 'PUT', '/api/services/checkout/slo', { target: 99.9, window_days: 30 })).statusCode,
    ).toBe(403);

    const set = await call(cast.teamMember, 'PUT', '/api/services/checkout/slo', { target: 99.9, window_days: 30 });
    expect(set.statusCode).toBe(200);
    expect(json(set)).toMatchObject({ target: 99.9, window_days: 30 });
    // Workspace admins edit every service.
    expect(
      (await call(cast.admin, 'PUT', '/api/services/checkout/slo', { target: 99.95, window_days: 28 })).statusCode,
    ).toBe(200);
    expect(json(await call(cast.guest, 'GET', '/api/services/checkout/slo'))).toMatchObject({
      target: 99.95,
      window_days: 28,
    });

    // Another workspace sees nothing; a service the caller may not see is not found.
    expect((await call(cast.outsider, 'GET', '/api/services/checkout/slo')).statusCode).toBe(404);
    expect(
      (await call(cast.outsider, 'PUT', '/api/services/checkout/slo', { target: 99, window_days: 7 })).statusCode,
    ).toBe(404);
    expect((await call(cast.guest, 'GET', '/api/services/vault/slo')).statusCode).toBe(404);
    expect(json(await call(cast.teamMember, 'GET', '/api/services/checkout/slo'))).toMatchObject({ target: 99.95 });
  });

  it('refuses a target or window outside the contract and changes nothing', async () => {
    for (const body of [
      { target: 100, window_days: 30 },
      { target: 0, window_days: 30 },
      { target: 99.9999, window_days: 30 },
      { target: '99.9', window_days: 30 },
      { target: 99.9, window_days: 14 },
      { target: 99.9, window_days: 30, extra: true },
      { window_days: 30 },
    ]) {
      const answer = await call(cast.teamAdmin, 'PUT', '/api/services/checkout/slo', body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(json(await call(cast.teamMember, 'GET', '/api/services/checkout/slo'))).toMatchObject({
      target: 99.95,
      window_days: 28,
    });
  });

  it('measures a health change made through the API, with maintenance left out', async () => {
    const t0 = base;
    await at(t0, () => call(cast.teamAdmin, 'PUT', '/api/services/checkout/slo', { target: 99.9, window_days: 30 }));
    const change = (ms: number, health: string) =>
      at(ms, () => call(cast.teamAdmin, 'POST', '/api/services/checkout/actions/change-health', { health }));
    expect((await change(t0, 'maintenance')).statusCode).toBe(200);
    await change(t0 + HOUR, 'good');
    await change(t0 + 2 * HOUR, 'critical');

    const status = json<Record<string, unknown>>(
      await at(t0 + 2 * HOUR + 30 * MINUTE, () => call(cast.teamMember, 'GET', '/api/services/checkout/slo/status')),
    );
    // 30 days allow 2,592 s (less the hour of maintenance: 2,588); 1,800 s of critical are spent.
    expect(status).toMatchObject({
      target: 99.9,
      window_days: 30,
      budget: { total_seconds: 2588, left_seconds: 788 },
      maintenance_seconds_excluded: 3600,
      burn_rates: { '1h': 500 },
      alerts: { fast: true, slow: true },
      as_of: new Date(t0 + 2 * HOUR + 30 * MINUTE).toISOString(),
    });
    // Half of the last hour was critical: 788 s left last 1,576 s.
    expect(status.exhausted_at).toBe(new Date(t0 + 2 * HOUR + 30 * MINUTE + 1576 * 1000).toISOString());
    // The service is 10 days and 2.5 hours old: 1,800 problem seconds of the 869,400 observed outside maintenance.
    expect(status.availability).toBe(99.793);
  });

  it('is removed by editors only, once', async () => {
    expect((await call(cast.guest, 'DELETE', '/api/services/checkout/slo')).statusCode).toBe(403);
    expect((await call(cast.teamAdmin, 'DELETE', '/api/services/checkout/slo')).statusCode).toBe(204);
    expect((await call(cast.teamAdmin, 'DELETE', '/api/services/checkout/slo')).statusCode).toBe(404);
    expect((await call(cast.teamMember, 'GET', '/api/services/checkout/slo/status')).statusCode).toBe(404);
  });
});

describe('the health logs an evaluation reads', () => {
  it('are read for many services at once exactly as one by one', async () => {
    const db = server.ctx.database.db;
    const ids = await db
      .selectFrom('services')
      .select(['id', 'workspace_id'])
      .where('handle', 'in', ['payments-api', 'vault'])
      .execute();
    const workspaceId = ids[0]!.workspace_id;
    const from = base - 30 * DAY;
    const to = base - 2 * DAY;
    // Before the range (the last one of them counts), on its edges, within it, and after it.
    const offsets = [-40 * DAY, -31 * DAY, -30 * DAY, -29 * DAY, -10 * DAY, -2 * DAY, -DAY];
    const healths = ['warning', 'good', 'critical', 'good', 'error', 'good', 'warning'] as const;
    for (const [index, { id }] of ids.entries()) {
      await db
        .insertInto('health_transitions')
        .values(
          offsets.slice(index).map((offset, at) => ({
            workspace_id: workspaceId,
            service_id: id,
            at: base + offset,
            health: healths[at]!,
            source: 'manual' as const,
          })),
        )
        .execute();
    }
    const serviceIds = [...ids.map((row) => row.id), 'no-such-service'];
    const together = await listHealthTransitionsOf(db, workspaceId, serviceIds, from, to);
    for (const id of serviceIds) {
      expect(together.get(id), id).toEqual(await listHealthTransitions(db, workspaceId, id, from, to));
    }
    expect(together.get(ids[0]!.id)!.map((t) => t.at - base)).toEqual([-30 * DAY, -29 * DAY, -10 * DAY, -2 * DAY]);
    await db
      .deleteFrom('health_transitions')
      .where(
        'service_id',
        'in',
        ids.map((row) => row.id),
      )
      .where(
        'at',
        'in',
        offsets.map((offset) => base + offset),
      )
      .execute();
  });
});

describe('burn-rate alerts', () => {
  const alertEvents = () =>
    server.ctx.database.db
      .selectFrom('events')
      .innerJoin('services', 'services.id', 'events.profile_id')
      .select(['events.data', 'events.created_at'])
      .where('services.handle', '=', 'payments-api')
      .where('events.type', '=', 'slo.burn_alert')
      .orderBy('events.created_at')
      .execute();
  const sweep = (ms: number) => at(ms, () => sweepSloAlerts(server.ctx));
  const change = (ms: number, health: string) =>
    at(ms, () => call(cast.teamAdmin, 'POST', '/api/services/payments-api/actions/change-health', { health }));

  it('become an event, a notification and nothing more once per crossing', async () => {
    const t0 = base;
    await at(t0 - HOUR, () =>
      call(cast.teamAdmin, 'PUT', '/api/services/payments-api/slo', { target: 99.9, window_days: 30 }),
    );
    expect(await sweep(t0)).toBe(0);

    // Ten minutes down: the last five minutes burn 1,000 times over, the last hour 166, the last six 27.8.
    await change(t0, 'critical');
    expect(await sweep(t0 + 10 * MINUTE)).toBe(2);
    expect(await sweep(t0 + 11 * MINUTE)).toBe(0);
    expect((await alertEvents()).map((event) => JSON.parse(event.data))).toEqual([
      { alert: 'fast', target: 99.9, window_days: 30, burn_rate: 166.67 },
      { alert: 'slow', target: 99.9, window_days: 30, burn_rate: 27.78 },
    ]);
    const notifications = json<Array<{ message: string }>>(
      await call(cast.teamMember, 'GET', `/api/users/${cast.teamMember.handle}/notifications`),
    );
    expect(notifications.map((n) => n.message)).toContain(
      'Payments API: SLO 99.9% over 30 days: error budget burning fast (166.67× over 1 hour)',
    );

    // Good again: both stop firing (the short windows are clean), and a new spell is a new crossing.
    await change(t0 + 20 * MINUTE, 'good');
    expect(await sweep(t0 + 2 * HOUR)).toBe(0);
    await change(t0 + 2 * HOUR + MINUTE, 'critical');
    expect(await sweep(t0 + 2 * HOUR + 10 * MINUTE)).toBe(2);
    expect(await alertEvents()).toHaveLength(4);
  });
});
