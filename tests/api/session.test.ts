import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWorkspaceStatus } from '../../src/server/services/accounts/workspaces.js';
import {
  authHeaders,
  hostOf,
  json,
  loginAs,
  registerWorkspace,
  startTestServer,
  STRONG_PASSWORD,
  type Member,
  type TestServer,
} from '../support/server.js';

let server: TestServer;
let owner: Member;

beforeAll(async () => {
  server = await startTestServer();
  owner = await registerWorkspace(server, 'acme');
});
afterAll(() => server.close());

describe('GET /api/workspace', () => {
  it('resolves the workspace from the Host subdomain', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/workspace',
      headers: { host: hostOf('acme') },
    });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({ domain: 'acme', name: 'Workspace acme', status: 'active', login: null });
  });

  it('answers 404 Workspace Not Found for an unknown subdomain and for the root host', async () => {
    for (const host of [hostOf('nobody'), 'localhost:8080']) {
      const response = await server.app.inject({ method: 'GET', url: '/api/workspace', headers: { host } });
      expect(response.statusCode).toBe(404);
      expect(json(response)).toEqual({ message: 'Workspace Not Found' });
    }
  });

  it('reports inactive and suspended status', async () => {
    const other = await registerWorkspace(server, 'statuses');
    const workspace = json<{ id: string }>(
      await server.app.inject({ method: 'GET', url: '/api/workspace', headers: { host: hostOf('statuses') } }),
    );
    await setWorkspaceStatus(server.ctx, workspace.id, 'suspended');
    let response = await server.app.inject({
      method: 'GET',
      url: '/api/workspace',
      headers: { host: hostOf('statuses') },
    });
    expect(json(response)).toMatchObject({ status: 'suspended' });
    // The owner (an admin) still gets in while suspended.
    response = await server.app.inject({
      method: 'GET',
      url: `/api/users/${other.handle}`,
      headers: authHeaders(other),
    });
    expect(response.statusCode).toBe(200);
    await setWorkspaceStatus(server.ctx, workspace.id, 'inactive');
    response = await server.app.inject({ method: 'GET', url: '/api/workspace', headers: { host: hostOf('statuses') } });
    expect(json(response)).toMatchObject({ status: 'inactive' });
    response = await server.app.inject({
      method: 'GET',
      url: `/api/users/${other.handle}`,
      headers: authHeaders(other),
    });
    expect(response.statusCode).toBe(403);
    expect(json(response)).toEqual({ message: 'Workspace Inactive' });
    response = await server.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { host: hostOf('statuses') },
      payload: { workspace: 'statuses', login: other.email, password: STRONG_PASSWORD },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('POST /api/session and /api/token', () => {
  it('logs in, sets an HttpOnly SameSite=Lax cookie and issues a JWT whose sub is user:{workspace}:{handle}', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { host: hostOf('acme') },
      payload: { workspace: 'acme', login: owner.email, password: STRONG_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((c) => c.name === 'beacon_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const token = await server.app.inject({
      method: 'POST',
      url: '/api/token',
      headers: { host: hostOf('acme') },
      cookies: { beacon_session: cookie!.value },
      payload: { grant_type: 'session', workspace: 'acme' },
    });
    expect(token.statusCode).toBe(200);
    const body = json<{ access_token: string; token_type: string; expires_in: number }>(token);
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(900);
    const claims = JSON.parse(Buffer.from(body.access_token.split('.')[1]!, 'base64url').toString());
    expect(claims.sub).toBe(`user:acme:${owner.handle}`);
    expect(claims.sub.split(':')[2]).toBe(owner.handle);
  });

  it('refuses a wrong password and an unknown email with the same 401', async () => {
    for (const login of [owner.email, 'nobody@acme.example']) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/session',
        headers: { host: hostOf('acme') },
        payload: { workspace: 'acme', login, password: 'Wr0ng-pass' },
      });
      expect(response.statusCode).toBe(401);
      expect(json(response)).toEqual({ message: 'Login/password did not match' });
      expect(response.cookies).toHaveLength(0);
    }
  });

  it('refuses an unknown workspace with 404 and a body workspace that is not the host with 400', async () => {
    let response = await server.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { host: hostOf('ghost') },
      payload: { workspace: 'ghost', login: owner.email, password: STRONG_PASSWORD },
    });
    expect(response.statusCode).toBe(404);
    response = await server.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { host: hostOf('acme') },
      payload: { workspace: 'other', login: owner.email, password: STRONG_PASSWORD },
    });
    expect(response.statusCode).toBe(400);
  });

  it('refuses a token request without a session cookie', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/token',
      headers: { host: hostOf('acme') },
      payload: { grant_type: 'session', workspace: 'acme' },
    });
    expect(response.statusCode).toBe(401);
  });

  it('ends the session on DELETE /session: the cookie and every token minted from it stop working', async () => {
    const member = await loginAs(server, 'acme', owner.email);
    let response = await server.app.inject({
      method: 'GET',
      url: `/api/users/${owner.handle}`,
      headers: authHeaders(member),
    });
    expect(response.statusCode).toBe(200);
    response = await server.app.inject({
      method: 'DELETE',
      url: '/api/session',
      headers: { host: hostOf('acme') },
      cookies: { beacon_session: member.cookie },
      payload: { workspace: 'acme' },
    });
    expect(response.statusCode).toBe(204);
    response = await server.app.inject({
      method: 'GET',
      url: `/api/users/${owner.handle}`,
      headers: authHeaders(member),
    });
    expect(response.statusCode).toBe(401);
    response = await server.app.inject({
      method: 'POST',
      url: '/api/token',
      headers: { host: hostOf('acme') },
      cookies: { beacon_session: member.cookie },
      payload: { grant_type: 'session', workspace: 'acme' },
    });
    expect(response.statusCode).toBe(401);
  });

  it('refuses an expired token with 401', async () => {
    const member = await loginAs(server, 'acme', owner.email);
    const realNow = server.ctx.now;
    server.ctx.now = () => new Date(Date.now() + 901 * 1000);
    try {
      const response = await server.app.inject({
        method: 'GET',
        url: `/api/users/${owner.handle}`,
        headers: authHeaders(member),
      });
      expect(response.statusCode).toBe(401);
      expect(json(response)).toEqual({ message: 'Token expired' });
    } finally {
      server.ctx.now = realNow;
    }
  });

  it('refuses a token signed with another key, a missing token and a malformed header', async () => {
    const forged = await new SignJWT({ ws: 'x', sid: 'y' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(`user:acme:${owner.handle}`)
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('not the key'));
    for (const authorization of [`Bearer ${forged}`, undefined, 'Basic abc']) {
      const response = await server.app.inject({
        method: 'GET',
        url: `/api/users/${owner.handle}`,
        headers: { host: hostOf('acme'), ...(authorization ? { authorization } : {}) },
      });
      expect(response.statusCode).toBe(401);
    }
  });

  it('limits failed logins per account: 429 with Retry-After (more in login-limits.test.ts)', async () => {
    const attempt = (password: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/session',
        headers: { host: hostOf('acme') },
        remoteAddress: '10.9.8.7',
        payload: { workspace: 'acme', login: owner.email, password },
      });
    // At most 20 failures in all (the tests above failed on this account too).
    for (let i = 0; i < 20; i++) expect([401, 429]).toContain((await attempt('Wr0ng-pass')).statusCode);
    const limited = await attempt(STRONG_PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The account is locked from any address.
    const elsewhere = await server.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { host: hostOf('acme') },
      remoteAddress: '10.9.8.8',
      payload: { workspace: 'acme', login: owner.email, password: STRONG_PASSWORD },
    });
    expect(elsewhere.statusCode).toBe(429);
  });
});

