import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileRef, Service, Team } from '../../src/contract/catalogue.js';
import { SERVICES_PAGE_SIZE } from '../../src/domain/catalogue.js';
import { insertService } from '../../src/server/db/repositories/services.js';
import { addMember, createTeam, seedWorkspace } from '../support/fixtures.js';
import { multipart, tinyPng } from '../support/images.js';
import {
  authHeaders,
  hostOf,
  json,
  startTestServer,
  type Member,
  type TestServer,
  callAs,
  type Method,
} from '../support/server.js';

let server: TestServer;
let owner: Member;
let admin: Member;
/** Admin of team payments. */
let alice: Member;
/** Member of team payments. */
let bob: Member;
/** Member of team search only. */
let carol: Member;
let guest: Member;
let outsider: Member;
let foreignTeamId: string;

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);
const get = (actor: Member, url: string) => call(actor, 'GET', url);
const handles = (response: { json(): unknown }) => (response.json() as Array<{ handle: string }>).map((s) => s.handle);

beforeAll(async () => {
  server = await startTestServer();
  const seeded = await seedWorkspace(server, { domain: 'svcco' });
  ({ owner, admin, teamAdmin: alice, teamMember: bob, guest, outsider } = seeded);
  carol = await addMember(server, owner, 'carol');
  await createTeam(server, carol, { name: 'Search', handle: 'search' });
  foreignTeamId = (await createTeam(server, outsider, { name: 'Foreign', handle: 'foreign' })).id;
  // Team members create services only where the team's policy lets them (team-policies.test.ts).
  await call(alice, 'PATCH', '/api/teams/payments/policies', { members_create_services: true });
});
afterAll(() => server.close());

describe('POST /api/teams/{team}/services', () => {
  it('lets a team member create a service (the team lets members) with the defaults a new service gets', async () => {
    const response = await call(bob, 'POST', '/api/teams/payments/services', {
      name: 'Billing API',
      handle: 'billing',
    });
    expect(response.statusCode).toBe(201);
    const service = json<Service>(response);
    expect(service).toMatchObject({
      handle: 'billing',
      name: 'Billing API',
      description: null,
      thumbnail_url: null,
      links: [],
      health: 'good',
      visibility: 'workspace',
      stage: 'development',
      starred: false,
      starred_count: 0,
      owner: { handle: 'payments', name: 'Payments', thumbnail_url: null },
      permissions: { edit: true },
    });
    expect(service.created_at).toBe(service.updated_at);
  });

  it('lets workspace admins create for any team; refuses other teams’ members and guests with 403', async () => {
    expect(
      (await call(admin, 'POST', '/api/teams/payments/services', { name: 'Ledger', handle: 'ledger' })).statusCode,
    ).toBe(201);
    expect(
      (await call(carol, 'POST', '/api/teams/payments/services', { name: 'X', handle: 'carol-x' })).statusCode,
    ).toBe(403);
    expect((await call(guest, 'POST', '/api/teams/payments/services', { name: 'X', handle: 'gus-x' })).statusCode).toBe(
      403,
    );
    expect((await get(owner, '/api/services/carol-x')).statusCode).toBe(404);
  });

  it('refuses a taken handle (409), an invalid handle (400), unknown fields and unknown teams', async () => {
    const taken = await call(carol, 'POST', '/api/teams/search/services', { name: 'Billing', handle: 'billing' });
    expect(taken.statusCode).toBe(409);
    expect(json(taken)).toEqual({
      message: 'Service handle is already taken',
      errors: { handle: ['Service handle is already taken'] },
    });
    const invalid = await call(carol, 'POST', '/api/teams/search/services', { name: 'Bad', handle: 'Bad Handle' });
    expect(invalid.statusCode).toBe(400);
    expect(json(invalid)).toMatchObject({ errors: { handle: [expect.any(String)] } });
    const unknown = await call(carol, 'POST', '/api/teams/search/services', {
      name: 'S',
      handle: 'idx',
      health: 'error',
    });
    expect(json(unknown)).toMatchObject({ errors: { health: ['Unknown field'] } });
    expect((await call(carol, 'POST', '/api/teams/nope/services', { name: 'S', handle: 'idx' })).statusCode).toBe(404);
    expect(
      (await call(outsider, 'POST', '/api/teams/payments/services', { name: 'S', handle: 'idx' })).statusCode,
    ).toBe(404);
    // The same handle in another workspace is fine.
    expect(
      (await call(outsider, 'POST', '/api/teams/foreign/services', { name: 'B', handle: 'billing' })).statusCode,
    ).toBe(201);
  });
});

