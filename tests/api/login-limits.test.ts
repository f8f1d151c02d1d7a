/**
 * Login limits and rate-limit keys (issue 10, item 4; docs/decisions.md#api-conventions): failed logins count per
 * account and per address across accounts; X-Forwarded-For is believed only through the trusted proxies; request-rate
 * keys use the workspace the request resolves to; registration is limited per address; old failures are pruned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_FAILURE_LIMIT, ADDRESS_FAILURE_LIMIT } from '../../src/server/services/accounts/auth.js';
import { addMember } from '../support/fixtures.js';
import {
  hostOf,
  registerWorkspace,
  startTestServer,
  STRONG_PASSWORD,
  type Member,
  type TestServer,
} from '../support/server.js';

const WRONG = 'Wr0ng-pass';

let server: TestServer;
let owner: Member;

beforeAll(async () => {
  // One trusted hop: the address is the last X-Forwarded-For entry, the one the proxy added.
  server = await startTestServer({ BEACON_TRUST_PROXY: '1', BEACON_AUTH_RATE_LIMIT: '100000' });
  owner = await registerWorkspace(server, 'limits');
});
afterAll(() => server.close());

/** A login through a proxy at 127.0.0.1 that saw the client at `address`. */
function loginFrom(address: string, login: string, password: string, host = hostOf('limits')) {
  return server.app.inject({
    method: 'POST',
    url: '/api/session',
    remoteAddress: '127.0.0.1',
    headers: { host, 'x-forwarded-for': address },
    payload: { workspace: 'limits', login, password },
  });
}

async function failures(where: { account?: string; address?: string }) {
  let query = server.ctx.database.db.selectFrom('login_failures').select('id');
  if (where.account) query = query.where('account', '=', where.account);
  if (where.address) query = query.where('address', '=', where.address);
  return (await query.execute()).length;
}

