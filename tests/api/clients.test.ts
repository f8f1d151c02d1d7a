import { callersOf } from '../../src/server/cache/caller-cache.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../src/contract/clients.js';
import { disableUngrantedClients } from '../../src/server/db/migrations/037-client-grants.js';
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
/** A workspace admin. */
let ada: Member;

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
  ({ owner, admin: ada, teamAdmin: alice, teamMember: bob, guest, outsider } = seeded);
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
      disabled_reason: null,
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

describe('workspace-wide scopes (a client never holds more than who made it may do)', () => {
  const catalog = { ...body, name: 'Catalog CI', scopes: ['beacon.catalog.manage', 'beacon.service.read'] };
  const tokenFor = async (made: Client) =>
    requestToken(server, 'clientco', { client_id: made.client_id, client_secret: made.client_secret! });
  const countClients = async () =>
    Number(
      (
        await server.ctx.database.db
          .selectFrom('clients')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("a member's own team cannot grant beacon.catalog.manage: 403 naming the scope, nothing made", async () => {
    // Any member may create a team and so administer it; that is no grant over the whole catalogue.
    expect((await call(bob, 'POST', '/api/teams', { name: 'Bobs', handle: 'bobs' })).statusCode).toBe(201);
    const before = await countClients();
    for (const [actor, team] of [
      [bob, 'bobs'],
      [alice, 'ops'],
    ] as const) {
      const refused = await call(actor, 'POST', `/api/teams/${team}/clients`, catalog);
      expect(refused.statusCode).toBe(403);
      expect(json(refused)).toEqual({
        message: 'Only a workspace admin or owner can grant the scope beacon.catalog.manage',
      });
    }
    expect(await countClients()).toBe(before);
  });

  it('a workspace admin grants it; a team admin edits the client but neither re-grants nor rotates it', async () => {
    const made = json<Client>(await call(ada, 'POST', '/api/teams/ops/clients', catalog));
    expect(made.scopes).toEqual(['beacon.catalog.manage', 'beacon.service.read']);
    const token = await tokenFor(made);
    expect(token.statusCode).toBe(200);
    const bearer = json<{ access_token: string }>(token).access_token;
    const exported = await server.app.inject({
      method: 'GET',
      url: '/api/catalog/export',
      headers: { host: hostOf('clientco'), authorization: `Bearer ${bearer}` },
    });
    expect(exported.statusCode).toBe(200);
    // The team admin renames it, sending the scopes it holds: that grants nothing new.
    const renamed = await call(alice, 'PATCH', `/api/teams/ops/clients/${made.handle}`, {
      name: 'Catalog Bot',
      scopes: made.scopes,
    });
    expect(renamed.statusCode).toBe(200);
    const rotate = await call(alice, 'POST', `/api/teams/ops/clients/${made.handle}/actions/update-secret`);
    expect(rotate.statusCode).toBe(403);
    expect(json(rotate)).toEqual({
      message: 'Only a workspace admin or owner can rotate the secret of a client with the scope beacon.catalog.manage',
    });
    expect((await tokenFor(made)).statusCode).toBe(200);
    const rotated = await call(owner, 'POST', `/api/teams/ops/clients/${made.handle}/actions/update-secret`);
    expect(rotated.statusCode).toBe(200);
    // Dropping the scope is the team admin's to do, and adding it back is not.
    const dropped = await call(alice, 'PATCH', `/api/teams/ops/clients/${made.handle}`, {
      scopes: ['beacon.service.read'],
    });
    expect(json<Client>(dropped).scopes).toEqual(['beacon.service.read']);
    const regrant = await call(alice, 'PATCH', `/api/teams/ops/clients/${made.handle}`, { scopes: catalog.scopes });
    expect(regrant.statusCode).toBe(403);
    expect(json<Client>(await call(alice, 'GET', `/api/teams/ops/clients/${made.handle}`)).scopes).toEqual([
      'beacon.service.read',
    ]);
  });

  it('clients holding it with nobody recorded as granting are disabled, named in an event, until an admin grants it', async () => {
    const db = server.ctx.database.db;
    // As such a client was before migration 037: made by a team admin, its grant unrecorded.
    const legacy = json<Client>(await call(ada, 'POST', '/api/teams/ops/clients', { ...catalog, name: 'Legacy CI' }));
    await db.updateTable('clients').set({ granted_by: null }).where('id', '=', legacy.id).execute();
    const granted = json<Client>(await call(ada, 'POST', '/api/teams/ops/clients', { ...catalog, name: 'Granted CI' }));
    const legacyToken = json<{ access_token: string }>(await tokenFor(legacy)).access_token;
    await disableUngrantedClients(db as never, new Date().toISOString());
    callersOf(server.ctx).forgetClient(legacy.id);

    const refused = await tokenFor(legacy);
    expect(refused.statusCode).toBe(401);
    expect(json<{ message: string }>(refused).message).toMatch(/^This client is disabled: /);
    const live = await server.app.inject({
      method: 'GET',
      url: '/api/catalog/export',
      headers: { host: hostOf('clientco'), authorization: `Bearer ${legacyToken}` },
    });
    expect(live.statusCode).toBe(401);
    expect((await tokenFor(granted)).statusCode).toBe(200);
    const listed = json<Client[]>(await call(alice, 'GET', '/api/teams/ops/clients'));
    expect(listed.find((c) => c.id === legacy.id)?.disabled_reason).toMatch(/workspace-wide scope/);
    expect(listed.find((c) => c.id === granted.id)?.disabled_reason).toBeNull();
    const feed = json<{ title: string }[]>(await call(alice, 'GET', '/api/teams/ops/public-feed'));
    expect(feed.map((event) => event.title)).toContain(
      'API client Legacy CI disabled until a workspace admin grants beacon.catalog.manage again',
    );
    // The team admin cannot lift it with the same scopes; an admin can.
    const byTeamAdmin = await call(alice, 'PATCH', `/api/teams/ops/clients/${legacy.handle}`, {
      scopes: catalog.scopes,
    });
    expect(byTeamAdmin.statusCode).toBe(403);
    const byAdmin = await call(ada, 'PATCH', `/api/teams/ops/clients/${legacy.handle}`, { scopes: catalog.scopes });
    expect(json<Client>(byAdmin).disabled_reason).toBeNull();
    const rotated = json<Client>(
      await call(ada, 'POST', `/api/teams/ops/clients/${legacy.handle}/actions/update-secret`),
    );
    expect((await tokenFor(rotated)).statusCode).toBe(200);
  });

  it('an admin demoted to member no longer vouches for the clients they granted', async () => {
    const dora = await addMember(server, owner, 'dora', 'admin');
    const made = json<Client>(await call(dora, 'POST', '/api/teams/ops/clients', { ...catalog, name: 'Dora CI' }));
    const bearer = json<{ access_token: string }>(await tokenFor(made)).access_token;
    const demoted = await call(owner, 'POST', `/api/users/${dora.handle}/actions/change-role`, { role: 'member' });
    expect(demoted.statusCode).toBe(200);
    expect((await tokenFor(made)).statusCode).toBe(401);
    const live = await server.app.inject({
      method: 'GET',
      url: '/api/catalog/export',
      headers: { host: hostOf('clientco'), authorization: `Bearer ${bearer}` },
    });
    expect(live.statusCode).toBe(401);
    const listed = json<Client[]>(await call(alice, 'GET', '/api/teams/ops/clients'));
    expect(listed.find((c) => c.id === made.id)?.disabled_reason).toBe(
      'User dora, who granted its workspace-wide scopes, is no longer a workspace admin or owner',
    );
  });
});
