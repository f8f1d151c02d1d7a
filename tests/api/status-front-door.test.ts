/**
 * Issue 27: a public status page and its summary.json are answered at the front door (front-door.ts), ahead of
 * Fastify, once their answer at the page's current versions is kept. Over real HTTP (the door stands in front of
 * the server, which inject does not go through): the door's answers are the route's, header for header and byte
 * for byte; a change another process writes shows in the very next answer; and nothing but a public page on its
 * workspace's host is served there.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusPage } from '../../src/contract/status-pages.js';
import { frontDoorServed } from '../../src/server/routes/status-pages.js';
import { DnsStandIn } from '../support/dns-stand-in.js';
import { createService, seedWorkspace, workspaceIdOf, type SeededWorkspace } from '../support/fixtures.js';
import { writeElsewhere } from '../support/other-process.js';
import { callAs, hostOf, json, type Method, type TestServer, startTestServer } from '../support/server.js';

let server: TestServer;
/** Where the custom domain's TXT record is found. */
const dns = new DnsStandIn();
let cast: SeededWorkspace;
let port: number;

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A visitor's GET over HTTP, on the workspace's host unless told. */
function get(path: string, headers: Record<string, string> = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers: { host: hostOf('doorco'), ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

/** `get`, and whether the front door gave the answer. */
async function getCounted(path: string, headers: Record<string, string> = {}) {
  const before = frontDoorServed(server.ctx).count;
  const got = await get(path, headers);
  return { ...got, atDoor: frontDoorServed(server.ctx).count > before };
}

/** Every header but the moment it was sent. */
const headersOf = ({ headers }: Got) => Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'date'));

const call = (method: Method, url: string, payload?: object) => callAs(server, cast.admin, method, url, payload);

