import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../src/contract/clients.js';
import { addMember, createTeam, seedWorkspace } from '../support/fixtures.js';
import { callAs, hostOf, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

let server: TestServer;
let owner: Member;
/** Admin of team ops. */
let alice: Member;
/** Plain member of team ops. */
let bob: Member;
/** Admin of team search only. */
let carol: Member;
let guest: Member;
let outsider: Member;

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);

const body = { name: 'Deploy Bot', description: 'Deploys', scopes: ['beacon.service.read'] };

/** POST /api/token with the client credentials grant, JSON unless `form`. */
function requestToken(
  testServer: TestServer,
  domain: string,
  fields: Record<string, string>,
  options: { form?: boolean; headers?: Record<string, string> } = {},
) {
  const payload = { grant_type: 'client_credentials', ...fields };
  return testServer.app.inject({
    method: 'POST',
    url: '/api/token',
    headers: {
      host: hostOf(domain),
      ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...options.headers,
    },
    payload: options.form ? new URLSearchParams(payload).toString() : payload,
  });
}

beforeAll(async () => {
  server = await startTestServer();
  const seeded = await seedWorkspace(server, { domain: 'clientco', team: { name: 'Ops', handle: 'ops' } });
  ({ owner, teamAdmin: alice, teamMember: bob, guest, outsider } = seeded);
  carol = await addMember(server, owner, 'carol');
  await createTeam(server, carol, { name: 'Search', handle: 'search' });
});
afterAll(() => server.close());

