import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HealthCheck, HealthCheckResult } from '../../src/contract/health.js';
import { closeSharedAgents } from '../../src/runner/probe.js';
import { demoTargetPorts, startDemoTarget, type DemoTarget } from '../../src/server/demo/target.js';
import { startSharedRunner, type SharedRunner } from '../../src/server/jobs/shared-runner.js';
import { freePort } from '../support/processes.js';
import { DEMO_LOGIN, DEMO_REMOTE, seedDemo } from '../../src/server/demo/seed.js';
import { DEMO_STATUS_PAGE } from '../../src/server/demo/showcase.js';
import type { StatusView } from '../../src/contract/status-pages.js';
import type { SloStatusAnswer } from '../../src/contract/slo.js';
import type { Scorecard } from '../../src/contract/scorecards.js';
import { authHeaders, hostOf, json, loginAs, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('beacon demo', () => {
  it('seeds the demo workspace with teams and services through the business rules, once', async () => {
    await seedDemo(server.ctx);
    await seedDemo(server.ctx);
    const owner = await loginAs(server, 'demo', DEMO_LOGIN.email, DEMO_LOGIN.password);
    const teams = await server.app.inject({ method: 'GET', url: '/api/search/teams', headers: authHeaders(owner) });
    expect(teams.headers.total).toBe('3');
    const services = await server.app.inject({
      method: 'GET',
      url: '/api/search/services',
      headers: authHeaders(owner),
    });
    expect(services.headers.total).toBe('8');
    const ledger = json<{ visibility: string; owner: { handle: string } }>(
      await server.app.inject({ method: 'GET', url: '/api/services/ledger', headers: authHeaders(owner) }),
    );
    expect(ledger).toMatchObject({ visibility: 'owner', owner: { handle: 'payments' } });
    const starred = json<Array<{ profile: { handle: string } }>>(
      await server.app.inject({ method: 'GET', url: '/api/users/demo-owner/starred', headers: authHeaders(owner) }),
    );
    expect(starred.map((s) => s.profile.handle)).toEqual(['checkout']);
  });

  it('tells a short story of notices, which set the health and fill the daily bars', async () => {
    const owner = await loginAs(server, 'demo', DEMO_LOGIN.email, DEMO_LOGIN.password);
    const get = async <T>(url: string) =>
      json<T>(await server.app.inject({ method: 'GET', url, headers: authHeaders(owner) }));
    const health = async (handle: string) => (await get<{ health: string }>(`/api/services/${handle}`)).health;
    expect(await health('checkout')).toBe('warning');
    expect(await health('legacy-billing')).toBe('error');
    expect(await health('message-bus')).toBe('maintenance');
    expect(await health('search')).toBe('good');
    const open = await get<Array<{ title: string; status: string; history: unknown[] }>>(
      '/api/services/legacy-billing/notices',
    );
    expect(open).toMatchObject([{ title: 'Invoices fail to render', status: 'identified' }]);
    expect(open[0]!.history).toHaveLength(2);
    const resolved = await get<Array<{ status: string }>>('/api/services/search/notices?status=closed');
    expect(resolved).toMatchObject([{ status: 'resolved' }]);
    // Two hours of critical five days ago, out of the 15 days since the services were created.
    const days = await get<Array<{ date: string; critical: number }>>(
      '/api/services/search/reports/service-health-daily',
    );
    expect(days).toHaveLength(15);
    expect(days.reduce((sum, day) => sum + day.critical, 0)).toBe(2 * 3600);
  });
});

describe('beacon demo: dependencies and a linked workspace', () => {
  it('draws a graph of the demo’s services, with the linked cloud’s public services as remote leaves', async () => {
    const owner = await loginAs(server, 'demo', DEMO_LOGIN.email, DEMO_LOGIN.password);
    const get = async <T>(url: string) =>
      json<T>(await server.app.inject({ method: 'GET', url, headers: authHeaders(owner) }));
    expect(await get<string[]>('/api/remotes')).toEqual([DEMO_REMOTE.workspace]);
    const dependencies = await get<Array<{ handle: string }>>('/api/services/checkout/dependencies');
    expect(dependencies.map((d) => d.handle).sort()).toEqual(['identity', 'ledger', 'message-bus']);
    const remotes = await get<Array<{ handle: string; available: boolean; health: string }>>(
      '/api/services/api-gateway/remote-dependencies',
    );
    expect(remotes).toEqual([expect.objectContaining({ handle: 'cloud-dns', available: true, health: 'maintenance' })]);
    const graph = await get<{ nodes: Array<{ id: string }>; truncated: boolean }>('/api/services/checkout/graph');
    const ids = graph.nodes.map((node) => node.id);
    expect(ids).toEqual(
      expect.arrayContaining(['checkout', 'api-gateway', 'ledger', `${DEMO_REMOTE.workspace}:object-storage`]),
    );
    // The cloud's internal service is never seen from the demo.
    const found = await get<Array<{ handle: string }>>('/api/search-remotes/services');
    expect(found.map((s) => s.handle).sort()).toEqual(['cloud-dns', 'object-storage']);
  });
});

describe('beacon demo: what only Beacon does, in the first minute', () => {
  it('serves a public status page whose Checkout is affected by the linked cloud’s failing storage', async () => {
    const view = json<StatusView>(
      await server.app.inject({
        method: 'GET',
        url: `/api/status/${DEMO_STATUS_PAGE}/view`,
        headers: { host: hostOf('demo') },
      }),
    );
    expect(view.components.map((c) => c.handle)).toEqual(['api-gateway', 'search', 'checkout']);
    const checkout = view.components.find((c) => c.handle === 'checkout')!;
    expect(checkout.affected_by).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: ['message-bus', `${DEMO_REMOTE.workspace}:object-storage`],
          names: ['Message Bus', 'Object Storage'],
          status: 'partial_outage',
        }),
      ]),
    );
    // The owner-only ledger is never walked, though Checkout depends on it.
    expect(JSON.stringify(view)).not.toContain('ledger');
  });

  it('sets an SLO whose budget is burning beside one that holds', async () => {
    const owner = await loginAs(server, 'demo', DEMO_LOGIN.email, DEMO_LOGIN.password);
    const status = async (service: string) =>
      json<SloStatusAnswer>(
        await server.app.inject({
          method: 'GET',
          url: `/api/services/${service}/slo/status`,
          headers: authHeaders(owner),
        }),
      );
    const checkout = await status('checkout');
    expect(checkout.burn_rates['1h']).toBeGreaterThan(100);
    expect(checkout.alerts.fast).toBe(true);
    const search = await status('search');
    expect(search.budget.left_ratio).toBeGreaterThan(0.3);
    expect(search.burn_rates['1h']).toBe(0);
    expect(search.alerts).toEqual({ fast: false, slow: false });
  });

  it('defines two scorecards the services reach at different levels', async () => {
    const owner = await loginAs(server, 'demo', DEMO_LOGIN.email, DEMO_LOGIN.password);
    const cards = json<Scorecard[]>(
      await server.app.inject({ method: 'GET', url: '/api/scorecards', headers: authHeaders(owner) }),
    );
    expect(cards.map((card) => card.name).sort()).toEqual(['On-call ready', 'Operational maturity']);
    for (const card of cards) {
      const reached = card.distribution.filter((entry) => entry.services > 0).map((entry) => entry.level);
      expect(new Set(reached).size, card.name).toBeGreaterThanOrEqual(2);
    }
    const maturity = cards.find((card) => card.handle === 'operational-maturity')!;
    expect(maturity.distribution).toEqual(
      expect.arrayContaining([
        { level: 'gold', services: 1 },
        { level: 'silver', services: 2 },
        { level: 'bronze', services: 5 },
      ]),
    );
  });
});