describe('GET /api/services/{service}', () => {
  it('reads a service by handle or id, with the viewer’s edit permission', async () => {
    const byHandle = json<Service>(await get(carol, '/api/services/billing'));
    expect(byHandle.permissions).toEqual({ edit: false });
    expect(json(await get(carol, `/api/services/${byHandle.id}`))).toMatchObject({ handle: 'billing' });
    expect(json(await get(admin, '/api/services/billing'))).toMatchObject({ permissions: { edit: true } });
    expect(json(await get(guest, '/api/services/billing'))).toMatchObject({ permissions: { edit: false } });
    const missing = await get(carol, '/api/services/nope');
    expect(missing.statusCode).toBe(404);
    expect(json(missing)).toEqual({ message: 'The service was not found' });
    expect((await get(outsider, `/api/services/${byHandle.id}`)).statusCode).toBe(404);
  });
});

describe('PATCH /api/services/{service}', () => {
  it('lets editors change name, description and links; others get 403', async () => {
    const links = [{ name: 'Runbook', url: 'https://wiki.example/billing' }];
    const updated = await call(bob, 'PATCH', '/api/services/billing', { description: 'Charges cards', links });
    expect(updated.statusCode).toBe(200);
    const service = json<Service>(updated);
    expect(service).toMatchObject({ name: 'Billing API', description: 'Charges cards', links });
    expect(service.updated_at >= service.created_at).toBe(true);
    expect(json(await call(admin, 'PATCH', '/api/services/billing', { name: 'Billing' }))).toMatchObject({
      name: 'Billing',
      links,
    });
    expect((await call(carol, 'PATCH', '/api/services/billing', { name: 'Mine' })).statusCode).toBe(403);
    expect((await call(guest, 'PATCH', '/api/services/billing', { name: 'Mine' })).statusCode).toBe(403);
    const badLink = await call(bob, 'PATCH', '/api/services/billing', { links: [{ name: 'x', url: 'javascript:1' }] });
    expect(badLink.statusCode).toBe(400);
    expect((await call(bob, 'PATCH', '/api/services/billing', { handle: 'b2' })).statusCode).toBe(400);
    expect((await call(bob, 'PATCH', '/api/services/nope', { name: 'N' })).statusCode).toBe(404);
    expect(json(await get(carol, '/api/services/billing'))).toMatchObject({ name: 'Billing', links });
  });
});

describe('state changes', () => {
  it('changes health, visibility and stage for editors, each returning the service', async () => {
    const health = await call(bob, 'POST', '/api/services/billing/actions/change-health', { health: 'warning' });
    expect(json(health)).toMatchObject({ handle: 'billing', health: 'warning' });
    const stage = await call(alice, 'POST', '/api/services/billing/actions/change-stage', { stage: 'eol' });
    expect(json(stage)).toMatchObject({ stage: 'eol', health: 'warning' });
    const visibility = await call(admin, 'POST', '/api/services/billing/actions/change-visibility', {
      visibility: 'public',
    });
    expect(json(visibility)).toMatchObject({ visibility: 'public', stage: 'eol' });
    for (const [action, payload] of [
      ['change-health', { health: 'critical' }],
      ['change-stage', { stage: 'live' }],
      ['change-visibility', { visibility: 'owner' }],
    ] as const) {
      expect((await call(carol, 'POST', `/api/services/billing/actions/${action}`, payload)).statusCode).toBe(403);
      expect((await call(guest, 'POST', `/api/services/billing/actions/${action}`, payload)).statusCode).toBe(403);
    }
    expect(
      (await call(bob, 'POST', '/api/services/billing/actions/change-health', { health: 'broken' })).statusCode,
    ).toBe(400);
    expect(
      (await call(bob, 'POST', '/api/services/billing/actions/change-stage', { stage: 'End of Life' })).statusCode,
    ).toBe(400);
    expect(
      (await call(bob, 'POST', '/api/services/billing/actions/change-visibility', { visibility: 'owner', x: 1 }))
        .statusCode,
    ).toBe(400);
    expect(json(await get(carol, '/api/services/billing'))).toMatchObject({
      health: 'warning',
      stage: 'eol',
      visibility: 'public',
    });
  });
});

