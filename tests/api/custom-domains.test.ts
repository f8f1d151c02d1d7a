import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusPage } from '../../src/contract/status-pages.js';
import { checkDueDomains } from '../../src/server/jobs/domain-proofs.js';
import { DnsStandIn } from '../support/dns-stand-in.js';
import { seedWorkspace, type Cast } from '../support/fixtures.js';
import { atTime, callAs, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

/**
 * Issue 48 item 4: a custom domain serves its status page only once a `_beacon-challenge.{domain}` TXT record,
 * asked of the checks' resolvers (a DNS server of the test's own), holds the page's token; re-checked daily.
 */
const DOMAIN = 'status.proof.example';
const RECORD = `_beacon-challenge.${DOMAIN}`;
const DAY_MS = 86_400_000;

let server: TestServer;
let cast: Cast;
const dns = new DnsStandIn();

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);
const page = async (actor: Member, handle: string) =>
  json<StatusPage>(await call(actor, 'GET', `/api/status-pages/${handle}`));
const verify = (actor: Member, handle: string) =>
  call(actor, 'POST', `/api/status-pages/${handle}/actions/verify-domain`);
/** A visitor on the custom domain. */
const visit = (url: string, host = DOMAIN) => server.app.inject({ method: 'GET', url, headers: { host } });

beforeAll(async () => {
  const resolver = await dns.start();
  server = await startTestServer({ BEACON_DNS_RESOLVERS: resolver });
  cast = await seedWorkspace(server, { domain: 'proofco', outsiderDomain: 'squatter', team: null });
  const created = await call(cast.admin, 'POST', '/api/status-pages', { handle: 'public', title: 'Proof status' });
  expect(created.statusCode, created.body).toBe(201);
});
afterAll(async () => {
  await server?.close();
  await dns.close();
});