describe('team clients', () => {
  let created: Client;

  it('a team admin creates a client and sees its secret once', async () => {
    const response = await call(alice, 'POST', '/api/teams/ops/clients', body);
    expect(response.statusCode).toBe(201);
    created = json<Client>(response);
    expect(created).toEqual({
      id: expect.any(String),
      handle: 'deploy-bot',
      name: 'Deploy Bot',
      description: 'Deploys',
      scopes: ['beacon.service.read'],
      client_id: expect.any(String),
      client_secret: expect.stringMatching(/^[\w-]{40,}$/),
      team: { id: expect.any(String), handle: 'ops' },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const listed = json<Client[]>(await call(alice, 'GET', '/api/teams/ops/clients'));
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('client_secret');
    const one = await call(alice, 'GET', '/api/teams/ops/clients/deploy-bot');
    expect(one.statusCode).toBe(200);
    expect(json(one)).not.toHaveProperty('client_secret');
    expect(json(one)).toMatchObject({ client_id: created.client_id });
    // By client_id too.
    expect((await call(alice, 'GET', `/api/teams/ops/clients/${created.client_id}`)).statusCode).toBe(200);
    // The secret is not stored as it was.
    const row = await server.ctx.database.db.selectFrom('clients').selectAll().executeTakeFirstOrThrow();
    expect(row.secret_hash).not.toContain(created.client_secret!);
  });

  it('makes a free handle from the name, and takes an explicit one', async () => {
    const second = json<Client>(await call(alice, 'POST', '/api/teams/ops/clients', body));
    expect(second.handle).toBe('deploy-bot-2');
    const explicit = await call(alice, 'POST', '/api/teams/ops/clients', { ...body, handle: 'ci-bot' });
    expect(json<Client>(explicit).handle).toBe('ci-bot');
    const taken = await call(owner, 'POST', '/api/teams/search/clients', { ...body, handle: 'ci-bot' });
    expect(taken.statusCode).toBe(409);
    expect(json(taken)).toMatchObject({ errors: { handle: [expect.any(String)] } });
    // Listed by name.
    const names = json<Client[]>(await call(alice, 'GET', '/api/teams/ops/clients')).map((c) => c.handle);
    expect(names).toEqual(['ci-bot', 'deploy-bot', 'deploy-bot-2']);
    await call(alice, 'DELETE', '/api/teams/ops/clients/deploy-bot-2');
    await call(alice, 'DELETE', '/api/teams/ops/clients/ci-bot');
  });

  it('refuses bad input with field errors', async () => {
    const cases: Array<[object, string]> = [
      [{ ...body, name: '  ' }, 'name'],
      [{ ...body, description: '' }, 'description'],
      [{ ...body, scopes: [] }, 'scopes'],
      [{ ...body, scopes: ['beacon.everything'] }, 'scopes.0'],
      [{ ...body, scopes: ['beacon.team.read', 'beacon.team.read'] }, 'scopes'],
      [{ ...body, secret: 'mine' }, 'secret'],
      [{ name: 'No scopes', description: 'x' }, 'scopes'],
      [{ ...body, handle: 'x' }, 'handle'],
    ];
    for (const [payload, field] of cases) {
      const response = await call(alice, 'POST', '/api/teams/ops/clients', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(json<{ errors: object }>(response).errors)).toContain(field);
    }
    const patch = await call(alice, 'PATCH', '/api/teams/ops/clients/deploy-bot', { scopes: [] });
    expect(patch.statusCode).toBe(400);
    expect(json(patch)).toMatchObject({ errors: { scopes: [expect.any(String)] } });
  });

  it('only team admins (and workspace admins and owners) manage clients', async () => {
    expect((await call(owner, 'GET', '/api/teams/ops/clients')).statusCode).toBe(200);
    for (const actor of [bob, carol, guest]) {
      expect((await call(actor, 'GET', '/api/teams/ops/clients')).statusCode).toBe(403);
      expect((await call(actor, 'GET', '/api/teams/ops/clients/deploy-bot')).statusCode).toBe(403);
      expect((await call(actor, 'POST', '/api/teams/ops/clients', body)).statusCode).toBe(403);
      expect((await call(actor, 'PATCH', '/api/teams/ops/clients/deploy-bot', { name: 'X' })).statusCode).toBe(403);
      expect((await call(actor, 'POST', '/api/teams/ops/clients/deploy-bot/actions/update-secret')).statusCode).toBe(
        403,
      );
      expect((await call(actor, 'DELETE', '/api/teams/ops/clients/deploy-bot')).statusCode).toBe(403);
    }
    // Another workspace: the team is not there.
    expect((await call(outsider, 'GET', '/api/teams/ops/clients')).statusCode).toBe(404);
    // A client of another team is not found under this one.
    expect((await call(owner, 'GET', '/api/teams/search/clients/deploy-bot')).statusCode).toBe(404);
    expect((await call(alice, 'GET', '/api/teams/ops/clients/nope')).statusCode).toBe(404);
  });

  it('updates name, description and scopes, never showing the secret', async () => {
    const response = await call(alice, 'PATCH', '/api/teams/ops/clients/deploy-bot', {
      name: 'Deployer',
      description: 'Deploys things',
      scopes: ['beacon.service.read', 'beacon.team.read'],
    });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({
      handle: 'deploy-bot',
      name: 'Deployer',
      description: 'Deploys things',
      scopes: ['beacon.service.read', 'beacon.team.read'],
    });
    expect(json(response)).not.toHaveProperty('client_secret');
  });

  it('issues client_credentials tokens (JSON, form and Basic) limited to the scopes', async () => {
    const credentials = { client_id: created.client_id, client_secret: created.client_secret! };
    const response = await requestToken(server, 'clientco', credentials);
    expect(response.statusCode).toBe(200);
    const token = json<{ access_token: string; token_type: string; expires_in: number; scope: string }>(response);
    expect(token).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
      scope: 'beacon.service.read beacon.team.read',
    });
    const claims = JSON.parse(Buffer.from(token.access_token.split('.')[1]!, 'base64url').toString()) as {
      sub: string;
    };
    expect(claims.sub).toBe('client:clientco:deploy-bot');

    const form = await requestToken(server, 'clientco', credentials, { form: true });
    expect(form.statusCode).toBe(200);
    const basic = await requestToken(
      server,
      'clientco',
      {},
      {
        headers: {
          authorization: `Basic ${Buffer.from(`${credentials.client_id}:${credentials.client_secret}`).toString('base64')}`,
        },
      },
    );
    expect(basic.statusCode).toBe(200);

    const narrowed = await requestToken(server, 'clientco', { ...credentials, scope: 'beacon.team.read' });
    expect(json(narrowed)).toMatchObject({ scope: 'beacon.team.read' });
    const wider = await requestToken(server, 'clientco', { ...credentials, scope: 'beacon.service.manage' });
    expect(wider.statusCode).toBe(400);
    expect(json(wider)).toMatchObject({ errors: { scope: [expect.any(String)] } });
  });

  it('refuses bad credentials with 401', async () => {
    const wrongSecret = await requestToken(server, 'clientco', {
      client_id: created.client_id,
      client_secret: 'not-the-secret',
    });
    expect(wrongSecret.statusCode).toBe(401);
    expect(json(wrongSecret)).toEqual({ message: 'Invalid client credentials' });
    const unknown = await requestToken(server, 'clientco', { client_id: 'nobody', client_secret: 'x' });
    expect(unknown.statusCode).toBe(401);
    const missing = await requestToken(server, 'clientco', {});
    expect(missing.statusCode).toBe(401);
    // Another workspace's host does not know the client.
    const elsewhere = await requestToken(server, 'otherco', {
      client_id: created.client_id,
      client_secret: created.client_secret!,
    });
    expect(elsewhere.statusCode).toBe(401);
    const badGrant = await requestToken(server, 'clientco', { grant_type: 'password' });
    expect(badGrant.statusCode).toBe(400);
  });

  it('a new secret revokes the old tokens; the old secret no longer works', async () => {
    const old = json<{ access_token: string }>(
      await requestToken(server, 'clientco', { client_id: created.client_id, client_secret: created.client_secret! }),
    ).access_token;
    const read = (token: string) =>
      server.app.inject({
        method: 'GET',
        url: '/api/search/teams',
        headers: { host: hostOf('clientco'), authorization: `Bearer ${token}` },
      });
    expect((await read(old)).statusCode).toBe(200);

    const response = await call(alice, 'POST', '/api/teams/ops/clients/deploy-bot/actions/update-secret');
    expect(response.statusCode).toBe(200);
    const renewed = json<Client>(response);
    expect(renewed.client_secret).toEqual(expect.any(String));
    expect(renewed.client_secret).not.toBe(created.client_secret);
    expect(renewed.client_id).toBe(created.client_id);

    expect((await read(old)).statusCode).toBe(401);
    expect(
      (await requestToken(server, 'clientco', { client_id: created.client_id, client_secret: created.client_secret! }))
        .statusCode,
    ).toBe(401);
    const fresh = json<{ access_token: string }>(
      await requestToken(server, 'clientco', { client_id: created.client_id, client_secret: renewed.client_secret! }),
    ).access_token;
    expect((await read(fresh)).statusCode).toBe(200);
    created = renewed;
  });

  it('deleting the client revokes its tokens', async () => {
    const token = json<{ access_token: string }>(
      await requestToken(server, 'clientco', { client_id: created.client_id, client_secret: created.client_secret! }),
    ).access_token;
    const read = () =>
      server.app.inject({
        method: 'GET',
        url: '/api/search/teams',
        headers: { host: hostOf('clientco'), authorization: `Bearer ${token}` },
      });
    expect((await read()).statusCode).toBe(200);
    expect((await call(alice, 'DELETE', '/api/teams/ops/clients/deploy-bot')).statusCode).toBe(204);
    expect((await read()).statusCode).toBe(401);
    expect((await call(alice, 'GET', '/api/teams/ops/clients/deploy-bot')).statusCode).toBe(404);
    expect(json(await call(alice, 'GET', '/api/teams/ops/clients'))).toEqual([]);
  });

  it('clients cannot manage clients', async () => {
    const made = json<Client>(
      await call(alice, 'POST', '/api/teams/ops/clients', {
        ...body,
        scopes: ['beacon.team.read', 'beacon.runner.manage', 'beacon.service.manage'],
      }),
    );
    const token = json<{ access_token: string }>(
      await requestToken(server, 'clientco', { client_id: made.client_id, client_secret: made.client_secret! }),
    ).access_token;
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/teams/ops/clients',
      headers: { host: hostOf('clientco'), authorization: `Bearer ${token}` },
      payload: { ...body, scopes: ['beacon.user.read'] },
    });
    expect(response.statusCode).toBe(403);
  });
});