describe('owner-only services', () => {
  it('are visible to the owning team and workspace admins only; a 404 for everyone else', async () => {
    await call(bob, 'POST', '/api/teams/payments/services', { name: 'Fraud Engine', handle: 'fraud' });
    const hidden = await call(bob, 'POST', '/api/services/fraud/actions/change-visibility', { visibility: 'owner' });
    const id = json<Service>(hidden).id;
    for (const viewer of [alice, bob, admin, owner]) {
      expect((await get(viewer, '/api/services/fraud')).statusCode).toBe(200);
      expect(handles(await get(viewer, '/api/search/services?q=fraud'))).toEqual(['fraud']);
    }
    for (const viewer of [carol, guest]) {
      const byHandle = await get(viewer, '/api/services/fraud');
      expect(byHandle.statusCode).toBe(404);
      expect(byHandle.body).not.toContain('Fraud');
      expect((await get(viewer, `/api/services/${id}`)).statusCode).toBe(404);
      // Hidden services cannot be written to either, and answer as missing.
      expect((await call(viewer, 'PATCH', '/api/services/fraud', { name: 'X' })).statusCode).toBe(404);
      expect((await call(viewer, 'DELETE', '/api/services/fraud')).statusCode).toBe(404);
      const search = await get(viewer, '/api/search/services?q=fraud');
      expect([search.headers.total, json(search)]).toEqual(['0', []]);
      expect(json(await get(viewer, '/api/autocomplete/services?q=fraud'))).toEqual([]);
      const teamList = await get(viewer, '/api/teams/payments/services');
      expect(handles(teamList)).toEqual(['billing', 'ledger']);
      expect(teamList.headers.total).toBe('2');
    }
    const teamList = await get(bob, '/api/teams/payments/services');
    expect(handles(teamList)).toEqual(['billing', 'fraud', 'ledger']);
    expect(teamList.headers.total).toBe('3');
  });

  it('becomes visible to a user who joins the owning team', async () => {
    expect((await get(carol, '/api/services/fraud')).statusCode).toBe(404);
    await call(alice, 'POST', '/api/teams/payments/members', { user: { id: 'carol' } });
    expect(json(await get(carol, '/api/services/fraud'))).toMatchObject({ permissions: { edit: true } });
    await call(alice, 'DELETE', '/api/teams/payments/members/carol');
    expect((await get(carol, '/api/services/fraud')).statusCode).toBe(404);
  });
});

