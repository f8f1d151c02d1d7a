import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SsoProvider } from '../../src/contract/sso.js';
import { createClient, seedWorkspace } from '../support/fixtures.js';
import { TestIdentityProvider } from '../support/saml-idp.js';
import { callAs, hostOf, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

/**
 * Issue 16 and DESIGN.md 11: SAML providers (admins and owners) and the service provider (@node-saml/node-saml)
 * against an in-process identity provider that signs real responses (samlify).
 */
let server: TestServer;
let owner: Member;
let admin: Member;
let bob: Member;
let outsider: Member;
const idp = new TestIdentityProvider();
const host = hostOf('ssoco');

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);

beforeAll(async () => {
  server = await startTestServer();
  ({ owner, admin, teamMember: bob, outsider } = await seedWorkspace(server, { domain: 'ssoco' }));
});
afterAll(() => server.close());

/** The browser's side: start at /login, let the IdP answer, post its answer to the ACS. */
async function signIn(assertion: Parameters<TestIdentityProvider['respond']>[2], tamper = (x: string) => x) {
  const start = await server.app.inject({
    method: 'GET',
    url: '/api/sso/okta/login?redirect=/services',
    headers: { host },
  });
  expect(start.statusCode).toBe(302);
  const metadata = (await server.app.inject({ method: 'GET', url: '/api/sso/okta/metadata', headers: { host } })).body;
  const response = await idp.respond(metadata, idp.requestIdOf(start.headers.location as string), assertion);
  const samlResponse = Buffer.from(tamper(Buffer.from(response, 'base64').toString('utf8'))).toString('base64');
  return post(samlResponse);
}

function post(samlResponse: string) {
  return server.app.inject({
    method: 'POST',
    url: '/api/sso/okta/acs',
    headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '/services' }).toString(),
  });
}

