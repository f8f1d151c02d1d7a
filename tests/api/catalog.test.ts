import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogEntity, CatalogPlanAnswer, CatalogSource } from '../../src/contract/catalog.js';
import type { Service, Team } from '../../src/contract/catalogue.js';
import { removeExpiredOrphans } from '../../src/server/jobs/catalog-sync.js';
import { addToTeam, createClient, createService, seedWorkspace, type SeededWorkspace } from '../support/fixtures.js';
import { atTime, callAs, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

/** Issue 29, the catalogue as code: plan, apply, sources and managed entities through the real server. */
let server: TestServer;
let cast: SeededWorkspace;

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);

const component = (name: string, owner: string, extra = '') => `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: ${name}
spec:
  type: service
  lifecycle: production
  owner: ${owner}
${extra}`;

const group = (name: string, title: string) => `apiVersion: backstage.io/v1alpha1
kind: Group
metadata:
  name: ${name}
  title: ${title}
spec:
  type: team
  children: []
  members: [bob, nobody-here]
`;

const plan = async (actor: Member, files: Array<{ path: string; content: string }>, source?: string) => {
  const response = await call(actor, 'POST', '/api/catalog/plans', { files, ...(source ? { source } : {}) });
  expect(response.statusCode, response.body).toBe(201);
  return json<CatalogPlanAnswer>(response);
};
const apply = async (actor: Member, id: string) => {
  const response = await call(actor, 'POST', `/api/catalog/plans/${id}/actions/apply`);
  expect(response.statusCode, response.body).toBe(200);
  return json<CatalogPlanAnswer>(response);
};
const changeOf = (answer: CatalogPlanAnswer, kind: string, handle: string) =>
  answer.changes.find((c) => c.kind === kind && c.handle === handle);
const service = async (handle: string) => json<Service>(await call(cast.admin, 'GET', `/api/services/${handle}`));

beforeAll(async () => {
  server = await startTestServer();
  cast = await seedWorkspace(server);
});
afterAll(() => server?.close());

