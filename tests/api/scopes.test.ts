import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../src/contract/clients.js';
import { CLIENT_SCOPES, workspaceWideScopes, type ClientScope } from '../../src/domain/scopes.js';
import { createClient } from '../support/fixtures.js';
import {
  callAs,
  hostOf,
  inviteAndJoin,
  json,
  registerWorkspace,
  startTestServer,
  type Member,
  type Method,
  type TestServer,
} from '../support/server.js';

/** Routes that take no bearer token at all (public, or their own authentication): no scope to decide. */
const UNAUTHENTICATED = new Set([
  'GET /api/healthz',
  'GET /api/livez',
  'GET /api/openapi.json',
  'GET /api/workspace',
  'POST /api/session',
  'DELETE /api/session',
  'POST /api/token',
  'POST /api/register',
  'POST /api/registration/register-workspace',
  'POST /api/forgot-password',
  'POST /api/reset-password',
  'POST /api/users',
  'GET /api/sso/login-option',
  'GET /api/sso/:provider/metadata',
  'GET /api/sso/:provider/login',
  'POST /api/sso/:provider/acs',
  'GET /api/sso/:provider/slo',
  'POST /api/sso/:provider/slo',
  'POST /api/stripe/webhook',
  // The vendors' answers to alerts: a told channel's secret (Slack: its signing secret) is the caller.
  'POST /api/integrations/pagerduty',
  'POST /api/integrations/opsgenie',
  'POST /api/integrations/slack/actions',
  'GET /api/status/:page/summary.json',
  'GET /api/status/:page/view',
  'GET /api/status/:page/history',
  'GET /api/status/:page/shields/:service.json',
  'POST /api/status/:page/unlock',
  'POST /api/status/:page/subscriptions',
  'POST /api/status/:page/unsubscribe',
  'POST /api/status/:page/subscriptions/confirm',
  ...['', '/start', '/fail'].flatMap((suffix) => [
    `GET /api/heartbeats/:token${suffix}`,
    `POST /api/heartbeats/:token${suffix}`,
  ]),
]);

let server: TestServer;
let owner: Member;
let alice: Member;

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);

/** A client of team ops with `scopes`, and a token for it. */
/** A client of ops with `scopes`, made by its team admin (by the owner when a scope is only theirs to grant). */
async function clientWith(scopes: ClientScope[]): Promise<Member> {
  const maker = workspaceWideScopes(scopes).length > 0 ? owner : alice;
  return (await createClient(server, maker, 'ops', { scopes, name: 'Scoped', description: 'Scoped client' })).caller;
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await registerWorkspace(server, 'scopeco');
  alice = await inviteAndJoin(server, owner, 'alice');
  await call(alice, 'POST', '/api/teams', { name: 'Ops', handle: 'ops' });
  await call(owner, 'POST', '/api/teams', { name: 'Other', handle: 'other' });
  await call(alice, 'POST', '/api/teams/ops/services', { name: 'Deployer', handle: 'deployer' });
  await call(owner, 'POST', '/api/teams/other/services', { name: 'Billing', handle: 'billing' });
  await call(owner, 'POST', '/api/teams/other/services', { name: 'Vault', handle: 'vault' });
  await call(owner, 'POST', '/api/services/vault/actions/change-visibility', { visibility: 'owner' });
  await call(alice, 'POST', '/api/teams/ops/services', { name: 'Secret Ops', handle: 'secret-ops' });
  await call(alice, 'POST', '/api/services/secret-ops/actions/change-visibility', { visibility: 'owner' });
});
afterAll(() => server.close());