describe('a custom domain', () => {
  let token: string;

  it('is pending once named: the admin is shown the TXT record, and the domain serves nothing', async () => {
    const named = await call(cast.admin, 'PATCH', '/api/status-pages/public', { custom_domain: DOMAIN });
    expect(named.statusCode, named.body).toBe(200);
    const answer = json<StatusPage>(named);
    token = answer.custom_domain_token!;
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect(answer).toMatchObject({
      custom_domain: DOMAIN,
      custom_domain_status: 'pending',
      custom_domain_record: { type: 'TXT', name: RECORD, value: token },
      custom_domain_checked_at: null,
      // Visitors read it on the workspace's host meanwhile.
      url: 'http://proofco.localhost:8080/status/public',
    });
    for (const path of ['/', '/feed.atom', '/status/public', '/api/status/public/summary.json']) {
      expect((await visit(path)).statusCode, path).toBe(404);
    }
    expect((await visit('/')).body).not.toContain('Proof status');
  });

  it('stays pending while no TXT record holds the token, and says why', async () => {
    const missing = await verify(cast.admin, 'public');
    expect(missing.statusCode, missing.body).toBe(200);
    expect(json<StatusPage>(missing)).toMatchObject({
      custom_domain_status: 'pending',
      custom_domain_check_error: `No TXT record ${RECORD} holds the token`,
      custom_domain_checked_at: expect.any(String),
    });
    dns.txt.set(RECORD, ['someone else', 'v=other']);
    expect(json<StatusPage>(await verify(cast.admin, 'public')).custom_domain_status).toBe('pending');
    expect(dns.questions).toContain(`${RECORD} TXT`);
    expect((await visit('/')).statusCode).toBe(404);
  });

  it('is not taken by another workspace that names it first: both wait, the record decides', async () => {
    const squat = await call(cast.outsider, 'POST', '/api/status-pages', {
      handle: 'mine',
      title: 'Not yours',
      custom_domain: DOMAIN,
    });
    expect(squat.statusCode, squat.body).toBe(201);
    expect(json<StatusPage>(squat).custom_domain_status).toBe('pending');
    expect(json<StatusPage>(squat).custom_domain_token).not.toBe(token);
    expect(json<StatusPage>(await verify(cast.outsider, 'mine')).custom_domain_status).toBe('pending');
  });

  it('is served once its TXT record holds the token, and no other workspace may claim it then', async () => {
    dns.txt.set(RECORD, ['v=other', token]);
    const proved = await verify(cast.admin, 'public');
    expect(proved.statusCode, proved.body).toBe(200);
    expect(json<StatusPage>(proved)).toMatchObject({
      custom_domain_status: 'verified',
      custom_domain_check_error: null,
      url: `http://${DOMAIN}`,
    });
    const root = await visit('/');
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('Proof status');
    expect((await visit('/api/status/public/summary.json')).statusCode).toBe(200);

    // Another workspace: naming it is 409, and proving it with a record of its own too.
    const named = await call(cast.outsider, 'POST', '/api/status-pages', {
      handle: 'again',
      title: 'Again',
      custom_domain: DOMAIN,
    });
    expect(named.statusCode).toBe(409);
    expect(json<{ errors: Record<string, string[]> }>(named).errors.custom_domain).toBeDefined();
    const patched = await call(cast.outsider, 'PATCH', '/api/status-pages/mine', { custom_domain: DOMAIN });
    // Its page named the domain already: unchanged, still pending.
    expect(json<StatusPage>(patched).custom_domain_status).toBe('pending');
    const squatter = await page(cast.outsider, 'mine');
    dns.txt.set(RECORD, [token, squatter.custom_domain_token!]);
    expect((await verify(cast.outsider, 'mine')).statusCode).toBe(409);
    expect(await page(cast.outsider, 'mine')).toMatchObject({
      custom_domain_status: 'pending',
      custom_domain_check_error: 'Another status page uses this domain',
    });
    expect((await call(cast.outsider, 'PATCH', '/api/status-pages/mine', { custom_domain: null })).statusCode).toBe(
      200,
    );
    expect((await call(cast.outsider, 'PATCH', '/api/status-pages/mine', { custom_domain: DOMAIN })).statusCode).toBe(
      409,
    );
    expect((await visit('/')).body).toContain('Proof status');
  });

  it('is re-checked daily: kept while the resolvers do not answer, pending again once the record is gone', async () => {
    expect(await checkDueDomains(server.ctx)).toBe(0);
    const later = Date.now() + DAY_MS + 60_000;
    dns.failing = true;
    expect(await atTime(server, later, () => checkDueDomains(server.ctx))).toBe(1);
    expect(await page(cast.admin, 'public')).toMatchObject({
      custom_domain_status: 'verified',
      custom_domain_check_error: `${RECORD}: the DNS answered SERVFAIL`,
    });
    expect((await visit('/')).statusCode).toBe(200);
    // A lookup nobody answered is tried again within the hour, not a day later.
    expect(await atTime(server, later + 30 * 60_000, () => checkDueDomains(server.ctx))).toBe(0);
    dns.failing = false;
    dns.txt.delete(RECORD);
    expect(await atTime(server, later + 61 * 60_000, () => checkDueDomains(server.ctx))).toBe(1);
    expect(await page(cast.admin, 'public')).toMatchObject({
      custom_domain_status: 'pending',
      custom_domain_check_error: `No TXT record ${RECORD} holds the token`,
    });
    expect((await visit('/')).statusCode).toBe(404);
    expect((await visit('/api/status/public/summary.json')).statusCode).toBe(404);
  });

  it('needs a domain to verify, and is for admins', async () => {
    const none = await call(cast.admin, 'POST', '/api/status-pages', { handle: 'plain', title: 'Plain' });
    expect(json<StatusPage>(none)).toMatchObject({ custom_domain_status: null, custom_domain_record: null });
    const refused = await verify(cast.admin, 'plain');
    expect(refused.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(refused).errors.custom_domain).toBeDefined();
    expect((await verify(cast.teamMember, 'public')).statusCode).toBe(403);
    expect((await verify(cast.outsider, 'public')).statusCode).toBe(404);
  });
});
