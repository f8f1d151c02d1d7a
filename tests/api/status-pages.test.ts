import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import type { StatusPage, StatusSummary, StatusView } from '../../src/contract/status-pages.js';
import { DnsStandIn } from '../support/dns-stand-in.js';
import { createService, createTeam, seedWorkspace, type SeededWorkspace } from '../support/fixtures.js';
import { callAs, hostOf, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

/**
 * Issue 27: public status pages. Admins manage them; visitors read them with no login (or a password, or a
 * session of the workspace); components show their own status apart from trouble upstream.
 */
let server: TestServer;
let cast: SeededWorkspace;
let admin: Member;
let alice: Member;
/** Where a custom domain's TXT record is found. */
const dns = new DnsStandIn();

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);
/** A visitor: no login, the workspace's host (or another host), maybe a cookie. */
const visit = (
  url: string,
  options: { host?: string; cookie?: string; method?: 'GET' | 'POST'; payload?: object } = {},
) =>
  server.app.inject({
    method: options.method ?? 'GET',
    url,
    headers: { host: options.host ?? hostOf('statusco'), ...(options.cookie ? { cookie: options.cookie } : {}) },
    ...(options.payload ? { payload: options.payload } : {}),
  });
const setHealth = (service: string, health: string) =>
  call(alice, 'POST', `/api/services/${service}/actions/change-health`, { health });

beforeAll(async () => {
  server = await startTestServer({ BEACON_DNS_RESOLVERS: await dns.start() });
  cast = await seedWorkspace(server, { domain: 'statusco', outsiderDomain: 'elsewhere' });
  ({ admin, teamAdmin: alice } = cast);
  const team = cast.team.handle;
  await createService(server, alice, team, { name: 'Checkout', handle: 'checkout' });
  await createService(server, alice, team, { name: 'Payments', handle: 'payments' });
  await createService(server, alice, team, { name: 'Database', handle: 'database' });
  await createService(server, alice, team, { name: 'Secret vault', handle: 'vault', visibility: 'owner' });
  await createService(server, alice, team, { name: 'Search', handle: 'search' });
  // checkout -> payments -> database; search -> vault (owner-only) ; checkout -> elsewhere:status-api (remote)
  await call(alice, 'POST', '/api/services/checkout/dependencies', { service: { id: 'payments' } });
  await call(alice, 'POST', '/api/services/payments/dependencies', { service: { id: 'database' } });
  await call(alice, 'POST', '/api/services/search/dependencies', { service: { id: 'vault' } });
  await createTeam(server, cast.outsider, { name: 'Status', handle: 'status' });
  await createService(server, cast.outsider, 'status', {
    name: 'Status API',
    handle: 'status-api',
    visibility: 'public',
  });
  expect((await call(cast.owner, 'POST', '/api/remotes', { remote: 'elsewhere' })).statusCode).toBe(201);
  const remote = await call(alice, 'POST', '/api/services/search/remote-dependencies', {
    workspace: 'elsewhere',
    service: 'status-api',
  });
  expect(remote.statusCode).toBe(201);
});
afterAll(async () => {
  await server.close();
  await dns.close();
});