describe('plans', () => {
  const files = [
    {
      path: 'catalog-info.yaml',
      content: `${group('platform', 'Platform')}---
${component('gateway', 'platform', '  dependsOn:\n    - component:auth\n    - component:ghost\n')}---
apiVersion: backstage.io/v1alpha1
kind: Location
metadata:
  name: more
spec:
  targets: [./services/auth.yaml]
---
apiVersion: backstage.io/v1alpha1
kind: System
metadata:
  name: shop
spec:
  owner: platform
`,
    },
    {
      path: 'services/auth.yaml',
      content: `${component('auth', 'group:default/platform')}---
${component('Bad Name', 'platform')}`,
    },
  ];

  it('answers every entity’s action, writes nothing, and applies exactly that', async () => {
    const before = await call(cast.admin, 'GET', '/api/services');
    const answer = await plan(cast.admin, files);
    expect(changeOf(answer, 'team', 'platform')).toMatchObject({
      action: 'create',
      path: 'catalog-info.yaml',
      line: 1,
      unresolved: ['user:nobody-here'],
    });
    expect(changeOf(answer, 'service', 'gateway')).toMatchObject({
      action: 'create',
      unresolved: ['component:ghost'],
      diff: expect.arrayContaining([{ field: 'depends_on', from: null, to: ['auth'] }]),
    });
    expect(changeOf(answer, 'service', 'auth')).toMatchObject({ action: 'create', path: 'services/auth.yaml' });
    expect(changeOf(answer, 'System', 'shop')).toMatchObject({ action: 'skipped' });
    const bad = answer.changes.find((c) => c.action === 'error');
    expect(bad?.errors?.[0]).toMatchObject({ path: 'services/auth.yaml', line: 13 });
    expect(answer.counts).toMatchObject({ create: 3, error: 1, skipped: 1 });
    // Nothing written.
    expect((await call(cast.admin, 'GET', '/api/services/gateway')).statusCode).toBe(404);
    expect((await call(cast.admin, 'GET', '/api/services')).headers.total).toBe(before.headers.total);

    const applied = await apply(cast.admin, answer.id);
    expect(applied.applied_at).toBeTruthy();
    const gateway = await service('gateway');
    expect(gateway).toMatchObject({ stage: 'live', owner: { handle: 'platform' }, managed_by: null });
    const deps = json<Array<{ handle: string }>>(await call(cast.admin, 'GET', '/api/services/gateway/dependencies'));
    expect(deps.map((d) => d.handle)).toEqual(['auth']);
    const members = json<Array<{ user: { handle: string } }>>(
      await call(cast.admin, 'GET', '/api/teams/platform/members'),
    );
    expect(members.map((m) => m.user.handle)).toEqual(['bob']);
    // A plan is applied once.
    expect((await call(cast.admin, 'POST', `/api/catalog/plans/${answer.id}/actions/apply`)).statusCode).toBe(404);
    // Planning the same files again: nothing to do.
    const again = await plan(cast.admin, files);
    expect(again.counts).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: 3 });
  });

  it('answers 409 when the catalogue changed since the plan in a way that changes it', async () => {
    const changed = files.map((f) =>
      f.path === 'services/auth.yaml'
        ? { ...f, content: f.content.replace('name: auth', 'name: auth\n  title: Auth') }
        : f,
    );
    const answer = await plan(cast.admin, changed);
    expect(changeOf(answer, 'service', 'auth')).toMatchObject({
      action: 'update',
      diff: [{ field: 'name', from: 'auth', to: 'Auth' }],
    });
    // A change of health elsewhere does not move the plan; a change of the name does.
    await call(cast.admin, 'POST', '/api/services/gateway/actions/change-health', { health: 'warning' });
    await call(cast.admin, 'PATCH', '/api/services/auth', { name: 'Authentication' });
    const conflict = await call(cast.admin, 'POST', `/api/catalog/plans/${answer.id}/actions/apply`);
    expect(conflict.statusCode).toBe(409);
    expect((await service('auth')).name).toBe('Authentication');
    const fresh = await plan(cast.admin, changed);
    await apply(cast.admin, fresh.id);
    expect((await service('auth')).name).toBe('Auth');
  });

  it('applies a plan once when two apply it at the same moment', async () => {
    const twice = [{ path: 'twice.yaml', content: component('twice', 'platform') }];
    const answer = await plan(cast.admin, twice);
    const url = `/api/catalog/plans/${answer.id}/actions/apply`;
    const codes = (await Promise.all([call(cast.admin, 'POST', url), call(cast.admin, 'POST', url)])).map(
      (r) => r.statusCode,
    );
    expect(codes.sort()).toEqual([200, 404]);
    expect((await service('twice')).handle).toBe('twice');
  });

  it('refuses members, guests, clients without the scope and other workspaces; takes a client with it', async () => {
    const body = { files };
    for (const actor of [cast.teamMember, cast.guest, cast.teamAdmin]) {
      expect((await call(actor, 'POST', '/api/catalog/plans', body)).statusCode).toBe(403);
    }
    const { caller: reader } = await createClient(server, cast.teamAdmin, 'payments', {
      scopes: ['beacon.service.manage'],
    });
    expect((await call(reader, 'POST', '/api/catalog/plans', body)).statusCode).toBe(403);
    const { caller: ci } = await createClient(server, cast.admin, 'payments', {
      name: 'CI',
      scopes: ['beacon.catalog.manage'],
    });
    const answer = await plan(ci, files);
    expect((await call(cast.outsider, 'POST', `/api/catalog/plans/${answer.id}/actions/apply`)).statusCode).toBe(404);
    expect((await call(ci, 'POST', `/api/catalog/plans/${answer.id}/actions/apply`)).statusCode).toBe(200);
  });

  it('rejects bad input and changes nothing', async () => {
    const bad = async (payload: object) => (await call(cast.admin, 'POST', '/api/catalog/plans', payload)).statusCode;
    expect(await bad({ files: [] })).toBe(400);
    expect(await bad({ files: [{ path: '../etc/passwd', content: 'x' }] })).toBe(400);
    expect(await bad({ files: [{ path: '/abs.yaml', content: 'x' }] })).toBe(400);
    expect(
      await bad({
        files: [
          { path: 'a.yaml', content: 'x' },
          { path: 'a.yaml', content: 'y' },
        ],
      }),
    ).toBe(400);
    expect(await bad({ files: [{ path: 'a.yaml', content: 'x' }], source: 'nope' })).toBe(404);
    expect((await call(cast.admin, 'POST', '/api/catalog/plans/nope/actions/apply')).statusCode).toBe(404);
    // Not YAML: an error with its line, not a 400.
    const answer = await plan(cast.admin, [{ path: 'broken.yaml', content: 'kind: [Component\n' }]);
    expect(answer.changes[0]).toMatchObject({ kind: 'file', action: 'error', path: 'broken.yaml' });
  });

  it('lets a plan expire after an hour', async () => {
    const answer = await plan(cast.admin, files);
    expect(Date.parse(answer.expires_at) - Date.now()).toBeGreaterThan(59 * 60_000);
    // An hour later (moved in the database: the session would not outlive the clock moved on).
    await server.ctx.database.db
      .updateTable('catalog_plans')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', answer.id)
      .execute();
    const late = await call(cast.admin, 'POST', `/api/catalog/plans/${answer.id}/actions/apply`);
    expect(late.statusCode).toBe(404);
  });
});