describe('failed logins', () => {
  it('lock one account from every address, not the other accounts behind the same address', async () => {
    const victim = await addMember(server, owner, 'victim');
    const neighbour = await addMember(server, owner, 'neighbour');
    // Many addresses hammer one account: the account locks, whichever address comes next.
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++)
      expect((await loginFrom(`198.51.100.${i}`, victim.email, WRONG)).statusCode).toBe(401);
    const locked = await loginFrom('203.0.113.9', victim.email, STRONG_PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(500);
    expect(locked.json()).toEqual({ message: 'Too many failed logins, try again later' });
    // The same addresses still let everyone else in (the old rule locked the whole workspace out).
    expect((await loginFrom('198.51.100.0', neighbour.email, STRONG_PASSWORD)).statusCode).toBe(200);
    // The spelling of the login does not make another account.
    expect((await loginFrom('203.0.113.9', ` ${victim.email.toUpperCase()} `, STRONG_PASSWORD)).statusCode).toBe(429);
  });

  it('lock one address across accounts at a higher bar, not the other addresses', async () => {
    const spread = await addMember(server, owner, 'spread');
    // Failures on many accounts, some of them not users at all, from one address.
    const at = new Date().toISOString();
    const { workspace_id } = await server.ctx.database.db
      .selectFrom('users')
      .select('workspace_id')
      .where('id', '=', owner.id)
      .executeTakeFirstOrThrow();
    await server.ctx.database.db
      .insertInto('login_failures')
      .values(
        Array.from({ length: ADDRESS_FAILURE_LIMIT - 1 }, (_, i) => ({
          workspace_id,
          account: `nobody-${i}@limits.example`,
          address: '192.0.2.1',
          at,
        })),
      )
      .execute();
    // Below the bar, a user behind that address still logs in; one more failure reaches it.
    expect((await loginFrom('192.0.2.1', spread.email, STRONG_PASSWORD)).statusCode).toBe(200);
    expect((await loginFrom('192.0.2.1', 'nobody@limits.example', WRONG)).statusCode).toBe(401);
    const locked = await loginFrom('192.0.2.1', spread.email, STRONG_PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    // Another address is not affected.
    expect((await loginFrom('192.0.2.2', spread.email, STRONG_PASSWORD)).statusCode).toBe(200);
  });

  it('trust only the configured hop: a forged X-Forwarded-For entry does not rotate the address', async () => {
    const forged = await addMember(server, owner, 'forged');
    for (let i = 0; i < 3; i++) await loginFrom(`10.66.0.${i}, 203.0.113.50`, forged.email, WRONG);
    expect(await failures({ address: '203.0.113.50' })).toBe(3);
    expect(await failures({ address: '10.66.0.1' })).toBe(0);
  });

  it('prune failures older than the window when a new one is written', async () => {
    const { workspace_id } = await server.ctx.database.db
      .selectFrom('users')
      .select('workspace_id')
      .where('id', '=', owner.id)
      .executeTakeFirstOrThrow();
    const old = new Date(Date.now() - 3600_000).toISOString();
    await server.ctx.database.db
      .insertInto('login_failures')
      .values({ workspace_id, account: 'old@limits.example', address: '192.0.2.77', at: old })
      .execute();
    expect(await failures({ account: 'old@limits.example' })).toBe(1);
    await loginFrom('192.0.2.78', 'whoever@limits.example', WRONG);
    expect(await failures({ account: 'old@limits.example' })).toBe(0);
  });
});

describe('request-rate limits', () => {
  let limited: TestServer;

  beforeAll(async () => {
    limited = await startTestServer({ BEACON_AUTH_RATE_LIMIT: '3', BEACON_REGISTER_RATE_LIMIT: '2' });
    await registerWorkspace(limited, 'keyed');
  });
  afterAll(() => limited.close());

  const attempt = (host: string, remoteAddress = '192.0.2.10') =>
    limited.app.inject({
      method: 'POST',
      url: '/api/session',
      remoteAddress,
      headers: { host },
      payload: { workspace: 'keyed', login: 'someone@keyed.example', password: WRONG },
    });

  it('key on the resolved workspace: another spelling of the host does not escape', async () => {
    for (let i = 0; i < 3; i++) expect((await attempt(hostOf('keyed'))).statusCode).toBe(401);
    for (const host of ['KEYED.localhost:8080', 'keyed.LOCALHOST', 'keyed.localhost.:8080', 'Keyed.localhost:80']) {
      const response = await attempt(host);
      expect(response.statusCode, host).toBe(429);
      expect(response.headers['retry-after'], host).toBeDefined();
      expect(Object.keys(response.json() as object), host).toEqual(['message']);
    }
    // Another address has its own count.
    expect((await attempt(hostOf('keyed'), '192.0.2.11')).statusCode).toBe(401);
  });

  it('key on the workspace a body names, where the route looks it up by the body', async () => {
    const forgot = (host: string) =>
      limited.app.inject({
        method: 'POST',
        url: '/api/forgot-password',
        remoteAddress: '192.0.2.12',
        headers: { host },
        payload: { workspace: 'keyed', email: 'someone@keyed.example' },
      });
    for (let i = 0; i < 3; i++) expect((await forgot(hostOf('keyed'))).statusCode).toBe(200);
    expect((await forgot(hostOf('elsewhere'))).statusCode).toBe(429);
    expect((await forgot('localhost:8080')).statusCode).toBe(429);
  });

  it('limit the beta-key check and workspace registration per address', async () => {
    const check = (remoteAddress: string) =>
      limited.app.inject({
        method: 'POST',
        url: '/api/register',
        remoteAddress,
        payload: { beta_key: 'GUESS1', email: 'guesser@example.com' },
      });
    for (let i = 0; i < 2; i++) expect((await check('192.0.2.20')).statusCode).toBe(400);
    expect((await check('192.0.2.20')).statusCode).toBe(429);
    expect((await check('192.0.2.21')).statusCode).toBe(400);
    const register = () =>
      limited.app.inject({
        method: 'POST',
        url: '/api/registration/register-workspace',
        remoteAddress: '192.0.2.30',
        payload: {
          beta_key: 'GUESS2',
          owner: { email: 'g@example.com', name: 'G', handle: 'guess', password: STRONG_PASSWORD },
          workspace: { name: 'Guess', domain: 'guess' },
        },
      });
    for (let i = 0; i < 2; i++) expect((await register()).statusCode).toBe(400);
    expect((await register()).statusCode).toBe(429);
  });
});