describe('SSO providers', () => {
  it('are created, read and changed by admins and owners; the handle is fixed', async () => {
    const created = await call(admin, 'POST', '/api/sso-providers', { handle: 'okta', name: 'Okta' });
    expect(created.statusCode, created.body).toBe(201);
    const provider = json<SsoProvider>(created);
    expect(provider).toMatchObject({
      handle: 'okta',
      name: 'Okta',
      is_default: false,
      sso_enabled: false,
      idp: { sso_url: null, has_x509: false },
      sp: { acs_url: expect.stringMatching(/^http:\/\/ssoco\.localhost.*\/api\/sso\/okta\/acs$/) },
      login_url: expect.stringMatching(/\/api\/sso\/okta\/login$/),
    });
    const updated = await call(owner, 'PATCH', '/api/sso-providers/okta', {
      is_default: true,
      sso_enabled: true,
      slo_enabled: true,
      idp: { sso_url: idp.ssoUrl, slo_url: idp.sloUrl, entity_id: idp.entityId, x509: idp.signing.cert },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(json<SsoProvider>(updated)).toMatchObject({ is_default: true, sso_enabled: true, idp: { has_x509: true } });
    expect(json<SsoProvider[]>(await call(admin, 'GET', '/api/sso-providers')).map((p) => p.handle)).toEqual(['okta']);
    // The certificate is never answered back.
    expect(JSON.stringify(json(await call(admin, 'GET', '/api/sso-providers/okta')))).not.toContain(
      'BEGIN CERTIFICATE',
    );
  });

  it('refuse bad input, members, API clients and other workspaces', async () => {
    const bad: Array<[Method, string, object]> = [
      ['POST', '/api/sso-providers', { handle: 'Bad Handle', name: 'X' }],
      ['POST', '/api/sso-providers', { handle: 'x-1' }],
      ['PATCH', '/api/sso-providers/okta', { handle: 'renamed' }],
      ['PATCH', '/api/sso-providers/okta', { idp: { x509: 'not a certificate' } }],
      ['PATCH', '/api/sso-providers/okta', { idp: { sso_url: 'javascript:alert(1)' } }],
    ];
    for (const [method, url, body] of bad)
      expect((await call(admin, method, url, body)).statusCode, JSON.stringify(body)).toBe(400);
    expect((await call(admin, 'POST', '/api/sso-providers', { handle: 'okta', name: 'Again' })).statusCode).toBe(409);
    expect((await call(bob, 'GET', '/api/sso-providers')).statusCode).toBe(403);
    expect((await call(bob, 'PATCH', '/api/sso-providers/okta', { name: 'Mine' })).statusCode).toBe(403);
    const client = await createClient(server, owner, 'payments', { scopes: ['beacon.team.read'] });
    expect((await callAs(server, client.caller, 'GET', '/api/sso-providers')).statusCode).toBe(403);
    expect((await call(outsider, 'GET', '/api/sso-providers/okta')).statusCode).toBe(404);
  });

  it('offers the default enabled provider on the login screen', async () => {
    const option = await server.app.inject({ method: 'GET', url: '/api/sso/login-option', headers: { host } });
    expect(json(option)).toEqual({ name: 'Okta', login_url: expect.stringMatching(/\/api\/sso\/okta\/login$/) });
    const none = await server.app.inject({
      method: 'GET',
      url: '/api/sso/login-option',
      headers: { host: hostOf('otherco') },
    });
    expect(json(none)).toBeNull();
  });

  it('publishes the service provider metadata', async () => {
    const metadata = await server.app.inject({ method: 'GET', url: '/api/sso/okta/metadata', headers: { host } });
    expect(metadata.headers['content-type']).toMatch(/samlmetadata\+xml/);
    expect(metadata.body).toContain('AssertionConsumerService');
    expect(metadata.body).toContain('/api/sso/okta/acs');
  });
});

describe('SAML login', () => {
  it('sends the browser to the identity provider with a request', async () => {
    const start = await server.app.inject({ method: 'GET', url: '/api/sso/okta/login', headers: { host } });
    expect(start.statusCode).toBe(302);
    expect(start.headers.location).toMatch(new RegExp(`^${idp.ssoUrl}\\?SAMLRequest=`));
  });

  it('a signed response opens a session for a known user and sends them into the app', async () => {
    const bobEmail = json<{ email: string }>(await call(bob, 'GET', '/api/users/bob')).email;
    const answer = await signIn({ email: bobEmail });
    expect(answer.statusCode, answer.body).toBe(303);
    expect(answer.headers.location).toBe('/services');
    const cookie = answer.cookies.find((c) => c.name === 'beacon_session');
    expect(cookie?.httpOnly).toBe(true);
    const token = await server.app.inject({
      method: 'POST',
      url: '/api/token',
      headers: { host },
      cookies: { beacon_session: cookie!.value },
      payload: { grant_type: 'session', workspace: 'ssoco' },
    });
    expect(token.statusCode).toBe(200);
  });

  it('an unknown email joins as a member', async () => {
    const answer = await signIn({ email: 'New.Person@ssoco.example', name: 'New Person' });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/services');
    const users = json<Array<{ email: string; role: string; name: string; handle: string }>>(
      await call(owner, 'GET', '/api/search/users?q=new&limit=10'),
    );
    expect(users).toEqual([expect.objectContaining({ name: 'New Person', handle: 'new-person', role: 'member' })]);
  });

  it('refuses a tampered signature, a wrong audience, an expired or replayed assertion, and a wrong recipient', async () => {
    const refused = (answer: Awaited<ReturnType<typeof post>>) => {
      expect(answer.statusCode).toBe(303);
      expect(answer.headers.location).toMatch(/^\/login\?sso_error=/);
      expect(answer.cookies.find((c) => c.name === 'beacon_session')).toBeUndefined();
      return decodeURIComponent(String(answer.headers.location));
    };
    expect(refused(await signIn({ email: 'eve@ssoco.example' }, (xml) => xml.replace('eve@', 'owner@')))).toMatch(
      /signature/i,
    );
    expect(
      refused(await signIn({ email: 'eve@ssoco.example', overrides: { Audience: 'https://elsewhere.test' } })),
    ).toMatch(/audience/i);
    const past = new Date(Date.now() - 60 * 60_000).toISOString();
    expect(
      refused(
        await signIn({
          email: 'eve@ssoco.example',
          overrides: { ConditionsNotOnOrAfter: past, SubjectConfirmationDataNotOnOrAfter: past },
        }),
      ),
    ).toMatch(/expired|NotOnOrAfter|subject confirmation/i);
    refused(await signIn({ email: 'eve@ssoco.example', overrides: { SubjectRecipient: 'https://evil.test/acs' } }));
    // Replay: the same response twice; the first opens a session, the second is refused.
    const start = await server.app.inject({ method: 'GET', url: '/api/sso/okta/login', headers: { host } });
    const metadata = (await server.app.inject({ method: 'GET', url: '/api/sso/okta/metadata', headers: { host } }))
      .body;
    const response = await idp.respond(metadata, idp.requestIdOf(start.headers.location as string), {
      email: 'eve@ssoco.example',
    });
    expect((await post(response)).headers.location).toBe('/services');
    expect(refused(await post(response))).toMatch(/InResponseTo/i);
    // A response to a request never made.
    expect(refused(await post(await idp.respond(metadata, '_never-asked', { email: 'eve@ssoco.example' })))).toMatch(
      /InResponseTo/i,
    );
  });

  it('a disabled provider refuses', async () => {
    await call(admin, 'PATCH', '/api/sso-providers/okta', { sso_enabled: false });
    expect((await server.app.inject({ method: 'GET', url: '/api/sso/okta/login', headers: { host } })).statusCode).toBe(
      403,
    );
    expect(
      json(await server.app.inject({ method: 'GET', url: '/api/sso/login-option', headers: { host } })),
    ).toBeNull();
    await call(admin, 'PATCH', '/api/sso-providers/okta', { sso_enabled: true });
  });

  it('single logout ends the session and sends the browser to the identity provider', async () => {
    const answer = await signIn({ email: 'carol@ssoco.example' });
    const cookie = answer.cookies.find((c) => c.name === 'beacon_session')!.value;
    const logout = await server.app.inject({
      method: 'GET',
      url: '/api/sso/okta/slo',
      headers: { host },
      cookies: { beacon_session: cookie },
    });
    expect(logout.statusCode).toBe(303);
    expect(logout.headers.location).toMatch(new RegExp(`^${idp.sloUrl}\\?SAMLRequest=`));
    const token = await server.app.inject({
      method: 'POST',
      url: '/api/token',
      headers: { host },
      cookies: { beacon_session: cookie },
      payload: { grant_type: 'session', workspace: 'ssoco' },
    });
    expect(token.statusCode).toBe(401);
  });
});