describe('sources', () => {
  const shopFiles = (services: string[], extra = '') => [
    { path: 'teams.yaml', content: group('shop', 'Shop') },
    {
      path: 'services.yaml',
      content: services.map((name) => component(name, 'shop')).join('---\n') + extra,
    },
  ];
  let source: CatalogSource;

  it('manages what it applies: marked for every member, its fields read-only in the API', async () => {
    const created = await call(cast.admin, 'POST', '/api/catalog/sources', { name: 'shop-repo' });
    expect(created.statusCode).toBe(201);
    source = json<CatalogSource>(created);
    expect(source).toMatchObject({ mode: 'authoritative', url: null, last_sync: null, interval_minutes: 60 });
    expect((await call(cast.admin, 'POST', '/api/catalog/sources', { name: 'shop-repo' })).statusCode).toBe(409);
    expect((await call(cast.teamMember, 'GET', '/api/catalog/sources')).statusCode).toBe(403);

    await createService(server, cast.teamAdmin, 'payments', { name: 'Basket', handle: 'basket' });
    const answer = await plan(cast.admin, shopFiles(['cart', 'till', 'basket']), 'shop-repo');
    expect(changeOf(answer, 'service', 'basket')).toMatchObject({
      action: 'conflict',
      message: expect.stringContaining('made in Beacon'),
    });
    await apply(cast.admin, answer.id);

    const cart = json<Service>(await call(cast.teamMember, 'GET', '/api/services/cart'));
    expect(cart.managed_by).toMatchObject({ source: 'shop-repo', path: 'services.yaml', line: 1 });
    const team = json<Team>(await call(cast.guest, 'GET', '/api/teams/shop'));
    expect(team.managed_by).toMatchObject({ source: 'shop-repo', path: 'teams.yaml' });
    expect((await service('basket')).managed_by).toBeNull();

    const rename = await call(cast.admin, 'PATCH', '/api/services/cart', { name: 'Trolley' });
    expect(rename.statusCode).toBe(409);
    expect(json<{ message: string }>(rename).message).toContain('managed in shop-repo (services.yaml:1)');
    expect((await call(cast.admin, 'DELETE', '/api/services/cart')).statusCode).toBe(409);
    expect(
      (await call(cast.admin, 'POST', '/api/services/cart/actions/change-stage', { stage: 'eol' })).statusCode,
    ).toBe(409);
    expect((await call(cast.admin, 'PATCH', '/api/teams/shop', { name: 'Shopping' })).statusCode).toBe(409);
    // Health and visibility stay the UI's.
    expect(
      (await call(cast.admin, 'POST', '/api/services/cart/actions/change-health', { health: 'warning' })).statusCode,
    ).toBe(200);
    expect((await service('cart')).name).toBe('cart');

    const listed = json<CatalogSource[]>(await call(cast.admin, 'GET', '/api/catalog/sources'));
    expect(listed[0]).toMatchObject({
      name: 'shop-repo',
      last_sync: { status: 'ok', counts: expect.objectContaining({ create: 3, conflict: 1 }) },
      entities: { synced: 3, conflict: 1, errored: 0, orphaned: 0 },
    });
    const conflicts = json<CatalogEntity[]>(await call(cast.admin, 'GET', '/api/catalog/entities?state=conflict'));
    expect(conflicts).toEqual([
      expect.objectContaining({ kind: 'service', handle: 'basket', state: 'conflict', entity: null }),
    ]);
  });

  it('plans the exported workspace as unchanged, what the source manages included, with or without the source', async () => {
    const { files: exported } = json<{ files: Array<{ path: string; content: string }> }>(
      await call(cast.admin, 'GET', '/api/catalog/export'),
    );
    for (const as of [undefined, 'shop-repo']) {
      const answer = await plan(cast.admin, exported, as);
      expect(answer.counts, as).toMatchObject({ create: 0, update: 0, delete: 0, conflict: 0, error: 0 });
      expect(changeOf(answer, 'service', 'cart'), as).toMatchObject({
        action: 'unchanged',
        ...(as ? {} : { message: 'Managed in shop-repo' }),
      });
      expect(changeOf(answer, 'team', 'shop')?.action, as).toBe('unchanged');
      expect(changeOf(answer, 'service', 'basket'), as).toMatchObject({ action: 'unchanged' });
    }
    // A change to what the source manages is still a conflict for a plan without it.
    const changed = exported.map((file) => ({
      ...file,
      content: file.content.replace('name: cart', 'name: cart\n  title: Cart!'),
    }));
    expect(changeOf(await plan(cast.admin, changed), 'service', 'cart')).toMatchObject({
      action: 'conflict',
      message: expect.stringContaining('managed in shop-repo'),
    });
  });

  it('keeps the last good version of an entity in error, and says why', async () => {
    const broken = shopFiles(['cart', 'basket']).map((f) =>
      f.path === 'services.yaml'
        ? { ...f, content: `${f.content}---\n${component('till', 'shop').replace('production', 'retired')}` }
        : f,
    );
    const answer = await plan(cast.admin, broken, 'shop-repo');
    expect(changeOf(answer, 'service', 'till')).toMatchObject({ action: 'error' });
    expect(answer.counts.delete).toBe(0);
    await apply(cast.admin, answer.id);
    expect((await service('till')).stage).toBe('live');
    const errored = json<CatalogEntity[]>(await call(cast.admin, 'GET', '/api/catalog/entities?state=errored'));
    expect(errored).toEqual([
      expect.objectContaining({
        handle: 'till',
        entity: expect.objectContaining({ handle: 'till' }),
        reason: expect.stringContaining('services.yaml:'),
      }),
    ]);
  });

  it('renames with previous-names, keeping the service and its stars', async () => {
    await call(cast.teamMember, 'PUT', `/api/users/${cast.teamMember.handle}/starred/cart`);
    const id = (await service('cart')).id;
    const files = shopFiles(['till']).map((f) =>
      f.path === 'services.yaml'
        ? {
            ...f,
            content: `${f.content}---\n${component('trolley', 'shop').replace(
              'metadata:\n  name: trolley',
              'metadata:\n  name: trolley\n  annotations:\n    beacon.io/previous-names: cart',
            )}`,
          }
        : f,
    );
    const answer = await plan(cast.admin, files, 'shop-repo');
    expect(changeOf(answer, 'service', 'trolley')).toMatchObject({
      action: 'update',
      diff: expect.arrayContaining([{ field: 'handle', from: 'cart', to: 'trolley' }]),
    });
    expect(changeOf(answer, 'service', 'cart')).toBeUndefined();
    await apply(cast.admin, answer.id);
    const trolley = json<Service>(await call(cast.teamMember, 'GET', '/api/services/trolley'));
    expect(trolley).toMatchObject({ id, starred: true, managed_by: { source: 'shop-repo' } });
  });

  it('orphans what its files stop describing, removes it after the grace, and lets a file claim it back', async () => {
    const keep = shopFiles(['trolley']);
    const answer = await plan(cast.admin, keep, 'shop-repo');
    expect(changeOf(answer, 'service', 'till')).toMatchObject({ action: 'delete' });
    await apply(cast.admin, answer.id);
    expect((await call(cast.admin, 'GET', '/api/services/till')).statusCode).toBe(200);
    const orphans = json<CatalogEntity[]>(await call(cast.admin, 'GET', '/api/catalog/entities?state=orphaned'));
    expect(orphans).toEqual([expect.objectContaining({ handle: 'till', removed_at: expect.any(String) })]);

    // Claimed again before the grace passed: synced, and kept.
    const back = await plan(cast.admin, shopFiles(['trolley', 'till']), 'shop-repo');
    expect(changeOf(back, 'service', 'till')).toMatchObject({ action: 'unchanged' });
    await apply(cast.admin, back.id);
    expect(json<CatalogEntity[]>(await call(cast.admin, 'GET', '/api/catalog/entities?state=orphaned'))).toEqual([]);

    await apply(cast.admin, (await plan(cast.admin, keep, 'shop-repo')).id);
    expect(await removeExpiredOrphans(server.ctx)).toBe(0);
    const removed = await atTime(server, Date.now() + 73 * 3_600_000, () => removeExpiredOrphans(server.ctx));
    expect(removed).toBe(1);
    expect((await call(cast.admin, 'GET', '/api/services/till')).statusCode).toBe(404);
  });

  it('a seed source creates once, then leaves the entity to the UI', async () => {
    await call(cast.admin, 'POST', '/api/catalog/sources', { name: 'seed', mode: 'seed' });
    const files = [{ path: 'seed.yaml', content: component('seedling', 'shop') }];
    await apply(cast.admin, (await plan(cast.admin, files, 'seed')).id);
    expect((await service('seedling')).managed_by).toBeNull();
    expect((await call(cast.admin, 'PATCH', '/api/services/seedling', { name: 'Grown' })).statusCode).toBe(200);
    const again = await plan(cast.admin, files, 'seed');
    expect(changeOf(again, 'service', 'seedling')).toMatchObject({ action: 'unchanged' });
  });

  it('keeps a team’s members to those its file names, never removing its admins', async () => {
    await addToTeam(server, cast.admin, 'shop', cast.teamAdmin, 'admin');
    const files = shopFiles(['cart', 'basket']).map((f) =>
      f.path === 'teams.yaml' ? { ...f, content: f.content.replace('[bob, nobody-here]', '[]') } : f,
    );
    const answer = await plan(cast.admin, files, 'shop-repo');
    expect(changeOf(answer, 'team', 'shop')).toMatchObject({
      action: 'update',
      diff: [{ field: 'members', from: ['alice', 'bob'], to: ['alice'] }],
    });
    await apply(cast.admin, answer.id);
    const members = json<Array<{ user: { handle: string }; role: string }>>(
      await call(cast.admin, 'GET', '/api/teams/shop/members'),
    );
    expect(members.map((m) => [m.user.handle, m.role])).toEqual([['alice', 'admin']]);
    // A file that names no members leaves them to the UI.
    const silent = files.map((f) =>
      f.path === 'teams.yaml' ? { ...f, content: f.content.replace('  members: []\n', '') } : f,
    );
    expect(changeOf(await plan(cast.admin, silent, 'shop-repo'), 'team', 'shop')?.action).toBe('unchanged');
  });

  it('syncs an upload source again on demand, and deleting the source hands its entities to Beacon', async () => {
    const synced = await call(cast.admin, 'POST', `/api/catalog/sources/${source.id}/actions/sync`);
    expect(synced.statusCode).toBe(200);
    expect(json<CatalogSource>(synced).last_sync).toMatchObject({ status: 'ok' });
    expect((await call(cast.admin, 'DELETE', '/api/catalog/sources/shop-repo')).statusCode).toBe(204);
    expect((await service('trolley')).managed_by).toBeNull();
    expect((await call(cast.admin, 'PATCH', '/api/services/trolley', { name: 'Cart' })).statusCode).toBe(200);
  });
});

