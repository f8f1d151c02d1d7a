import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member as TeamMember, Team } from '../../src/contract/catalogue.js';
import { TEAM_NOT_EMPTY } from '../../src/domain/catalogue.js';
import { insertMember, insertTeam } from '../../src/server/db/repositories/teams.js';
import { seedWorkspace } from '../support/fixtures.js';
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
let alice: Member;
let bob: Member;
let guest: Member;
let outsider: Member;

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);
const get = (actor: Member, url: string) => call(actor, 'GET', url);

beforeAll(async () => {
  server = await startTestServer({ BEACON_MAX_UPLOAD_BYTES: '4096' });
  // No team yet: creating one is what this file tests.
  const seeded = await seedWorkspace(server, { domain: 'teamco', team: null });
  ({ owner, admin, teamAdmin: alice, teamMember: bob, guest, outsider } = seeded);
});
afterAll(() => server.close());

describe('POST /api/teams', () => {
  it('creates a team whose creator is its admin', async () => {
    const response = await call(alice, 'POST', '/api/teams', { name: 'Platform', handle: 'platform' });
    expect(response.statusCode).toBe(201);
    expect(json(response)).toMatchObject({
      handle: 'platform',
      name: 'Platform',
      description: null,
      thumbnail_url: null,
      parent: null,
      is_admin: true,
      is_member: true,
      members: [{ id: alice.id, name: 'User alice', thumbnail_url: null }],
      member_count: 1,
    });
  });

  it('refuses a taken handle (409), an invalid handle (400) and unknown fields', async () => {
    const taken = await call(bob, 'POST', '/api/teams', { name: 'Again', handle: 'platform' });
    expect(taken.statusCode).toBe(409);
    expect(json(taken)).toEqual({
      message: 'Service handle is already taken',
      errors: { handle: ['Service handle is already taken'] },
    });
    for (const handle of ['Platform2', 'no_underscores', 'ab', 'double--hyphen', '-edge']) {
      const invalid = await call(bob, 'POST', '/api/teams', { name: 'Bad', handle });
      expect(invalid.statusCode, handle).toBe(400);
      expect(json(invalid), handle).toMatchObject({ errors: { handle: [expect.any(String)] } });
    }
    expect((await call(bob, 'POST', '/api/teams', { name: '  ', handle: 'blank-name' })).statusCode).toBe(400);
    const unknown = await call(bob, 'POST', '/api/teams', { name: 'X', handle: 'xteam', parent_id: 'p' });
    expect(unknown.statusCode).toBe(400);
    expect(json(unknown)).toMatchObject({ errors: { parent_id: ['Unknown field'] } });
  });

  it('gives a handle to one of two concurrent creators; the other gets 409', async () => {
    const [first, second] = await Promise.all([
      call(alice, 'POST', '/api/teams', { name: 'Race A', handle: 'race' }),
      call(bob, 'POST', '/api/teams', { name: 'Race B', handle: 'race' }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([201, 409]);
    const winner = first.statusCode === 201 ? alice : bob;
    expect(json(await get(owner, '/api/team/race'))).toMatchObject({ member_count: 1, members: [{ id: winner.id }] });
    expect((await call(winner, 'DELETE', '/api/teams/race')).statusCode).toBe(204);
  });

  it('refuses guests with 403', async () => {
    expect((await call(guest, 'POST', '/api/teams', { name: 'Guests', handle: 'guests' })).statusCode).toBe(403);
    expect((await get(owner, '/api/team/guests')).statusCode).toBe(404);
  });
});

describe('GET /api/teams/{team} and /api/team/{handle}', () => {
  it('reads a team by handle or id with the viewer’s rights', async () => {
    const byHandle = json<Team>(await get(bob, '/api/teams/platform'));
    expect(byHandle).toMatchObject({ handle: 'platform', is_admin: false, is_member: false, member_count: 1 });
    expect(json(await get(bob, `/api/teams/${byHandle.id}`))).toMatchObject({ handle: 'platform' });
    // Workspace admins and owners have team-admin rights on every team (docs/decisions.md#roles-and-visibility).
    expect(json(await get(admin, '/api/teams/platform'))).toMatchObject({ is_admin: true, is_member: true });
    expect(json(await get(owner, '/api/teams/platform'))).toMatchObject({ is_admin: true });
    expect(json(await get(guest, '/api/teams/platform'))).toMatchObject({ is_admin: false, is_member: false });
    expect((await get(bob, '/api/teams/nope')).statusCode).toBe(404);
  });

  it('answers the create form’s handle check: 200 when taken, 404 when free', async () => {
    expect(json(await get(bob, '/api/team/platform'))).toMatchObject({ handle: 'platform' });
    const free = await get(bob, '/api/team/free-handle');
    expect(free.statusCode).toBe(404);
    expect(json(free)).toEqual({ message: 'The team was not found' });
  });

  it('never shows a team to another workspace', async () => {
    const id = json<Team>(await get(bob, '/api/teams/platform')).id;
    expect((await get(outsider, '/api/teams/platform')).statusCode).toBe(404);
    expect((await get(outsider, `/api/teams/${id}`)).statusCode).toBe(404);
    expect((await get(outsider, '/api/team/platform')).statusCode).toBe(404);
  });
});

describe('PATCH /api/teams/{team}', () => {
  it('lets the team admin and workspace admins edit; others get 403', async () => {
    const updated = await call(alice, 'PATCH', '/api/teams/platform', { description: 'Runs the platform' });
    expect(updated.statusCode).toBe(200);
    expect(json(updated)).toMatchObject({ name: 'Platform', description: 'Runs the platform' });
    expect(json(await call(admin, 'PATCH', '/api/teams/platform', { name: 'Platform Team' }))).toMatchObject({
      name: 'Platform Team',
      description: 'Runs the platform',
    });
    expect((await call(bob, 'PATCH', '/api/teams/platform', { name: 'Mine' })).statusCode).toBe(403);
    expect((await call(guest, 'PATCH', '/api/teams/platform', { name: 'Mine' })).statusCode).toBe(403);
    expect((await call(alice, 'PATCH', '/api/teams/platform', { handle: 'plat' })).statusCode).toBe(400);
    expect((await call(alice, 'PATCH', '/api/teams/nope', { name: 'X' })).statusCode).toBe(404);
    expect(json(await call(alice, 'PATCH', '/api/teams/platform', { description: '  ' }))).toMatchObject({
      description: null,
    });
    expect(json(await get(bob, '/api/teams/platform'))).toMatchObject({ name: 'Platform Team', description: null });
  });
});

describe('team members', () => {
  const members = async (actor: Member, query = '') => {
    const response = await get(actor, `/api/teams/platform/members${query}`);
    return { total: response.headers.total, list: json<TeamMember[]>(response) };
  };

  it('lets the team admin add a workspace user by handle or id, once', async () => {
    const added = await call(alice, 'POST', '/api/teams/platform/members', { user: { id: 'bob' } });
    expect(added.statusCode).toBe(201);
    expect(json(added)).toEqual({
      user: { id: bob.id, handle: 'bob', name: 'User bob', thumbnail_url: null, description: null },
      role: 'member',
    });
    const again = await call(alice, 'POST', '/api/teams/platform/members', { user: { id: bob.id } });
    expect(again.statusCode).toBe(409);
    // The new member's rights change at once.
    expect(json(await get(bob, '/api/teams/platform'))).toMatchObject({ is_member: true, is_admin: false });
    const guestAdded = await call(admin, 'POST', '/api/teams/platform/members', { user: { id: guest.id } });
    expect(guestAdded.statusCode).toBe(201);
  });

  it('refuses users of other workspaces and unknown users (404), non-admins (403) and bad input (400)', async () => {
    expect((await call(alice, 'POST', '/api/teams/platform/members', { user: { id: outsider.id } })).statusCode).toBe(
      404,
    );
    expect((await call(alice, 'POST', '/api/teams/platform/members', { user: { id: 'nobody' } })).statusCode).toBe(404);
    expect((await call(bob, 'POST', '/api/teams/platform/members', { user: { id: 'ada' } })).statusCode).toBe(403);
    expect((await call(guest, 'POST', '/api/teams/platform/members', { user: { id: 'ada' } })).statusCode).toBe(403);
    const badRole = await call(alice, 'POST', '/api/teams/platform/members', { user: { id: 'ada' }, role: 'owner' });
    expect(badRole.statusCode).toBe(400);
    expect((await call(alice, 'POST', '/api/teams/platform/members', { user: 'ada' })).statusCode).toBe(400);
  });

  it('lists members by name, paged with the total header', async () => {
    const all = await members(bob);
    expect(all.total).toBe('3');
    expect(all.list.map((m) => [m.user.handle, m.role])).toEqual([
      ['alice', 'admin'],
      ['bob', 'member'],
      ['gus', 'member'],
    ]);
    const page = await members(bob, '?limit=1&cursor=1');
    expect(page.total).toBe('3');
    expect(page.list.map((m) => m.user.handle)).toEqual(['bob']);
    const past = await members(bob, '?limit=5&cursor=10');
    expect([past.total, past.list]).toEqual(['3', []]);
    expect((await get(bob, '/api/teams/platform/members?limit=0')).statusCode).toBe(400);
  });

  it('changes roles (team admin only; by id or handle) and keeps one admin', async () => {
    expect((await call(bob, 'PATCH', '/api/teams/platform/members/bob', { role: 'admin' })).statusCode).toBe(403);
    const last = await call(alice, 'PATCH', `/api/teams/platform/members/${alice.id}`, { role: 'member' });
    expect(last.statusCode).toBe(409);
    const promoted = await call(alice, 'PATCH', `/api/teams/platform/members/${bob.id}`, { role: 'admin' });
    expect(json(promoted)).toMatchObject({ user: { handle: 'bob' }, role: 'admin' });
    expect(json(await get(bob, '/api/teams/platform'))).toMatchObject({ is_admin: true });
    expect((await call(bob, 'PATCH', '/api/teams/platform/members/alice', { role: 'member' })).statusCode).toBe(200);
    expect(json(await get(alice, '/api/teams/platform'))).toMatchObject({ is_admin: false, is_member: true });
    expect((await call(bob, 'PATCH', '/api/teams/platform/members/ada', { role: 'member' })).statusCode).toBe(404);
    expect((await call(bob, 'PATCH', '/api/teams/platform/members/alice', { role: 'boss' })).statusCode).toBe(400);
    expect((await call(bob, 'PATCH', '/api/teams/platform/members/alice', {})).statusCode).toBe(400);
  });

  it('removes members (team admin, or the member leaving) but never the last admin', async () => {
    expect((await call(alice, 'DELETE', '/api/teams/platform/members/gus')).statusCode).toBe(403);
    expect((await call(guest, 'DELETE', '/api/teams/platform/members/gus')).statusCode).toBe(204);
    expect((await call(bob, 'DELETE', '/api/teams/platform/members/bob')).statusCode).toBe(409);
    expect((await call(bob, 'DELETE', '/api/teams/platform/members/alice')).statusCode).toBe(204);
    expect((await call(bob, 'DELETE', '/api/teams/platform/members/alice')).statusCode).toBe(404);
    expect(json(await get(alice, '/api/teams/platform'))).toMatchObject({ is_member: false, member_count: 1 });
    // Back to the starting point: alice admin, bob member.
    await call(bob, 'POST', '/api/teams/platform/members', { user: { id: 'alice' }, role: 'admin' });
    await call(alice, 'PATCH', '/api/teams/platform/members/bob', { role: 'member' });
    expect((await members(alice)).list.map((m) => [m.user.handle, m.role])).toEqual([
      ['alice', 'admin'],
      ['bob', 'member'],
    ]);
  });
});

describe('sub-teams', () => {
  it('lets a team admin create a sub-team under it, listed with the total header', async () => {
    const created = await call(alice, 'POST', '/api/teams/platform/teams', { name: 'Edge', handle: 'platform-edge' });
    expect(created.statusCode).toBe(201);
    expect(json(created)).toMatchObject({
      handle: 'platform-edge',
      parent: { handle: 'platform', name: 'Platform Team', thumbnail_url: null },
      is_admin: true,
      members: [{ id: alice.id }],
    });
    expect((await call(bob, 'POST', '/api/teams/platform/teams', { name: 'B', handle: 'bob-sub' })).statusCode).toBe(
      403,
    );
    expect((await call(guest, 'POST', '/api/teams/platform/teams', { name: 'G', handle: 'gus-sub' })).statusCode).toBe(
      403,
    );
    const taken = await call(alice, 'POST', '/api/teams/platform/teams', { name: 'P', handle: 'platform' });
    expect(taken.statusCode).toBe(409);
    expect((await call(alice, 'POST', '/api/teams/nope/teams', { name: 'N', handle: 'no-parent' })).statusCode).toBe(
      404,
    );
    const list = await get(bob, '/api/teams/platform/teams?limit=1');
    expect(list.headers.total).toBe('1');
    expect(json<Team[]>(list).map((t) => t.handle)).toEqual(['platform-edge']);
    expect((await get(bob, '/api/teams/platform-edge/teams')).headers.total).toBe('0');
  });
});

describe('DELETE /api/teams/{team}', () => {
  it('refuses a team with sub-teams or services with the spec text, then deletes it', async () => {
    expect((await call(bob, 'DELETE', '/api/teams/platform')).statusCode).toBe(403);
    const withSubTeam = await call(alice, 'DELETE', '/api/teams/platform');
    expect(withSubTeam.statusCode).toBe(409);
    expect(json(withSubTeam)).toEqual({ message: TEAM_NOT_EMPTY });
    expect((await call(alice, 'DELETE', '/api/teams/platform-edge')).statusCode).toBe(204);
    expect((await get(alice, '/api/teams/platform-edge')).statusCode).toBe(404);
    expect((await get(alice, '/api/teams/platform/teams')).headers.total).toBe('0');

    const service = await call(alice, 'POST', '/api/teams/platform/services', { name: 'API', handle: 'platform-api' });
    expect(service.statusCode).toBe(201);
    const withService = await call(alice, 'DELETE', '/api/teams/platform');
    expect(withService.statusCode).toBe(409);
    expect(json(withService)).toEqual({ message: TEAM_NOT_EMPTY });
    expect((await call(bob, 'DELETE', '/api/services/platform-api')).statusCode).toBe(204);
  });

  it('lets a workspace admin delete any empty team; the handle is free again', async () => {
    await call(bob, 'POST', '/api/teams', { name: 'Short lived', handle: 'short-lived' });
    expect((await call(alice, 'DELETE', '/api/teams/short-lived')).statusCode).toBe(403);
    expect((await call(guest, 'DELETE', '/api/teams/short-lived')).statusCode).toBe(403);
    expect((await call(admin, 'DELETE', '/api/teams/short-lived')).statusCode).toBe(204);
    expect((await get(bob, '/api/team/short-lived')).statusCode).toBe(404);
    expect(json<Team[]>(await get(bob, '/api/users/bob/teams')).map((t) => t.handle)).toEqual(['platform']);
    expect((await call(admin, 'DELETE', '/api/teams/short-lived')).statusCode).toBe(404);
    expect((await call(bob, 'POST', '/api/teams', { name: 'Again', handle: 'short-lived' })).statusCode).toBe(201);
    expect((await call(bob, 'DELETE', '/api/teams/short-lived')).statusCode).toBe(204);
  });
});

describe('team logos', () => {
  const upload = (actor: Member, data: Buffer, field = 'icon') => {
    const body = multipart(field, 'logo.png', 'image/png', data);
    return server.app.inject({
      method: 'POST',
      url: '/api/teams/platform/icon',
      headers: { ...authHeaders(actor), ...body.headers },
      payload: body.payload,
    });
  };

  it('lets the team admin upload and clear a logo; images only', async () => {
    const uploaded = await upload(alice, tinyPng());
    expect(uploaded.statusCode).toBe(200);
    const url = json<Team>(uploaded).thumbnail_url!;
    expect(url).toMatch(/^\/api\/assets\/[\w-]+$/);
    expect((await get(bob, url)).statusCode).toBe(200);
    // A second upload replaces the first asset.
    const replaced = json<Team>(await upload(alice, tinyPng())).thumbnail_url!;
    expect(replaced).not.toBe(url);
    expect((await get(bob, url)).statusCode).toBe(404);

    expect((await upload(bob, tinyPng())).statusCode).toBe(403);
    expect((await upload(alice, Buffer.from('<svg/>'))).statusCode).toBe(400);
    expect((await upload(alice, tinyPng(), 'logo')).statusCode).toBe(400);
    expect((await upload(alice, Buffer.concat([tinyPng(), Buffer.alloc(5000)]))).statusCode).toBe(400);
    expect((await call(bob, 'DELETE', '/api/teams/platform/icon')).statusCode).toBe(403);

    const cleared = await call(alice, 'DELETE', '/api/teams/platform/icon');
    expect(json(cleared)).toMatchObject({ thumbnail_url: null });
    expect((await get(bob, replaced)).statusCode).toBe(404);
  });
});

describe('GET /api/search/teams and autocomplete', () => {
  it('pages teams by name with the total header, searches, and shows at most 4 member avatars', async () => {
    const workspaceId = json<{ id: string }>(
      await server.app.inject({ method: 'GET', url: '/api/workspace', headers: { host: hostOf('teamco') } }),
    ).id;
    const { db } = server.ctx.database;
    for (let i = 0; i < 24; i++) {
      const n = String(i).padStart(2, '0');
      await insertTeam(db, {
        id: `seed-team-${n}`,
        workspace_id: workspaceId,
        handle: `squad-${n}`,
        name: `Squad ${n}`,
        description: i === 7 ? 'Keeps the lights on' : null,
        icon_asset_id: null,
        parent_id: null,
        created_at: new Date().toISOString(),
      });
    }
    for (const user of [owner, admin, alice, bob, guest]) {
      await insertMember(db, {
        workspace_id: workspaceId,
        team_id: 'seed-team-00',
        user_id: user.id,
        role: 'member',
        created_at: new Date().toISOString(),
      });
    }

    const first = await get(guest, '/api/search/teams?limit=20&cursor=0');
    expect(first.headers.total).toBe('25');
    const names = json<Team[]>(first).map((t) => t.name);
    expect(names).toHaveLength(20);
    expect(names[0]).toBe('Platform Team');
    expect(names[1]).toBe('Squad 00');
    const squad = json<Team[]>(first)[1]!;
    expect(squad.member_count).toBe(5);
    expect(squad.members.map((m) => m.name)).toEqual(['Owner of teamco', 'User ada', 'User alice', 'User bob']);
    expect(json<Team[]>(first)[0]).toMatchObject({ member_count: 2, members: [{ id: alice.id }, { id: bob.id }] });
    const second = await get(guest, '/api/search/teams?limit=20&cursor=20');
    expect(json<Team[]>(second).map((t) => t.name)).toEqual([
      'Squad 19',
      'Squad 20',
      'Squad 21',
      'Squad 22',
      'Squad 23',
    ]);
    expect((await get(guest, '/api/search/teams?cursor=40')).headers.total).toBe('25');

    const byName = await get(bob, '/api/search/teams?q=squad%201');
    expect(byName.headers.total).toBe('10');
    expect(json<Team[]>(byName)[0]!.handle).toBe('squad-10');
    expect(json<Team[]>(await get(bob, '/api/search/teams?q=LIGHTS')).map((t) => t.handle)).toEqual(['squad-07']);
    expect((await get(bob, '/api/search/teams?q=%25')).headers.total).toBe('0');
    expect((await get(bob, '/api/search/teams?sort=name')).statusCode).toBe(400);
  });

  it('autocompletes teams and users (at most 10 references)', async () => {
    const teams = json<Array<{ handle: string }>>(await get(bob, '/api/autocomplete/teams?q=squad'));
    expect(teams).toHaveLength(10);
    expect(teams[0]).toEqual({ id: 'seed-team-00', handle: 'squad-00', name: 'Squad 00', thumbnail_url: null });
    expect(json(await get(bob, '/api/autocomplete/teams?q=platf'))).toMatchObject([{ handle: 'platform' }]);
    const users = json<Array<{ handle: string }>>(await get(bob, '/api/autocomplete/users?q=ali'));
    expect(users).toEqual([{ id: alice.id, handle: 'alice', name: 'User alice', thumbnail_url: null }]);
    expect(json<unknown[]>(await get(bob, '/api/autocomplete/users'))).toHaveLength(5);
    expect(json(await get(bob, '/api/autocomplete/users?q=otherco'))).toEqual([]);
    expect((await get(bob, '/api/autocomplete/users?q=a&limit=3')).statusCode).toBe(400);
  });
});

describe('GET /api/users/{username}/teams', () => {
  it('lists the teams a user belongs to, by name, for any viewer', async () => {
    const teams = json<Team[]>(await get(guest, '/api/users/bob/teams'));
    expect(teams.map((t) => t.handle)).toEqual(['platform', 'squad-00']);
    expect(teams[0]).toMatchObject({ is_admin: false, is_member: false, member_count: 2 });
    expect(json(await get(guest, `/api/users/${alice.id}/teams`))).toMatchObject([
      { handle: 'platform' },
      { handle: 'squad-00' },
    ]);
    expect((await get(guest, '/api/users/nobody/teams')).statusCode).toBe(404);
    expect((await get(outsider, '/api/users/bob/teams')).statusCode).toBe(404);
  });
});