describe('route scopes', () => {
  it('every authenticated route decides what API clients may do', () => {
    const undecided = server.app.beaconRoutes
      .filter((route) => route.url.startsWith('/api/'))
      .filter((route) => !UNAUTHENTICATED.has(`${route.method} ${route.url}`))
      .filter((route) => route.scope === undefined)
      .map((route) => `${route.method} ${route.url}`);
    expect(undecided).toEqual([]);
    const named = server.app.beaconRoutes.flatMap((route) => (route.scope ? [route.scope] : []));
    for (const scope of named) expect(CLIENT_SCOPES).toContain(scope);
  });

  it('the OpenAPI document names each route’s scope', async () => {
    const doc = json<{ paths: Record<string, Record<string, { security?: unknown }>> }>(
      await server.app.inject({ method: 'GET', url: '/api/openapi.json' }),
    );
    expect(doc.paths['/api/services/{service}']!.get!.security).toEqual([{ bearer: ['beacon.service.read'] }]);
  });

  it('a read scope reads but cannot write; no scope is 403', async () => {
    const reader = await clientWith(['beacon.service.read']);
    const read = await call(reader, 'GET', '/api/services/deployer');
    expect(read.statusCode).toBe(200);
    expect(json(read)).toMatchObject({ handle: 'deployer', permissions: { edit: true } });
    expect((await call(reader, 'GET', '/api/search/services')).statusCode).toBe(200);
    const write = await call(reader, 'PATCH', '/api/services/deployer', { name: 'Pwned' });
    expect(write.statusCode).toBe(403);
    expect(json(write)).toEqual({ message: 'Insufficient scope' });
    const teams = await call(reader, 'GET', '/api/teams/ops');
    expect(teams.statusCode).toBe(403);
    expect(json(teams)).toEqual({ message: 'Insufficient scope' });
    expect((await call(reader, 'GET', '/api/services/deployer/health-checks')).statusCode).toBe(403);
    // A token narrowed at issue keeps only what it asked for.
  });

  it('user-only and admin-only routes refuse clients whatever their scopes', async () => {
    const everything = await clientWith([...CLIENT_SCOPES]);
    const refused: Array<[Method, string, object?]> = [
      ['PUT', `/api/users/${alice.handle}/starred/deployer`],
      ['GET', `/api/users/${alice.handle}/muted`],
      ['GET', `/api/users/${alice.handle}/feed`],
      ['GET', `/api/users/${alice.handle}/notifications`],
      ['POST', `/api/users/${alice.handle}/notifications/actions/mark-read`, {}],
      ['GET', '/api/events/stream'],
      ['GET', '/api/pages/actions/export'],
      ['GET', '/api/slack/settings'],
      ['GET', '/api/account'],
      ['GET', '/api/account/invoices'],
      ['POST', '/api/account/subscriptions/actions/cancel-subscription', {}],
      ['GET', '/api/sso-providers'],
      ['GET', '/api/status-pages'],
      ['POST', '/api/status-pages', { handle: 'x-page', title: 'X' }],
      ['POST', '/api/status-pages/x-page/actions/verify-domain'],
      ['POST', '/api/sso-providers', { handle: 'x-idp', name: 'X' }],
      ['GET', '/api/slack-workspaces'],
      ['POST', '/api/slack-workspaces', { token: 'code' }],
      ['POST', `/api/users/${alice.handle}/actions/connect-to-slack`, { token: 'code' }],
      ['GET', '/api/invites'],
      ['POST', '/api/invites', { email: 'x@scopeco.example' }],
      ['PATCH', `/api/users/${alice.handle}`, { name: 'Pwned' }],
      ['POST', `/api/users/${alice.id}/actions/change-role`, { role: 'guest' }],
      ['POST', '/api/teams', { name: 'New', handle: 'new-team' }],
      ['PATCH', '/api/teams/ops', { name: 'Pwned' }],
      ['GET', '/api/teams/ops/policies'],
      ['GET', '/api/remotes'],
      ['POST', '/api/remotes', { remote: 'elsewhere' }],
      ['DELETE', '/api/remotes/elsewhere'],
      ['PATCH', '/api/teams/ops/policies', { members_create_services: true }],
      ['DELETE', '/api/teams/other'],
      ['POST', '/api/teams/ops/members', { user: { id: owner.id } }],
      ['GET', '/api/teams/ops/clients'],
      ['DELETE', '/api/teams/ops/icon'],
    ];
    for (const [method, url, payload] of refused) {
      const response = await call(everything, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(json(response)).toEqual({ message: 'API clients cannot use this route' });
    }
  });

  it('a client acts for its team: reads what a member reads, edits only its team’s services', async () => {
    const manager = await clientWith([
      'beacon.service.read',
      'beacon.service.manage',
      'beacon.team.read',
      'beacon.user.read',
      'beacon.health-check.read',
      'beacon.health-check.manage',
    ]);
    expect((await call(manager, 'GET', '/api/teams/other')).statusCode).toBe(200);
    expect(json(await call(manager, 'GET', '/api/teams/ops'))).toMatchObject({ is_member: true, is_admin: false });
    expect((await call(manager, 'GET', `/api/users/${alice.handle}`)).statusCode).toBe(200);
    expect((await call(manager, 'GET', '/api/search/users')).statusCode).toBe(200);
    // Owner-only services: its own team's, not another team's.
    expect((await call(manager, 'GET', '/api/services/secret-ops')).statusCode).toBe(200);
    expect((await call(manager, 'GET', '/api/services/vault')).statusCode).toBe(404);
    const handles = json<Array<{ handle: string }>>(await call(manager, 'GET', '/api/search/services')).map(
      (s) => s.handle,
    );
    expect(handles.sort()).toEqual(['billing', 'deployer', 'secret-ops']);

    const renamed = await call(manager, 'PATCH', '/api/services/deployer', { name: 'Deployer 2' });
    expect(renamed.statusCode).toBe(200);
    expect(
      (await call(manager, 'POST', '/api/services/deployer/actions/change-stage', { stage: 'live' })).statusCode,
    ).toBe(200);
    expect((await call(manager, 'PATCH', '/api/services/billing', { name: 'Pwned' })).statusCode).toBe(403);
    // A client creates services as a member of its team: where the team's policy lets members.
    const botMade = { name: 'Bot Made', handle: 'bot-made' };
    expect((await call(manager, 'POST', '/api/teams/ops/services', botMade)).statusCode).toBe(403);
    await call(alice, 'PATCH', '/api/teams/ops/policies', { members_create_services: true });
    expect((await call(manager, 'POST', '/api/teams/ops/services', botMade)).statusCode).toBe(201);
    expect((await call(manager, 'POST', '/api/teams/other/services', { name: 'X', handle: 'x-svc' })).statusCode).toBe(
      403,
    );

    const check = await call(manager, 'POST', '/api/services/deployer/health-checks', {
      name: 'Up',
      endpoint: 'https://deployer.example/health',
    });
    expect(check.statusCode).toBe(201);
    const checkId = json<{ id: string }>(check).id;
    expect((await call(manager, 'GET', `/api/health-checks/${checkId}/reports/health-check-results`)).statusCode).toBe(
      200,
    );
    expect(
      (
        await call(manager, 'POST', '/api/services/billing/health-checks', {
          name: 'Up',
          endpoint: 'https://b.example',
        })
      ).statusCode,
    ).toBe(403);
  });

  it('a token narrowed at issue is held to the narrower scopes', async () => {
    const made = json<Client>(
      await call(alice, 'POST', '/api/teams/ops/clients', {
        name: 'Wide',
        description: 'Wide client',
        scopes: ['beacon.service.read', 'beacon.service.manage'],
      }),
    );
    const token = json<{ access_token: string }>(
      await server.app.inject({
        method: 'POST',
        url: '/api/token',
        headers: { host: hostOf('scopeco') },
        payload: {
          grant_type: 'client_credentials',
          client_id: made.client_id,
          client_secret: made.client_secret,
          scope: 'beacon.service.read',
        },
      }),
    ).access_token;
    const narrow = { ...alice, token };
    expect((await call(narrow, 'GET', '/api/services/deployer')).statusCode).toBe(200);
    expect((await call(narrow, 'PATCH', '/api/services/deployer', { name: 'X' })).statusCode).toBe(403);
    // Taking a scope away from the client applies to its live tokens at once.
    const full = json<{ access_token: string }>(
      await server.app.inject({
        method: 'POST',
        url: '/api/token',
        headers: { host: hostOf('scopeco') },
        payload: { grant_type: 'client_credentials', client_id: made.client_id, client_secret: made.client_secret },
      }),
    ).access_token;
    const wide = { ...alice, token: full };
    expect((await call(wide, 'PATCH', '/api/services/deployer', { name: 'Deployer 3' })).statusCode).toBe(200);
    await call(alice, 'PATCH', `/api/teams/ops/clients/${made.handle}`, { scopes: ['beacon.service.read'] });
    expect((await call(wide, 'PATCH', '/api/services/deployer', { name: 'Deployer 4' })).statusCode).toBe(403);
  });
});