describe('annotations and APIs', () => {
  const openapi = (version: string) => `openapi: 3.0.3
info:
  title: Ledger API
  version: ${version}
paths:
  /entries:
    get:
      operationId: listEntries
      responses:
        '200':
          description: The entries
`;
  const indent = (text: string, by: string) =>
    text
      .split('\n')
      .map((line) => (line ? `${by}${line}` : line))
      .join('\n');
  const files = (version: string, definitionPath = './ledger-api.yaml', url = 'https://ledger.example.com/health') => [
    {
      path: 'catalog-info.yaml',
      content: `${group('finance', 'Finance')}---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: ledger
  annotations:
    beacon.io/health-check-url: ${url}
    beacon.io/slo: 99.5% 28d
    beacon.io/slack-channel: "#ledger-alerts"
spec:
  type: service
  lifecycle: production
  owner: finance
  providesApis: [ledger-api, missing-api]
---
apiVersion: backstage.io/v1alpha1
kind: API
metadata:
  name: ledger-api
  title: Ledger API
spec:
  type: openapi
  lifecycle: production
  owner: finance
  definition:
    $text: ${definitionPath}
---
apiVersion: backstage.io/v1alpha1
kind: API
metadata:
  name: inline-api
spec:
  type: openapi
  owner: finance
  definition: |
${indent(openapi('0.1.0'), '    ')}`,
    },
    { path: 'ledger-api.yaml', content: openapi(version) },
    { path: 'broken.yaml', content: 'openapi: 3.0.3\ninfo: {}\n' },
  ];

  it('sets the health check, SLO and Slack channel, and publishes the APIs as spec pages of their services', async () => {
    const answer = await plan(cast.admin, files('1.0.0'));
    expect(changeOf(answer, 'service', 'ledger')).toMatchObject({
      action: 'create',
      unresolved: ['api:missing-api'],
      diff: expect.arrayContaining([
        { field: 'health_check_url', from: null, to: 'https://ledger.example.com/health' },
        { field: 'slo', from: null, to: '99.5% 28d' },
        { field: 'slack_channel', from: null, to: 'ledger-alerts' },
      ]),
    });
    expect(changeOf(answer, 'api', 'ledger-api')).toMatchObject({
      action: 'create',
      diff: expect.arrayContaining([{ field: 'services', from: [], to: ['ledger'] }]),
    });
    expect(changeOf(answer, 'api', 'inline-api')).toMatchObject({ action: 'skipped' });
    await apply(cast.admin, answer.id);

    const checks = json<Array<{ name: string; endpoint: string; kind: string }>>(
      await call(cast.admin, 'GET', '/api/services/ledger/health-checks'),
    );
    expect(checks).toEqual([
      expect.objectContaining({
        name: 'Health check URL',
        kind: 'http',
        endpoint: 'https://ledger.example.com/health',
      }),
    ]);
    expect(json(await call(cast.admin, 'GET', '/api/services/ledger/slo'))).toMatchObject({
      target: 99.5,
      window_days: 28,
    });
    expect(json(await call(cast.admin, 'GET', '/api/services/ledger/channels'))).toEqual([
      expect.objectContaining({ provider: 'slack', slack_channel: { id: 'ledger-alerts' } }),
    ]);
    const specs = json<Array<{ handle: string; title: string; id: string }>>(
      await call(cast.teamMember, 'GET', '/api/services/ledger/open-api-specs'),
    );
    expect(specs).toEqual([expect.objectContaining({ handle: 'ledger-api', title: 'Ledger API' })]);
    const page = json<{ content: string }>(await call(cast.teamMember, 'GET', `/api/open-api-specs/${specs[0]!.id}`));
    expect(page.content).toBe(openapi('1.0.0'));

    // The same files again: nothing to do.
    const again = await plan(cast.admin, files('1.0.0'));
    expect(changeOf(again, 'service', 'ledger')?.action).toBe('unchanged');
    expect(changeOf(again, 'api', 'ledger-api')?.action).toBe('unchanged');
    // The exported workspace plans to no change either, the API and annotations included.
    const { files: exported } = json<{ files: Array<{ path: string; content: string }> }>(
      await call(cast.admin, 'GET', '/api/catalog/export'),
    );
    expect(exported.find((f) => f.path === 'apis/ledger-api.yaml')?.content).toContain('Ledger API');
    const reexport = await plan(cast.admin, exported);
    expect(reexport.counts).toMatchObject({ create: 0, update: 0, delete: 0, conflict: 0, error: 0 });
  });

  it('updates the page as a new revision and the check in place; refuses a definition that is not OpenAPI', async () => {
    const answer = await plan(cast.admin, files('1.1.0', './ledger-api.yaml', 'https://ledger.example.com/ready'));
    expect(changeOf(answer, 'service', 'ledger')).toMatchObject({
      action: 'update',
      diff: [
        {
          field: 'health_check_url',
          from: 'https://ledger.example.com/health',
          to: 'https://ledger.example.com/ready',
        },
      ],
    });
    const api = changeOf(answer, 'api', 'ledger-api');
    expect(api?.action).toBe('update');
    expect(api?.diff?.map((d) => d.field)).toEqual(['definition']);
    await apply(cast.admin, answer.id);
    const checks = json<Array<{ endpoint: string }>>(
      await call(cast.admin, 'GET', '/api/services/ledger/health-checks'),
    );
    expect(checks.map((c) => c.endpoint)).toEqual(['https://ledger.example.com/ready']);
    const drafts = json<Array<{ handle: string; revisions: number; is_published: boolean }>>(
      await call(cast.admin, 'GET', '/api/services/ledger/draft-pages?section=open-api-specs'),
    );
    expect(drafts).toEqual([expect.objectContaining({ handle: 'ledger-api', revisions: 2, is_published: true })]);

    const broken = await plan(cast.admin, files('1.1.0', './broken.yaml'));
    expect(changeOf(broken, 'api', 'ledger-api')).toMatchObject({
      action: 'error',
      errors: [
        expect.objectContaining({ message: expect.stringMatching(/^The definition is not a valid OpenAPI document/) }),
      ],
    });
    // The service keeps the API's last good page; the unknown API stays unresolved.
    expect(changeOf(broken, 'service', 'ledger')?.unresolved).toEqual(['api:ledger-api', 'api:missing-api']);
  });

  it('keeps what the annotations of an authoritative file decide read-only, and the rest the UI’s', async () => {
    await call(cast.admin, 'POST', '/api/catalog/sources', { name: 'vault-repo' });
    const vault = `${group('vaults', 'Vaults')}---
${component('vault', 'vaults').replace('  name: vault\n', '  name: vault\n  annotations:\n    beacon.io/slo: 99.9% 30d\n    beacon.io/slack-channel: vault\n    beacon.io/health-check-url: https://vault.example.com/health\n')}---
${component('safe', 'vaults')}`;
    await apply(cast.admin, (await plan(cast.admin, [{ path: 'vault.yaml', content: vault }], 'vault-repo')).id);
    expect((await service('vault')).managed_by?.settings).toEqual(['health_check_url', 'slo', 'slack_channel']);

    const slo = await call(cast.admin, 'PUT', '/api/services/vault/slo', { target: 99, window_days: 7 });
    expect(slo.statusCode).toBe(409);
    expect(json<{ message: string }>(slo).message).toContain('managed in vault-repo (vault.yaml:');
    expect((await call(cast.admin, 'DELETE', '/api/services/vault/slo')).statusCode).toBe(409);
    expect(
      (await call(cast.admin, 'PATCH', '/api/services/vault/channels/slack', { channel: 'other' })).statusCode,
    ).toBe(409);
    const [check] = json<Array<Record<string, unknown> & { id: string }>>(
      await call(cast.admin, 'GET', '/api/services/vault/health-checks'),
    );
    const body = {
      name: check!.name,
      endpoint: 'https://vault.example.com/other',
      frequency: check!.frequency,
      timeout: check!.timeout,
      allowed_failures: check!.allowed_failures,
      importance: check!.importance,
      disabled: false,
      paused: false,
    };
    expect((await call(cast.admin, 'PATCH', `/api/health-checks/${check!.id}`, body)).statusCode).toBe(409);
    const paused = { ...body, endpoint: 'https://vault.example.com/health', paused: true };
    expect((await call(cast.admin, 'PATCH', `/api/health-checks/${check!.id}`, paused)).statusCode).toBe(200);
    // A managed service whose file sets no SLO: the SLO is the UI's.
    expect((await call(cast.admin, 'PUT', '/api/services/safe/slo', { target: 99, window_days: 7 })).statusCode).toBe(
      200,
    );
    expect((await service('safe')).managed_by?.settings).toEqual([]);
  });
});