describe('managing status pages', () => {
  it('is for workspace admins and owners only', async () => {
    for (const actor of [alice, cast.teamMember, cast.guest]) {
      expect((await call(actor, 'GET', '/api/status-pages')).statusCode).toBe(403);
      expect((await call(actor, 'POST', '/api/status-pages', { handle: 'x', title: 'X' })).statusCode).toBe(403);
    }
    expect(json(await call(admin, 'GET', '/api/status-pages'))).toEqual([]);
  });

  it('creates a page with groups of services, in order, and refuses what does not hold', async () => {
    const body = {
      handle: 'public',
      title: 'Acme status',
      description: 'How our services are doing',
      groups: [
        { name: 'Shop', services: ['checkout', 'search'] },
        { name: 'Platform', services: ['payments'] },
      ],
    };
    const created = await call(admin, 'POST', '/api/status-pages', body);
    expect(created.statusCode).toBe(201);
    const page = json<StatusPage>(created);
    expect(page).toMatchObject({
      handle: 'public',
      title: 'Acme status',
      access: 'public',
      has_password: false,
      show_upstream: true,
      upstream_depth: 3,
      groups: body.groups,
      url: 'http://statusco.localhost:8080/status/public',
    });
    expect((await call(admin, 'POST', '/api/status-pages', body)).statusCode).toBe(409);
    const unknown = await call(admin, 'POST', '/api/status-pages', {
      handle: 'other',
      title: 'Other',
      groups: [{ name: 'A', services: ['nothing-here'] }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(json(unknown)).toMatchObject({ errors: { groups: ['No service nothing-here in this workspace'] } });
    const twice = await call(admin, 'POST', '/api/status-pages', {
      handle: 'other',
      title: 'Other',
      groups: [{ name: 'A', services: ['checkout', 'checkout'] }],
    });
    expect(twice.statusCode).toBe(400);
    const locked = await call(admin, 'POST', '/api/status-pages', {
      handle: 'other',
      title: 'Other',
      access: 'password',
    });
    expect(json(locked)).toMatchObject({ errors: { password: ['Required for a password page'] } });
    const base = await call(admin, 'POST', '/api/status-pages', {
      handle: 'other',
      title: 'Other',
      custom_domain: 'nope.localhost',
    });
    expect(base.statusCode).toBe(400);
    // Nothing of the refused ones was written.
    expect(json<StatusPage[]>(await call(admin, 'GET', '/api/status-pages')).map((p) => p.handle)).toEqual(['public']);
  });

  it('updates a page: a field left out keeps its value, groups replace the old ones', async () => {
    const patched = await call(admin, 'PATCH', '/api/status-pages/public', { upstream_depth: 2 });
    expect(json<StatusPage>(patched)).toMatchObject({ upstream_depth: 2, title: 'Acme status' });
    expect(json<StatusPage>(patched).groups).toHaveLength(2);
    const back = await call(admin, 'PATCH', '/api/status-pages/public', { upstream_depth: 3 });
    expect(back.statusCode).toBe(200);
    expect((await call(cast.outsider, 'GET', '/api/status-pages/public')).statusCode).toBe(404);
  });
});

describe('what a visitor reads', () => {
  it('serves the page with no login, complete in its first answer', async () => {
    const page = await visit('/status/public');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Acme status');
    expect(page.body).toContain('Checkout');
    expect(page.body).toContain('All Systems Operational');
    expect(page.body).not.toContain('Payments (');
    // On the wire, compressed as browsers ask for it.
    const wire = await server.app.inject({
      method: 'GET',
      url: '/status/public',
      headers: { host: hostOf('statusco'), 'accept-encoding': 'br, gzip' },
    });
    expect(wire.headers['content-encoding']).toBe('br');
    expect(wire.rawPayload.byteLength).toBeLessThan(60_000);
    const again = await visit('/status/public', { cookie: '' });
    const etag = page.headers.etag as string;
    expect(etag).toBeTruthy();
    expect(again.headers.etag).toBe(etag);
    const revalidated = await server.app.inject({
      method: 'GET',
      url: '/status/public',
      headers: { host: hostOf('statusco'), 'if-none-match': etag },
    });
    expect(revalidated.statusCode).toBe(304);
  });

  it('maps health to Statuspage statuses, and shows trouble upstream apart from the own status', async () => {
    await setHealth('database', 'critical');
    const view = json<StatusView>(await visit('/api/status/public/view'));
    const checkout = view.components.find((component) => component.handle === 'checkout')!;
    expect(checkout.status).toBe('operational');
    expect(checkout.affected_by).toEqual([
      { path: ['payments', 'database'], names: ['Payments', 'Database'], status: 'major_outage' },
    ]);
    // Its own bars and uptime are untouched by what is upstream.
    expect(checkout.days.at(-1)).toMatchObject({ status: 'operational', uptime: 100 });
    expect(checkout.uptime_90d).toBe(100);
    expect(checkout.days).toHaveLength(90);
    // Days before the service existed are no data, never 100 %.
    expect(checkout.days[0]).toMatchObject({ status: 'no_data', uptime: null });
    const payments = view.components.find((component) => component.handle === 'payments')!;
    expect(payments.affected_by).toEqual([{ path: ['database'], names: ['Database'], status: 'major_outage' }]);
    // An owner-only service is never walked through or named.
    const search = view.components.find((component) => component.handle === 'search')!;
    expect(search.affected_by).toEqual([]);
    // A component's own trouble sets the overall line.
    await setHealth('payments', 'warning');
    const after = json<StatusView>(await visit('/api/status/public/view'));
    expect(after.status).toEqual({ indicator: 'minor', description: 'Partially Degraded Service' });
    expect(after.components.find((c) => c.handle === 'payments')!.status).toBe('degraded_performance');
    const html = (await visit('/status/public')).body;
    expect(html.replace(/<[^>]+>/g, '')).toContain('Affected: depends on Payments → Database (major outage)');
    await setHealth('payments', 'good');
    await setHealth('database', 'good');
  });

  it('follows a dependency into a linked workspace, within the page depth', async () => {
    await call(cast.outsider, 'POST', '/api/services/status-api/actions/change-health', { health: 'error' });
    const view = json<StatusView>(await visit('/api/status/public/view'));
    const search = view.components.find((component) => component.handle === 'search')!;
    expect(search.affected_by).toEqual([
      { path: ['elsewhere:status-api'], names: ['Status API'], status: 'partial_outage' },
    ]);
    await call(admin, 'PATCH', '/api/status-pages/public', { show_upstream: false });
    const hidden = json<StatusView>(await visit('/api/status/public/view'));
    expect(hidden.components.every((component) => component.affected_by.length === 0)).toBe(true);
    await call(admin, 'PATCH', '/api/status-pages/public', { show_upstream: true, upstream_depth: 1 });
    const shallow = json<StatusView>(await visit('/api/status/public/view'));
    expect(shallow.components.find((component) => component.handle === 'checkout')!.affected_by).toEqual([]);
    await call(admin, 'PATCH', '/api/status-pages/public', { upstream_depth: 3 });
    await call(cast.outsider, 'POST', '/api/services/status-api/actions/change-health', { health: 'good' });
  });

  it("answers Statuspage's summary.json shape with incidents and scheduled maintenance", async () => {
    const incident = await call(alice, 'POST', '/api/services/checkout/notices', {
      type: 'incident',
      title: 'Card payments failing',
      message: 'We are looking into it',
      health: 'error',
    });
    expect(incident.statusCode).toBe(201);
    const maintenance = await call(alice, 'POST', '/api/services/payments/notices', {
      type: 'maintenance',
      title: 'Database upgrade',
      message: 'Planned',
      starts_at: '2099-01-01T02:00:00Z',
      ends_at: '2099-01-01T04:00:00Z',
    });
    expect(maintenance.statusCode).toBe(201);
    const summary = json<StatusSummary>(await visit('/api/status/public/summary.json'));
    expect(summary.page).toMatchObject({ name: 'Acme status', url: 'http://statusco.localhost:8080/status/public' });
    expect(summary.status).toEqual({ indicator: 'major', description: 'Partial System Outage' });
    expect(summary.components.map((c) => [c.id, c.status])).toEqual([
      ['checkout', 'partial_outage'],
      ['search', 'operational'],
      ['payments', 'operational'],
    ]);
    expect(summary.incidents).toHaveLength(1);
    expect(summary.incidents[0]).toMatchObject({
      name: 'Card payments failing',
      status: 'investigating',
      impact: 'major',
      incident_updates: [{ status: 'investigating', body: 'We are looking into it' }],
    });
    expect(summary.scheduled_maintenances).toHaveLength(1);
    expect(summary.scheduled_maintenances[0]).toMatchObject({
      name: 'Database upgrade',
      scheduled_for: '2099-01-01T02:00:00.000Z',
      scheduled_until: '2099-01-01T04:00:00.000Z',
    });
    // A window belongs to maintenance; a post-mortem to an incident.
    const refused = await call(alice, 'POST', '/api/services/checkout/notices', {
      type: 'incident',
      title: 'x',
      message: 'x',
      starts_at: '2099-01-01T02:00:00Z',
    });
    expect(refused.statusCode).toBe(400);
    const id = json<{ id: string }>(incident).id;
    const resolved = await call(alice, 'PATCH', `/api/notices/${id}`, {
      status: 'resolved',
      message: 'Fixed',
      health: 'good',
      postmortem: '## What happened\n\nA bad deploy. <script>alert(1)</script>',
    });
    expect(resolved.statusCode).toBe(200);
    const permalink = await visit(`/status/public/incidents/${id}`);
    expect(permalink.statusCode).toBe(200);
    expect(permalink.body).toContain('What happened');
    expect(permalink.body).not.toContain('<script>alert(1)</script>');
    expect((await visit('/status/public/incidents/00000000-0000-0000-0000-000000000000')).statusCode).toBe(404);
    const history = await visit('/api/status/public/history');
    expect(history.headers.total).toBe('1');
    expect(json<{ title: string }[]>(history).map((n) => n.title)).toEqual(['Card payments failing']);
  });

  it('gives Atom feeds, SVG badges and a Shields endpoint', async () => {
    const feed = await visit('/status/public/feed.atom');
    expect(feed.headers['content-type']).toContain('application/atom+xml');
    const xml = new DOMParser().parseFromString(feed.body, 'application/xml');
    const titles = Array.from(xml.getElementsByTagName('entry')).map(
      (entry) => entry.getElementsByTagName('title')[0]!.textContent,
    );
    expect(titles.some((title) => title?.includes('Card payments failing'))).toBe(true);
    const component = await visit('/status/public/components/payments/feed.atom');
    expect(component.body).toContain('Database upgrade');
    expect(component.body).not.toContain('Card payments failing');
    const badge = await visit('/status/public/badges/checkout.svg');
    expect(badge.headers['content-type']).toContain('image/svg+xml');
    expect(badge.body).toMatch(/operational/i);
    const uptime = await visit('/status/public/badges/checkout.svg?kind=uptime');
    expect(uptime.body).toMatch(/\d+\.\d{2}% \(30d\)/);
    const shields = json(await visit('/api/status/public/shields/checkout.json'));
    expect(shields).toEqual({ schemaVersion: 1, label: 'Checkout', message: 'operational', color: 'brightgreen' });
    // A service the page does not show is never shown.
    expect((await visit('/status/public/badges/database.svg')).statusCode).toBe(404);
    expect((await visit('/api/status/public/shields/database.json')).statusCode).toBe(404);
  });
});

describe('revalidating the JSON reads', () => {
  const reads = [
    '/api/status/public/summary.json',
    '/api/status/public/view',
    '/api/status/public/history',
    '/api/status/public/history?limit=1',
    '/api/status/public/shields/checkout.json',
  ];
  const revalidate = (url: string, etag: string) =>
    server.app.inject({ method: 'GET', url, headers: { host: hostOf('statusco'), 'if-none-match': etag } });

  it('gives summary.json, view, history and the Shields endpoint an ETag each, and 304 while it stands', async () => {
    const etags = new Map<string, string>();
    for (const url of reads) {
      const read = await visit(url);
      expect(read.statusCode, url).toBe(200);
      const etag = read.headers.etag as string;
      expect(etag, url).toMatch(/^W\/".+"$/);
      expect(read.headers['cache-control'], url).toBe('no-cache');
      expect((await visit(url)).headers.etag, url).toBe(etag);
      const again = await revalidate(url, etag);
      expect(again.statusCode, url).toBe(304);
      expect(again.body, url).toBe('');
      expect(again.headers.etag, url).toBe(etag);
      // Among others, as a cache sends them.
      expect((await revalidate(url, `W/"other", ${etag}`)).statusCode, url).toBe(304);
      etags.set(url, etag);
    }
    // One read's ETag is no other's.
    expect(new Set(etags.values()).size).toBe(reads.length);
    expect((await revalidate(reads[0]!, etags.get(reads[1]!)!)).statusCode).toBe(200);

    // A change of what the page shows ends them all.
    await setHealth('checkout', 'warning');
    for (const url of reads) {
      const changed = await revalidate(url, etags.get(url)!);
      expect(changed.statusCode, url).toBe(200);
      expect(changed.headers.etag, url).not.toBe(etags.get(url));
    }
    await setHealth('checkout', 'good');
  });
});

describe('subscribing', () => {
  it('refuses a webhook into a private network, as checks are refused', async () => {
    for (const webhook_url of [
      'http://127.0.0.1:9/hook',
      'http://10.0.0.8/hook',
      'http://[::1]/hook',
      'http://169.254.169.254/',
    ]) {
      const refused = await visit('/api/status/public/subscriptions', { method: 'POST', payload: { webhook_url } });
      expect(refused.statusCode, webhook_url).toBe(400);
      expect(json(refused)).toMatchObject({ errors: { webhook_url: [expect.any(String)] } });
    }
    const both = await visit('/api/status/public/subscriptions', {
      method: 'POST',
      payload: { email: 'a@example.com', webhook_url: 'https://example.com/hook' },
    });
    expect(both.statusCode).toBe(400);
    const subscribers = json<unknown[]>(await call(admin, 'GET', '/api/status-pages/public/subscribers'));
    expect(subscribers).toEqual([]);
  });
});

describe('who may read', () => {
  it('never reaches another workspace through this host', async () => {
    expect((await visit('/status/public', { host: hostOf('elsewhere') })).statusCode).toBe(404);
    expect((await visit('/api/status/public/summary.json', { host: hostOf('elsewhere') })).statusCode).toBe(404);
  });

  it('asks a password page for its password, and the cookie opens it', async () => {
    await call(admin, 'POST', '/api/status-pages', {
      handle: 'partners',
      title: 'Partner status',
      access: 'password',
      password: 'open sesame',
      groups: [{ name: '', services: ['checkout'] }],
    });
    const locked = await visit('/status/partners');
    expect(locked.statusCode).toBe(401);
    expect(locked.body).not.toContain('Checkout');
    expect((await visit('/api/status/partners/summary.json')).statusCode).toBe(401);
    const wrong = await visit('/api/status/partners/unlock', { method: 'POST', payload: { password: 'nope' } });
    expect(wrong.statusCode).toBe(401);
    const right = await visit('/api/status/partners/unlock', { method: 'POST', payload: { password: 'open sesame' } });
    expect(right.statusCode).toBe(204);
    const cookie = String(right.headers['set-cookie']).split(';')[0]!;
    expect((await visit('/status/partners', { cookie })).body).toContain('Checkout');
    // A new password locks every browser out again.
    await call(admin, 'PATCH', '/api/status-pages/partners', { password: 'another one' });
    expect((await visit('/status/partners', { cookie })).statusCode).toBe(401);
  });

  it('opens a members page to a session of the workspace only', async () => {
    await call(admin, 'POST', '/api/status-pages', {
      handle: 'internal',
      title: 'Internal status',
      access: 'members',
      groups: [{ name: 'All', services: ['search'] }],
    });
    expect((await visit('/status/internal')).statusCode).toBe(401);
    expect((await visit('/status/internal', { cookie: `beacon_session=${cast.guest.cookie}` })).body).toContain(
      'Search',
    );
    expect((await visit('/status/internal', { cookie: `beacon_session=${cast.outsider.cookie}` })).statusCode).toBe(
      401,
    );
  });

  it('serves a page on its custom domain at the root, and nowhere else', async () => {
    const named = json<StatusPage>(
      await call(admin, 'PATCH', '/api/status-pages/public', { custom_domain: 'status.acme.example' }),
    );
    // Served once proved (tests/api/custom-domains.test.ts tells the rest).
    dns.txt.set(named.custom_domain_record!.name, [named.custom_domain_token!]);
    const verified = await call(admin, 'POST', '/api/status-pages/public/actions/verify-domain');
    expect(json<StatusPage>(verified).custom_domain_status).toBe('verified');
    const root = await visit('/', { host: 'status.acme.example' });
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('Acme status');
    expect((await visit('/feed.atom', { host: 'status.acme.example' })).statusCode).toBe(200);
    // All of a custom domain is its page: crawlers may read all of it.
    expect((await visit('/robots.txt', { host: 'status.acme.example' })).body).toBe('User-agent: *\nAllow: /\n');
    expect((await visit('/api/status/public/summary.json', { host: 'status.acme.example' })).statusCode).toBe(200);
    expect((await visit('/api/status/partners/summary.json', { host: 'status.acme.example' })).statusCode).toBe(404);
    const taken = await call(cast.outsider, 'POST', '/api/status-pages', {
      handle: 'mine',
      title: 'Mine',
      custom_domain: 'status.acme.example',
    });
    expect(taken.statusCode).toBe(409);
  });

  it('deletes a page and its components', async () => {
    expect((await call(admin, 'DELETE', '/api/status-pages/internal')).statusCode).toBe(204);
    expect((await visit('/status/internal')).statusCode).toBe(404);
  });
});