describe('POST /api/services/{service}/actions/reparent', () => {
  it('moves a service to another team of the workspace, by handle or id', async () => {
    const moved = await call(bob, 'POST', '/api/services/ledger/actions/reparent', { owner: { id: 'search' } });
    expect(moved.statusCode).toBe(200);
    expect(json(moved)).toMatchObject({ owner: { handle: 'search' }, permissions: { edit: false } });
    // Now carol's team owns it, and bob may no longer edit it.
    expect((await call(bob, 'PATCH', '/api/services/ledger', { name: 'L' })).statusCode).toBe(403);
    const searchId = json<Service>(moved).owner.id;
    const paymentsId = json<Team>(await get(carol, '/api/teams/payments')).id;
    const back = await call(carol, 'POST', '/api/services/ledger/actions/reparent', { owner: { id: paymentsId } });
    expect(json(back)).toMatchObject({ owner: { id: paymentsId, handle: 'payments' } });
    expect(
      json(await call(bob, 'POST', '/api/services/ledger/actions/reparent', { owner: { id: 'payments' } })),
    ).toMatchObject({ owner: { handle: 'payments' } });
    expect(searchId).not.toBe(paymentsId);
  });

  it('refuses teams of other workspaces and unknown teams with 400 on owner.id, and non-editors with 403', async () => {
    for (const id of [foreignTeamId, 'foreign', 'nope']) {
      const response = await call(bob, 'POST', '/api/services/ledger/actions/reparent', { owner: { id } });
      expect(response.statusCode, id).toBe(400);
      expect(json(response)).toMatchObject({ errors: { 'owner.id': ['Team not found'] } });
    }
    expect(
      (await call(carol, 'POST', '/api/services/ledger/actions/reparent', { owner: { id: 'search' } })).statusCode,
    ).toBe(403);
    expect(
      (await call(guest, 'POST', '/api/services/ledger/actions/reparent', { owner: { id: 'search' } })).statusCode,
    ).toBe(403);
    expect((await call(bob, 'POST', '/api/services/ledger/actions/reparent', { owner: 'search' })).statusCode).toBe(
      400,
    );
    expect(json(await get(bob, '/api/services/ledger'))).toMatchObject({ owner: { handle: 'payments' } });
  });

  it('answers an editor who moves an owner-only service out of their reach', async () => {
    await call(bob, 'POST', '/api/teams/payments/services', { name: 'Vault', handle: 'vault' });
    await call(bob, 'POST', '/api/services/vault/actions/change-visibility', { visibility: 'owner' });
    const moved = await call(bob, 'POST', '/api/services/vault/actions/reparent', { owner: { id: 'search' } });
    expect(json(moved)).toMatchObject({ handle: 'vault', owner: { handle: 'search' }, permissions: { edit: false } });
    expect((await get(bob, '/api/services/vault')).statusCode).toBe(404);
    expect((await get(carol, '/api/services/vault')).statusCode).toBe(200);
    expect((await call(carol, 'DELETE', '/api/services/vault')).statusCode).toBe(204);
  });
});

describe('service photos', () => {
  const upload = (actor: Member, data: Buffer) => {
    const body = multipart('icon', 'photo.png', 'image/png', data);
    return server.app.inject({
      method: 'POST',
      url: '/api/services/billing/icon',
      headers: { ...authHeaders(actor), ...body.headers },
      payload: body.payload,
    });
  };

  it('lets editors upload and clear the photo; images only', async () => {
    const uploaded = await upload(bob, tinyPng());
    expect(uploaded.statusCode).toBe(200);
    const url = json<Service>(uploaded).thumbnail_url!;
    expect(url).toMatch(/^\/api\/assets\/[\w-]+$/);
    expect((await get(carol, url)).statusCode).toBe(200);
    expect((await upload(carol, tinyPng())).statusCode).toBe(403);
    expect((await upload(bob, Buffer.from('plain text, not an image'))).statusCode).toBe(400);
    expect((await call(carol, 'DELETE', '/api/services/billing/icon')).statusCode).toBe(403);
    expect(json(await call(bob, 'DELETE', '/api/services/billing/icon'))).toMatchObject({ thumbnail_url: null });
    expect((await get(carol, url)).statusCode).toBe(404);
  });
});

describe('DELETE /api/services/{service}', () => {
  it('lets editors delete (204); others get 403; the handle is free again', async () => {
    await call(bob, 'POST', '/api/teams/payments/services', { name: 'Temp', handle: 'temp' });
    expect((await call(carol, 'DELETE', '/api/services/temp')).statusCode).toBe(403);
    expect((await call(guest, 'DELETE', '/api/services/temp')).statusCode).toBe(403);
    expect((await call(outsider, 'DELETE', '/api/services/temp')).statusCode).toBe(404);
    expect((await call(alice, 'DELETE', '/api/services/temp')).statusCode).toBe(204);
    expect((await get(alice, '/api/services/temp')).statusCode).toBe(404);
    expect((await call(alice, 'DELETE', '/api/services/temp')).statusCode).toBe(404);
    expect((await call(bob, 'POST', '/api/teams/payments/services', { name: 'Temp', handle: 'temp' })).statusCode).toBe(
      201,
    );
    expect((await call(admin, 'DELETE', '/api/services/temp')).statusCode).toBe(204);
  });
});

