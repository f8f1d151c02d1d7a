/**
 * What /session and /token read (issue 10): logging out needs no body; logging in takes JSON only (a form
 * posted from another site would be a login CSRF); the token endpoint still takes OAuth's form encoding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** Whether the session behind `member` still works: a token can be minted from its cookie. */
async function sessionAlive(member: Member): Promise<boolean> {
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/token',
    headers: { host: hostOf('acme') },
    cookies: { beacon_session: member.cookie },
    payload: { grant_type: 'session', workspace: 'acme' },
  });
  return response.statusCode === 200;
}

describe('DELETE /api/session', () => {
  it.each([
    ['no body and no content type', {}],
    ['an empty JSON body', { 'content-type': 'application/json' }],
  ])('ends the session with %s', async (_what, headers) => {
    const member = { ...owner, ...(await loginAs(server, 'acme', owner.email)) };
    expect(await sessionAlive(member)).toBe(true);
    const response = await server.app.inject({
      method: 'DELETE',
      url: '/api/session',
      headers: { host: hostOf('acme'), ...headers },
      cookies: { beacon_session: member.cookie },
    });
    expect(response.statusCode).toBe(204);
    expect(response.cookies.find((cookie) => cookie.name === 'beacon_session')?.value).toBe('');
    expect(await sessionAlive(member)).toBe(false);
    const read = await server.app.inject({
      method: 'GET',
      url: `/api/users/${owner.handle}`,
      headers: authHeaders(member),
    });
    expect(read.statusCode).toBe(401);
  });

  it('still takes the body the app sends', async () => {
    const member = { ...owner, ...(await loginAs(server, 'acme', owner.email)) };
    const response = await server.app.inject({
      method: 'DELETE',
      url: '/api/session',
      headers: { host: hostOf('acme') },
      cookies: { beacon_session: member.cookie },
      payload: { workspace: 'acme' },
    });
    expect(response.statusCode).toBe(204);
    expect(await sessionAlive(member)).toBe(false);
  });
});

describe('POST /api/session', () => {
  it('refuses a form-encoded login with 415 and sets no cookie', async () => {
    const form = new URLSearchParams({ workspace: 'acme', login: owner.email, password: STRONG_PASSWORD });
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { host: hostOf('acme'), 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(response.statusCode).toBe(415);
    expect(json(response)).toEqual({ message: expect.any(String) });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a text/plain login (a cross-site form can send that too)', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { host: hostOf('acme'), 'content-type': 'text/plain' },
      payload: JSON.stringify({ workspace: 'acme', login: owner.email, password: STRONG_PASSWORD }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['set-cookie']).toBeUndefined();
  });
});

describe('POST /api/token', () => {
  it('still takes a form-encoded body (OAuth clients)', async () => {
    const member = await loginAs(server, 'acme', owner.email);
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/token',
      headers: { host: hostOf('acme'), 'content-type': 'application/x-www-form-urlencoded' },
      cookies: { beacon_session: member.cookie },
      payload: new URLSearchParams({ grant_type: 'session', workspace: 'acme' }).toString(),
    });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
  });
});