beforeAll(async () => {
  server = await startTestServer({ BEACON_DNS_RESOLVERS: await dns.start() });
  cast = await seedWorkspace(server, { domain: 'doorco', outsiderDomain: 'elsewhere' });
  const team = cast.team.handle;
  await createService(server, cast.teamAdmin, team, { name: 'Checkout', handle: 'checkout' });
  await createService(server, cast.teamAdmin, team, { name: 'Payments', handle: 'payments' });
  const groups = [{ name: 'Shop', services: ['checkout', 'payments'] }];
  for (const page of [
    { handle: 'public', title: 'Door status', groups },
    { handle: 'partners', title: 'Partner status', access: 'password', password: 'open sesame', groups },
    { handle: 'internal', title: 'Internal status', access: 'members', groups },
  ])
    expect((await call('POST', '/api/status-pages', page)).statusCode).toBe(201);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  port = (server.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await server.close();
  await dns.close();
});

describe('the front door', () => {
  it('gives a kept public page with the headers and bytes its route gave, in each coding', async () => {
    for (const coding of ['br', 'gzip', '']) {
      const asked: Record<string, string> = coding ? { 'accept-encoding': coding } : {};
      const routed = await getCounted('/status/public', asked);
      const door = await getCounted('/status/public', asked);
      expect(routed.status).toBe(200);
      expect(door.atDoor).toBe(true);
      expect(door.status).toBe(200);
      expect(headersOf(door)).toEqual(headersOf(routed));
      expect(door.body.equals(routed.body)).toBe(true);
      const html = (coding === 'br' ? brotliDecompressSync : coding === 'gzip' ? gunzipSync : (b: Buffer) => b)(
        door.body,
      ).toString();
      expect(html).toContain('Door status');
      expect(html).toContain('Checkout');
    }
  });

  it('revalidates with the ETag at the door: 304 with the page’s ETag and the app’s security headers', async () => {
    const page = await get('/status/public');
    const etag = page.headers.etag as string;
    const door = await getCounted('/status/public', { 'if-none-match': etag });
    expect(door.atDoor).toBe(true);
    expect(door.status).toBe(304);
    expect(door.body.length).toBe(0);
    expect(door.headers.etag).toBe(etag);
    expect(door.headers['cache-control']).toBe('no-cache');
    expect(door.headers['x-content-type-options']).toBe('nosniff');
    // As the route gives it: the page's own policy (its script's hash) goes with the page; a 304 has the app's.
    expect(page.headers['content-security-policy']).toContain('sha256-');
    expect(door.headers['content-security-policy']).not.toContain('sha256-');
  });

  it('gives summary.json as its route does', async () => {
    for (const coding of ['gzip', '']) {
      const asked: Record<string, string> = coding ? { 'accept-encoding': coding } : {};
      const routed = await getCounted('/api/status/public/summary.json', asked);
      const door = await getCounted('/api/status/public/summary.json', asked);
      expect(door.atDoor).toBe(true);
      expect(headersOf(door)).toEqual(headersOf(routed));
      expect(door.body.equals(routed.body)).toBe(true);
      expect(door.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('revalidates summary.json with its ETag at the door, as its route does', async () => {
    const summary = await getCounted('/api/status/public/summary.json');
    expect(summary.atDoor).toBe(true);
    const etag = summary.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    const door = await getCounted('/api/status/public/summary.json', { 'if-none-match': etag });
    expect(door.atDoor).toBe(true);
    expect(door.status).toBe(304);
    expect(door.body.length).toBe(0);
    expect(door.headers).toMatchObject({ etag, 'cache-control': 'no-cache', 'access-control-allow-origin': '*' });
    // The route answers a page the door does not serve the same way.
    const routed = await server.app.inject({
      method: 'GET',
      url: '/api/status/public/summary.json',
      headers: { host: hostOf('doorco'), 'if-none-match': etag },
    });
    expect(routed.statusCode).toBe(304);
    expect(routed.headers.etag).toBe(etag);
  });

  it('shows a change another process writes in the very next answer', async () => {
    const before = await getCounted('/api/status/public/summary.json');
    expect(before.atDoor).toBe(true);
    const statusOf = (got: Got) =>
      (JSON.parse(got.body.toString()) as { components: { name: string; status: string }[] }).components.find(
        (component) => component.name === 'Checkout',
      )?.status;
    expect(statusOf(before)).toBe('operational');
    const page = await get('/status/public');
    const workspaceId = await workspaceIdOf(server, 'doorco');
    await writeElsewhere(server.database, [
      {
        sql: `update services set health = 'critical' where workspace_id = ? and handle = 'checkout'`,
        values: [workspaceId],
      },
    ]);
    const after = await get('/api/status/public/summary.json');
    expect(statusOf(after)).toBe('major_outage');
    const changed = await get('/status/public');
    expect(changed.headers.etag).not.toBe(page.headers.etag);
    expect(changed.body.toString()).toContain('Major System Outage');
    // The old ETag no longer revalidates.
    expect((await get('/status/public', { 'if-none-match': page.headers.etag as string })).status).toBe(200);
    // Made again once, then at the door.
    expect((await getCounted('/status/public')).atDoor).toBe(true);
  });

  it('serves no password or members page, and no page through another workspace’s host', async () => {
    // Each page opened once by who may read it: its answer is kept, which a visitor must still not get.
    const unlock = await server.app.inject({
      method: 'POST',
      url: '/api/status/partners/unlock',
      headers: { host: hostOf('doorco') },
      payload: { password: 'open sesame' },
    });
    expect(unlock.statusCode).toBe(204);
    const partner = String(unlock.headers['set-cookie']).split(';')[0]!;
    expect((await get('/status/partners', { cookie: partner })).body.length).toBeGreaterThan(0);
    expect((await get('/api/status/partners/summary.json', { cookie: partner })).status).toBe(200);
    const member = await get('/status/internal', { cookie: `beacon_session=${cast.guest.cookie}` });
    expect(member.status).toBe(200);
    for (const path of ['/status/partners', '/status/internal', '/api/status/partners/summary.json']) {
      for (let i = 0; i < 2; i++) {
        const got = await getCounted(path);
        expect(got.status).toBe(401);
        expect(got.atDoor).toBe(false);
        expect(got.body.toString()).not.toContain('Checkout');
      }
    }
    await get('/status/public');
    const elsewhere = await getCounted('/status/public', { host: hostOf('elsewhere') });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.atDoor).toBe(false);
  });

  it('leaves a custom domain to the routes, which serve the page at its root only', async () => {
    const named = await call('PATCH', '/api/status-pages/public', { custom_domain: 'status.door.example' });
    const record = json<StatusPage>(named).custom_domain_record!;
    dns.txt.set(record.name, [record.value]);
    const verified = await call('POST', '/api/status-pages/public/actions/verify-domain');
    expect(json<StatusPage>(verified).custom_domain_status).toBe('verified');
    const host = { host: 'status.door.example' };
    for (let i = 0; i < 2; i++) {
      const root = await getCounted('/', host);
      expect(root.status).toBe(200);
      expect(root.atDoor).toBe(false);
      expect(root.body.toString()).toContain('Door status');
      const named = await getCounted('/status/public', host);
      expect(named.status).toBe(404);
      expect(named.atDoor).toBe(false);
    }
  });
});
