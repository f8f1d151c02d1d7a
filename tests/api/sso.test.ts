import { createPrivateKey, verify, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SsoProvider } from '../../src/contract/sso.js';
import { loadConfig } from '../../src/server/config.js';
import { loadSamlSigning, SAML_SP_FILE } from '../../src/server/crypto/saml-signing.js';
import { createClient, seedWorkspace } from '../support/fixtures.js';
import { selfSignedCertificate, TestIdentityProvider } from '../support/saml-idp.js';
import { callAs, hostOf, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

/**
 * Issue 16 and docs/decisions.md#integrations: SAML providers (admins and owners) and the service provider
 * (@node-saml/node-saml) against an in-process identity provider that signs real responses (samlify).
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
    // The identity provider's certificate is never answered back (the service provider's own is).
    const idpCertBody = idp.signing.cert.split('\n')[1]!;
    expect(JSON.stringify(json(await call(admin, 'GET', '/api/sso-providers/okta')))).not.toContain(idpCertBody);
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

  it('publishes the service provider metadata, with its signing certificate and both logout bindings', async () => {
    const metadata = await server.app.inject({ method: 'GET', url: '/api/sso/okta/metadata', headers: { host } });
    expect(metadata.headers['content-type']).toMatch(/samlmetadata\+xml/);
    expect(metadata.body).toContain('AssertionConsumerService');
    expect(metadata.body).toContain('/api/sso/okta/acs');
    expect(metadata.body).toMatch(/AuthnRequestsSigned="true"/);
    const published = metadataCert(metadata.body);
    // The same certificate the admin's provider page shows, for a key the server holds.
    const { sp } = json<SsoProvider>(await call(admin, 'GET', '/api/sso-providers/okta'));
    expect(sp.cert).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(new X509Certificate(sp.cert!).fingerprint256).toBe(published.fingerprint256);
    expect(published.checkPrivateKey(createPrivateKey((await server.ctx.samlSigning()).privateKey))).toBe(true);
    for (const binding of ['HTTP-Redirect', 'HTTP-POST'])
      expect(metadata.body).toMatch(
        new RegExp(
          `<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="[^"]*/api/sso/okta/slo"`,
        ),
      );
  });
});