describe('beacon demo: health checks against its local target (npm run demo)', () => {
  let demo: TestServer;
  let target: DemoTarget | undefined;
  let runner: SharedRunner | undefined;

  beforeAll(async () => {
    // Three ports in a row from the first free one; another test file may take one of the next two meanwhile, and
    // then the whole start is made again on other ports.
    for (let attempt = 1; ; attempt++) {
      const first = await freePort();
      demo = await startTestServer({ BEACON_DEMO_TARGET_PORT: String(first), BEACON_ALLOW_PRIVATE_TARGETS: '1' });
      // As `npm run demo` does: seed, then serve with the target.
      await seedDemo(demo.ctx);
      try {
        target = await startDemoTarget(demo.ctx, demoTargetPorts(first));
        break;
      } catch (error) {
        await demo.close();
        if (attempt === 5 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      }
    }
  });
  afterAll(async () => {
    await runner?.stop();
    await target?.close();
    await closeSharedAgents();
    await demo.close();
  });

  it('seeds checks of every probing kind and a heartbeat; within a minute they show results, and the ten-day certificate fails its assertion with the value it saw', async () => {
    const owner = await loginAs(demo, 'demo', DEMO_LOGIN.email, DEMO_LOGIN.password);
    const get = async <T>(url: string) =>
      json<T>(await demo.app.inject({ method: 'GET', url, headers: authHeaders(owner) }));
    const checks = (
      await Promise.all(
        ['checkout', 'api-gateway', 'identity', 'message-bus', 'ledger'].map((service) =>
          get<HealthCheck[]>(`/api/services/${service}/health-checks`),
        ),
      )
    ).flat();
    expect(new Set(checks.map((check) => check.kind))).toEqual(new Set(['http', 'tls', 'tcp', 'heartbeat']));
    runner = startSharedRunner(demo.ctx, { reloadMs: 500, tickMs: 200 });
    const results = (id: string) => get<HealthCheckResult[]>(`/api/health-checks/${id}/reports/health-check-results`);
    const certificate = checks.find((check) => check.kind === 'tls')!;
    await vi.waitFor(
      async () => {
        for (const check of checks.filter((c) => c.kind !== 'heartbeat'))
          expect((await results(check.id)).length, check.name).toBeGreaterThan(0);
      },
      // Each check's first run falls somewhere in its first interval (15 s, the certificate's 30 s).
      { timeout: 45_000, interval: 500 },
    );
    const [tls] = await results(certificate.id);
    expect(tls).toMatchObject({ success: false, severity: 'warning', cert: { days_left: 9 } });
    expect(tls!.assertions!.find((a) => a.source === 'cert.days_left')).toMatchObject({ actual: '9', pass: false });
    const tcp = checks.find((check) => check.kind === 'tcp')!;
    expect((await results(tcp.id))[0]).toMatchObject({ success: true });
    // The target pinged the heartbeat as soon as it started.
    const heartbeat = checks.find((check) => check.kind === 'heartbeat')!;
    expect((await results(heartbeat.id))[0]).toMatchObject({ success: true });
  }, 60_000);
});
