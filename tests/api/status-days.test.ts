import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordHealthTransition } from '../../src/server/db/repositories/health.js';
import { StatusDays, type DaysService } from '../../src/server/services/status-pages/status-days.js';
import { createService, seedWorkspace, type SeededWorkspace, workspaceIdOf } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Issue 27's speed: a status page's bars are made again on every change from only the transitions written
 * since the last making (services/status-pages/status-days.ts). They must be exactly what reading everything again gives.
 */
let server: TestServer;
let cast: SeededWorkspace;
let services: DaysService[];
let workspaceId: string;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  server = await startTestServer();
  cast = await seedWorkspace(server, { domain: 'daysco' });
  for (const handle of ['alpha', 'beta']) {
    await createService(server, cast.teamAdmin, cast.team.handle, { name: handle, handle });
  }
  workspaceId = await workspaceIdOf(server, cast.domain);
  const rows = await server.ctx.database.db
    .selectFrom('services')
    .select(['id', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('handle', 'in', ['alpha', 'beta'])
    .orderBy('handle')
    .execute();
  services = rows;
});
afterAll(() => server.close());

const transition = (serviceId: string, at: number, health: 'warning' | 'critical' | 'good') =>
  recordHealthTransition(server.ctx.database.db, {
    workspace_id: workspaceId,
    service_id: serviceId,
    at,
    health,
    source: 'manual',
  });

describe('status page bars made again from what changed', () => {
  it('counts the transitions written since the last making, as a fresh read does', async () => {
    const [alpha, beta] = services as [DaysService, DaysService];
    // From the next midnight (UTC) on, so every making below falls on one day whatever the time the test runs.
    const created = Math.ceil(Math.max(...services.map((service) => Date.parse(service.created_at))) / DAY) * DAY;
    const kept = new StatusDays();
    const first = await kept.bars(server.ctx, workspaceId, services, created + HOUR);
    expect(first.get(alpha.id)!.today).toMatchObject({ uptime: 100, status: 'operational' });
    expect(first.get(alpha.id)!.uptime).toBe(100);

    // Written after the first making: alpha in trouble for half an hour, beta critical since.
    await transition(alpha.id, created + HOUR + 60_000, 'warning');
    await transition(alpha.id, created + HOUR + 31 * 60_000, 'good');
    await transition(beta.id, created + HOUR + 2 * 60_000, 'critical');
    const now = created + 2 * HOUR;
    const again = await kept.bars(server.ctx, workspaceId, services, now);
    const fresh = await new StatusDays().bars(server.ctx, workspaceId, services, now);
    expect(again).toEqual(fresh);
    expect(again.get(alpha.id)!.today!.status).toBe('degraded_performance');
    expect(again.get(alpha.id)!.uptime).toBeLessThan(100);
    expect(again.get(beta.id)!.today!.status).toBe('major_outage');
    // The days before today are those of the first making, the very same.
    expect(again.get(alpha.id)!.past).toBe(first.get(alpha.id)!.past);

    // A transition that commits late (timed before the last making) is still counted, once.
    await transition(beta.id, created + 2 * HOUR - 30_000, 'good');
    const later = await kept.bars(server.ctx, workspaceId, services, created + 3 * HOUR);
    expect(later).toEqual(await new StatusDays().bars(server.ctx, workspaceId, services, created + 3 * HOUR));
    expect(later.get(beta.id)!.uptime).toBeGreaterThan(again.get(beta.id)!.uptime!);
  });
});