describe('SAML login', () => {
  it('sends the browser to the identity provider with a request', async () => {
    const start = await server.app.inject({ method: 'GET', url: '/api/sso/okta/login', headers: { host } });
    expect(start.statusCode).toBe(302);
    expect(start.headers.location).toMatch(new RegExp(`^${idp.ssoUrl}\\?SAMLRequest=`));
  });

  it('signs the AuthnRequest of the redirect; the identity provider checks it, and a changed query fails', async () => {
    const start = await server.app.inject({
      method: 'GET',
      url: '/api/sso/okta/login?redirect=/services',
      headers: { host },
    });
    const location = start.headers.location as string;
    const params = new URL(location).searchParams;
    expect(params.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(params.get('Signature')).toBeTruthy();
    const metadata = await spMetadata();
    // A provider that wants signed requests (samlify, from the SP metadata) takes it...
    const parsed = await idp.parseLoginRedirect(metadata, location);
    expect(parsed.request.id).toBe(idp.requestIdOf(location));
    // ...and so does a check by hand with the published certificate, over the query as sent.
    const signed = (query: string) =>
      verify(
        'sha256',
        Buffer.from(query.split('&Signature=')[0]!),
        metadataCert(metadata).publicKey,
        Buffer.from(decodeURIComponent(query.split('&Signature=')[1]!), 'base64'),
      );
    const query = location.slice(location.indexOf('?') + 1);
    expect(signed(query)).toBe(true);
    // Sent elsewhere after the login (RelayState changed): the signature no longer holds.
    const tampered = location.replace('RelayState=%2Fservices', 'RelayState=%2Fadmin');
    expect(tampered).not.toBe(location);
    expect(signed(tampered.slice(tampered.indexOf('?') + 1))).toBe(false);
    await expect(idp.parseLoginRedirect(metadata, tampered)).rejects.toThrow(/SIGNATURE_VERIFICATION/);
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
    // Addressed to another service provider (SAML core 3.2.2, Web SSO profile 4.1.4.3): signed, fresh, and refused.
    const elsewhere = 'https://other-sp.test/saml/acs';
    expect(refused(await signIn({ email: 'eve@ssoco.example', overrides: { SubjectRecipient: elsewhere } }))).toMatch(
      /Recipient \(https:\/\/other-sp\.test/,
    );
    expect(refused(await signIn({ email: 'eve@ssoco.example', overrides: { Destination: elsewhere } }))).toMatch(
      /Destination \(https:\/\/other-sp\.test/,
    );
    expect(
      refused(
        await signIn({
          email: 'eve@ssoco.example',
          overrides: { Destination: elsewhere, SubjectRecipient: elsewhere },
        }),
      ),
    ).toMatch(/Destination/);
    // A bearer confirmation without a Recipient: the signed part must say who it is for.
    expect(
      refused(
        await signIn({ email: 'eve@ssoco.example', shape: (t) => t.replace(' Recipient="{SubjectRecipient}"', '') }),
      ),
    ).toMatch(/names no Recipient/);
    // Both right: the same person gets in.
    expect((await signIn({ email: 'eve@ssoco.example' })).headers.location).toBe('/services');
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
    expect(new URL(logout.headers.location as string).searchParams.get('Signature')).toBeTruthy();
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

describe('single logout started by the identity provider', () => {
  /** A person signed in through the provider: their cookie, a token from it, and their session at the provider. */
  async function session(email: string, sessionIndex: string) {
    const answer = await signIn({ email, sessionIndex });
    expect(answer.headers.location).toBe('/services');
    const cookie = answer.cookies.find((c) => c.name === 'beacon_session')!.value;
    const token = json<{ access_token: string }>(await exchange(cookie)).access_token;
    return { email, sessionIndex, cookie, token };
  }
  type Session = Awaited<ReturnType<typeof session>>;
  const exchange = (cookie: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/token',
      headers: { host },
      cookies: { beacon_session: cookie },
      payload: { grant_type: 'session', workspace: 'ssoco' },
    });
  /** Whether the cookie still gives a token and the token still opens the API. */
  async function live(person: Session): Promise<[number, number]> {
    const cookie = (await exchange(person.cookie)).statusCode;
    const bearer = await server.app.inject({
      method: 'GET',
      url: '/api/search/users?q=a&limit=1',
      headers: { host, authorization: `Bearer ${person.token}` },
    });
    return [cookie, bearer.statusCode];
  }
  const pathOf = (url: string) => {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  };
  const redirectLogout = (url: string) => server.app.inject({ method: 'GET', url: pathOf(url), headers: { host } });

  it('ends the session it names (HTTP-Redirect) and answers with a signed LogoutResponse', async () => {
    const dave = await session('dave@ssoco.example', 'idp-dave-1');
    const daveElsewhere = await session('dave@ssoco.example', 'idp-dave-2');
    const erin = await session('erin@ssoco.example', 'idp-erin-1');
    for (const person of [dave, daveElsewhere, erin]) expect(await live(person)).toEqual([200, 200]);
    const metadata = await spMetadata();
    const request = idp.logoutRequest(
      metadata,
      { nameID: dave.email, sessionIndex: dave.sessionIndex },
      'redirect',
      'back-at-idp',
    );
    expect(new URL(request.url).pathname).toBe('/api/sso/okta/slo');
    expect(new URL(request.url).searchParams.get('Signature')).toBeTruthy();
    const answer = await redirectLogout(request.url);
    expect(answer.statusCode, answer.body).toBe(303);
    const location = answer.headers.location as string;
    expect(location.startsWith(`${idp.sloUrl}?SAMLResponse=`)).toBe(true);
    expect(new URL(location).searchParams.get('RelayState')).toBe('back-at-idp');
    // The provider checks the answer: signed by the SP, Success, in response to its request.
    const response = await idp.parseLogoutResponse(metadata, location);
    expect(response.response.inResponseTo).toBe(request.id);
    expect(response.issuer).toMatch(/\/api\/sso\/okta\/metadata$/);
    // Dave's session at that provider session ended (cookie and token); his other one and Erin's did not.
    expect(await live(dave)).toEqual([401, 401]);
    expect(await live(daveElsewhere)).toEqual([200, 200]);
    expect(await live(erin)).toEqual([200, 200]);
    // The same request again (a replay) is refused.
    expect((await redirectLogout(request.url)).statusCode).toBe(400);

    // Without a session index, every session of that person at this provider ends.
    const everywhere = idp.logoutRequest(metadata, { nameID: dave.email }, 'redirect');
    expect((await redirectLogout(everywhere.url)).statusCode).toBe(303);
    expect(await live(daveElsewhere)).toEqual([401, 401]);
    expect(await live(erin)).toEqual([200, 200]);
  });

  it('takes the request over HTTP-POST too', async () => {
    const frank = await session('frank@ssoco.example', 'idp-frank-1');
    const gina = await session('gina@ssoco.example', 'idp-gina-1');
    const metadata = await spMetadata();
    const request = idp.logoutRequest(metadata, { nameID: frank.email, sessionIndex: frank.sessionIndex }, 'post');
    expect(new URL(request.url).pathname).toBe('/api/sso/okta/slo');
    const answer = await server.app.inject({
      method: 'POST',
      url: '/api/sso/okta/slo',
      headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(request.form).toString(),
    });
    expect(answer.statusCode, answer.body).toBe(303);
    const response = await idp.parseLogoutResponse(metadata, answer.headers.location as string);
    expect(response.response.inResponseTo).toBe(request.id);
    expect(await live(frank)).toEqual([401, 401]);
    expect(await live(gina)).toEqual([200, 200]);
  });

  it('a badly signed, unsigned or foreign logout request changes nothing', async () => {
    const hank = await session('hank@ssoco.example', 'idp-hank-1');
    const metadata = await spMetadata();
    const refused = async (answer: Awaited<ReturnType<typeof redirectLogout>>) => {
      expect(answer.statusCode, answer.body).toBe(400);
      expect(json<{ message: string }>(answer).message).toMatch(/^The SAML logout was refused/);
    };
    const request = idp.logoutRequest(metadata, { nameID: hank.email, sessionIndex: hank.sessionIndex }, 'redirect');
    const url = new URL(request.url);
    // Another signature (its bytes changed).
    const signature = Buffer.from(url.searchParams.get('Signature')!, 'base64');
    signature[10]! ^= 0xff;
    const badSignature = new URL(url);
    badSignature.searchParams.set('Signature', signature.toString('base64'));
    await refused(await redirectLogout(badSignature.toString()));
    // The signature of another message (a LogoutRequest for someone else, signed for that one).
    const other = new URL(idp.logoutRequest(metadata, { nameID: 'nobody@ssoco.example' }, 'redirect').url);
    const swapped = new URL(url);
    swapped.searchParams.set('SAMLRequest', other.searchParams.get('SAMLRequest')!);
    await refused(await redirectLogout(swapped.toString()));
    // No signature at all.
    const unsigned = new URL(url);
    unsigned.searchParams.delete('Signature');
    unsigned.searchParams.delete('SigAlg');
    await refused(await redirectLogout(unsigned.toString()));
    // Signed by someone else's key.
    const stranger = new TestIdentityProvider();
    await refused(
      await redirectLogout(
        stranger.logoutRequest(metadata, { nameID: hank.email, sessionIndex: hank.sessionIndex }, 'redirect').url,
      ),
    );
    // Over POST with its XML changed after signing.
    const post = idp.logoutRequest(metadata, { nameID: 'nobody@ssoco.example' }, 'post');
    const xml = Buffer.from(post.form.SAMLRequest, 'base64').toString('utf8').replace('nobody@', 'hank@');
    const forged = await server.app.inject({
      method: 'POST',
      url: '/api/sso/okta/slo',
      headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLRequest: Buffer.from(xml).toString('base64') }).toString(),
    });
    await refused(forged);
    expect(await live(hank)).toEqual([200, 200]);
    // The genuine request still works.
    expect((await redirectLogout(request.url)).statusCode).toBe(303);
    expect(await live(hank)).toEqual([401, 401]);
  });
});

describe('the service provider key', () => {
  const urls = { publicUrl: new URL('http://localhost:8080') };

  it('is made once in the data directory, readable by its owner only, and kept', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'beacon-sp-'));
    try {
      const first = await loadSamlSigning({ ...urls, dataDir, samlSpKey: undefined, samlSpCert: undefined })();
      expect(statSync(join(dataDir, SAML_SP_FILE)).mode & 0o777).toBe(0o600);
      const again = await loadSamlSigning({ ...urls, dataDir, samlSpKey: undefined, samlSpCert: undefined })();
      expect(again).toEqual(first);
      expect(new X509Certificate(first.cert).checkPrivateKey(createPrivateKey(first.privateKey))).toBe(true);
      // The running server's is the one in its data directory.
      expect(readFileSync(join(server.database.dataDir, SAML_SP_FILE), 'utf8')).toContain(
        (await server.ctx.samlSigning()).cert.trim(),
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is taken from BEACON_SAML_SP_KEY and BEACON_SAML_SP_CERT, as PEM or files; a wrong pair stops the start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'beacon-sp-'));
    try {
      const mine = selfSignedCertificate('/CN=sp.example');
      const fromPem = loadConfig({
        BEACON_DATA_DIR: dataDir,
        BEACON_SAML_SP_KEY: mine.key.replace(/\n/g, '\\n'),
        BEACON_SAML_SP_CERT: mine.cert,
      });
      expect((await loadSamlSigning(fromPem)()).cert).toBe(mine.cert);
      writeFileSync(join(dataDir, 'sp.key'), mine.key);
      writeFileSync(join(dataDir, 'sp.crt'), mine.cert);
      const fromFiles = loadConfig({
        BEACON_DATA_DIR: dataDir,
        BEACON_SAML_SP_KEY: join(dataDir, 'sp.key'),
        BEACON_SAML_SP_CERT: join(dataDir, 'sp.crt'),
      });
      expect(await loadSamlSigning(fromFiles)()).toEqual({ privateKey: mine.key, cert: mine.cert });
      const other = selfSignedCertificate('/CN=other.example');
      expect(() => loadSamlSigning({ ...fromPem, samlSpCert: other.cert })).toThrow(/not for this private key/);
      expect(() => loadSamlSigning({ ...fromPem, samlSpCert: undefined })).toThrow(/set together/);
      expect(() => loadSamlSigning({ ...fromPem, samlSpKey: join(dataDir, 'missing.key') })).toThrow(/readable file/);
      // Nothing was made in the data directory.
      expect(() => statSync(join(dataDir, SAML_SP_FILE))).toThrow();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

async function spMetadata(): Promise<string> {
  return (await server.app.inject({ method: 'GET', url: '/api/sso/okta/metadata', headers: { host } })).body;
}

/** The certificate of the metadata's KeyDescriptor use="signing". */
function metadataCert(metadata: string): X509Certificate {
  const body = /<KeyDescriptor use="signing">[\s\S]*?<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/.exec(metadata);
  expect(body, 'a signing KeyDescriptor').not.toBeNull();
  return new X509Certificate(Buffer.from(body![1]!.replace(/\s+/g, ''), 'base64'));
}