describe('request validation and server basics', () => {
  it('answers malformed JSON with 400 and a message', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { host: hostOf('acme'), 'content-type': 'application/json' },
      payload: '{"workspace": "acme",',
    });
    expect(response.statusCode).toBe(400);
    expect(json<{ message: string }>(response).message).toMatch(/Malformed JSON/);
  });

  it('refuses unknown fields with 400 naming the field, and missing fields with their path', async () => {
    let response = await server.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { host: hostOf('acme') },
      payload: { workspace: 'acme', login: owner.email, password: STRONG_PASSWORD, admin: true },
    });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toMatchObject({ errors: { admin: ['Unknown field'] } });
    response = await server.app.inject({
      method: 'POST',
      url: '/api/registration/register-workspace',
      payload: {
        beta_key: 'ABCDEF',
        owner: { email: 'a@b.co', name: 'A', handle: 'abc', password: STRONG_PASSWORD, role: 'x' },
      },
    });
    expect(response.statusCode).toBe(400);
    const errors = json<{ errors: Record<string, string[]> }>(response).errors;
    expect(errors['owner.role']).toEqual(['Unknown field']);
    expect(errors.workspace).toBeDefined();
  });

  it('refuses a bad query with 400', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/search/users?limit=0&sort=x',
      headers: authHeaders(owner),
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(json<{ errors: object }>(response).errors)).toEqual(expect.arrayContaining(['limit', 'sort']));
  });

  it('answers /api/healthz and unknown API paths', async () => {
    expect(json(await server.app.inject({ method: 'GET', url: '/api/healthz' }))).toEqual({ status: 'ok' });
    const missing = await server.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(json(missing)).toEqual({ message: 'Not Found' });
  });

  it('sends the API security headers on API answers, and helmet’s on the app’s pages', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/healthz' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(response.headers['referrer-policy']).toBeUndefined();
    const page = await server.app.inject({ method: 'GET', url: '/services' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
  });
});