describe('GET /api/search/services and autocomplete', () => {
  it('pages by 36 by default, by name, with the total header; searches name, handle and description', async () => {
    const workspaceId = json<{ id: string }>(
      await server.app.inject({ method: 'GET', url: '/api/workspace', headers: { host: hostOf('svcco') } }),
    ).id;
    const searchTeamId = json<Team>(await get(carol, '/api/teams/search')).id;
    for (let i = 0; i < 40; i++) {
      const n = String(i).padStart(2, '0');
      const now = new Date().toISOString();
      await insertService(server.ctx.database.db, {
        id: `seed-service-${n}`,
        workspace_id: workspaceId,
        handle: `worker-${n}`,
        name: `Worker ${n}`,
        description: i === 33 ? 'Resizes thumbnails' : null,
        icon_asset_id: null,
        owner_team_id: searchTeamId,
        visibility: i % 10 === 9 ? 'owner' : 'workspace',
        stage: 'live',
        health: 'good',
        links: '[]',
        created_at: now,
        updated_at: now,
      });
    }
    // carol (team search) sees all 40 workers and billing and ledger; bob does not see the 4 owner-only ones,
    // but sees fraud (his team's).
    const first = await get(carol, '/api/search/services');
    expect(first.headers.total).toBe('42');
    expect(json<unknown[]>(first)).toHaveLength(SERVICES_PAGE_SIZE);
    expect(handles(first).slice(0, 3)).toEqual(['billing', 'ledger', 'worker-00']);
    const rest = await get(carol, '/api/search/services?cursor=36');
    expect(handles(rest)).toEqual(['worker-34', 'worker-35', 'worker-36', 'worker-37', 'worker-38', 'worker-39']);
    expect((await get(bob, '/api/search/services?limit=5')).headers.total).toBe('39');
    expect((await get(guest, '/api/search/services?limit=5')).headers.total).toBe('38');
    expect((await get(admin, '/api/search/services?limit=5')).headers.total).toBe('43');
    expect((await get(carol, '/api/search/services?cursor=100')).headers.total).toBe('42');

    const searched = await get(carol, '/api/search/services?q=worker%201&limit=3');
    expect(searched.headers.total).toBe('10');
    expect(handles(searched)).toEqual(['worker-10', 'worker-11', 'worker-12']);
    expect(handles(await get(bob, '/api/search/services?q=worker%201'))).not.toContain('worker-19');
    expect(handles(await get(bob, '/api/search/services?q=THUMBNAILS'))).toEqual(['worker-33']);
    expect((await get(bob, '/api/search/services?q=_')).headers.total).toBe('0');
    // Terms shorter than a trigram are counted another way on SQLite (migration 034): the same visibility holds.
    const short = await get(bob, '/api/search/services?q=3&limit=2');
    expect([short.headers.total, handles(short)]).toEqual(['12', ['worker-03', 'worker-13']]);
    expect((await get(carol, '/api/search/services?q=3&limit=2')).headers.total).toBe('13');
    expect((await get(admin, '/api/search/services?q=9')).headers.total).toBe('4');
    expect((await get(bob, '/api/search/services?q=9')).headers.total).toBe('0');
    expect((await get(bob, '/api/search/services?limit=101')).statusCode).toBe(400);
    expect((await get(bob, '/api/search/services?owner=search')).statusCode).toBe(400);
  });

  it('marks the services the viewer starred', async () => {
    await call(bob, 'PUT', '/api/users/bob/starred/worker-01');
    const page = json<Service[]>(await get(bob, '/api/search/services?q=worker-0&limit=3'));
    expect(page.map((s) => [s.handle, s.starred, s.starred_count])).toEqual([
      ['worker-00', false, 0],
      ['worker-01', true, 1],
      ['worker-02', false, 0],
    ]);
    const carolsView = json<Service[]>(await get(carol, '/api/search/services?q=worker-01'));
    expect(carolsView).toMatchObject([{ starred: false, starred_count: 1 }]);
  });

  it('autocompletes visible services (at most 10 references)', async () => {
    const found = json<ProfileRef[]>(await get(bob, '/api/autocomplete/services?q=worker'));
    expect(found).toHaveLength(10);
    expect(found[0]).toEqual({ id: 'seed-service-00', handle: 'worker-00', name: 'Worker 00', thumbnail_url: null });
    expect(json<ProfileRef[]>(await get(bob, '/api/autocomplete/services?q=worker-09'))).toEqual([]);
    expect(json<ProfileRef[]>(await get(carol, '/api/autocomplete/services?q=worker-09'))).toHaveLength(1);
  });
});
