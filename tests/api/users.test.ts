import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser, newUserRow } from '../../src/server/db/repositories/users.js';
import { addMember } from '../support/fixtures.js';
import {
  authHeaders,
  hostOf,
  inviteAndJoin,
  json,
  registerWorkspace,
  startTestServer,
  type Member,
  type TestServer,
} from '../support/server.js';
import { multipart, tinyPng } from '../support/images.js';

let server: TestServer;
let owner: Member;
let admin: Member;
let member: Member;

beforeAll(async () => {
  server = await startTestServer({ BEACON_MAX_UPLOAD_BYTES: '4096' });
  owner = await registerWorkspace(server, 'userco');
  admin = await addMember(server, owner, 'ada', 'admin');
  member = await addMember(server, owner, 'max');
});
afterAll(() => server.close());

const get = (actor: Member, url: string) => server.app.inject({ method: 'GET', url, headers: authHeaders(actor) });
const changeRole = (actor: Member, target: string, role: string) =>
  server.app.inject({
    method: 'POST',
    url: `/api/users/${target}/actions/change-role`,
    headers: authHeaders(actor),
    payload: { role },
  });

describe('GET /api/search/users', () => {
  it('pages the users with a total header and searches name, handle and email', async () => {
    const workspaceId = json<{ id: string }>(
      await server.app.inject({ method: 'GET', url: '/api/workspace', headers: { host: hostOf('userco') } }),
    ).id;
    for (let i = 0; i < 25; i++) {
      await insertUser(
        server.ctx.database.db,
        newUserRow({
          id: `seed-${i}`,
          workspace_id: workspaceId,
          handle: `seed-${String(i).padStart(2, '0')}`,
          name: `Seeded Person ${String(i).padStart(2, '0')}`,
          email: `seed${i}@userco.example`,
          password_hash: 'x',
          role: 'member',
        }),
      );
    }
    const first = await get(member, '/api/search/users?limit=20&cursor=0');
    expect(first.headers.total).toBe('28');
    expect(json<unknown[]>(first)).toHaveLength(20);
    const second = await get(member, '/api/search/users?limit=20&cursor=20');
    expect(json<unknown[]>(second)).toHaveLength(8);
    const searched = await get(member, '/api/search/users?q=seeded%20person%201&limit=20');
    expect(searched.headers.total).toBe('10');
    expect(json<Array<{ name: string }>>(searched).map((u) => u.name)[0]).toBe('Seeded Person 10');
    const byEmail = await get(member, '/api/search/users?q=seed7@');
    expect(json<Array<{ handle: string }>>(byEmail).map((u) => u.handle)).toEqual(['seed-07']);
    const wildcard = await get(member, '/api/search/users?q=%25');
    expect(wildcard.headers.total).toBe('0');
  });

  it('defaults to 20 per page and refuses a limit over 100', async () => {
    expect(json<unknown[]>(await get(member, '/api/search/users'))).toHaveLength(20);
    expect((await get(member, '/api/search/users?limit=101')).statusCode).toBe(400);
  });
});

describe('GET and PATCH /api/users/{username}', () => {
  it('reads a user by handle or id', async () => {
    const byHandle = json<{ id: string }>(await get(member, `/api/users/${admin.handle}`));
    expect(byHandle).toMatchObject({ handle: 'ada', role: 'admin', super_admin: false });
    expect(json(await get(member, `/api/users/${byHandle.id}`))).toMatchObject({ handle: 'ada' });
    expect((await get(member, '/api/users/nobody')).statusCode).toBe(404);
  });

  it('lets a user edit their own profile only, refusing unknown fields', async () => {
    const patch = (actor: Member, target: string, payload: object) =>
      server.app.inject({ method: 'PATCH', url: `/api/users/${target}`, headers: authHeaders(actor), payload });
    const updated = await patch(member, member.handle, {
      name: 'Max Mustermann',
      bio: 'Runs the pipelines',
      profile: 'https://max.example',
    });
    expect(updated.statusCode).toBe(200);
    expect(json(updated)).toMatchObject({
      name: 'Max Mustermann',
      bio: 'Runs the pipelines',
      profile: 'https://max.example',
    });
    const found = await get(admin, '/api/search/users?q=MUSTER');
    expect(json<Array<{ handle: string }>>(found).map((u) => u.handle)).toEqual(['max']);
    expect((await get(admin, '/api/search/users?q=max%20mu')).headers.total).toBe('1');
    expect((await patch(member, admin.handle, { bio: 'hacked' })).statusCode).toBe(403);
    const unknown = await patch(member, member.handle, { role: 'owner' });
    expect(unknown.statusCode).toBe(400);
    expect(json(unknown)).toMatchObject({ errors: { role: ['Unknown field'] } });
    expect(json(await get(member, `/api/users/${member.handle}`))).toMatchObject({ role: 'member' });
  });
});

describe('user icons', () => {
  const upload = (actor: Member, target: string, field: string, type: string, data: Buffer) => {
    const body = multipart(field, 'icon.png', type, data);
    return server.app.inject({
      method: 'POST',
      url: `/api/users/${target}/icon`,
      headers: { ...authHeaders(actor), ...body.headers },
      payload: body.payload,
    });
  };

  it('stores an uploaded image and serves it back; clearing removes it', async () => {
    const png = tinyPng();
    const response = await upload(member, member.handle, 'icon', 'image/png', png);
    expect(response.statusCode).toBe(200);
    const url = json<{ thumbnail_url: string }>(response).thumbnail_url;
    expect(url).toMatch(/^\/api\/assets\/[\w-]+$/);
    const served = await server.app.inject({ method: 'GET', url, headers: authHeaders(admin) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    const viaCookie = await server.app.inject({
      method: 'GET',
      url,
      headers: { host: hostOf('userco') },
      cookies: { beacon_session: admin.cookie },
    });
    expect(viaCookie.statusCode).toBe(200);
    expect((await server.app.inject({ method: 'GET', url, headers: { host: hostOf('userco') } })).statusCode).toBe(401);

    const cleared = await server.app.inject({
      method: 'DELETE',
      url: `/api/users/${member.handle}/icon`,
      headers: authHeaders(member),
    });
    expect(json(cleared)).toMatchObject({ thumbnail_url: null });
    expect((await server.app.inject({ method: 'GET', url, headers: authHeaders(admin) })).statusCode).toBe(404);
  });

  it('refuses a non-image, an oversized image, a wrong field and someone else’s icon with 400/403', async () => {
    const text = await upload(member, member.handle, 'icon', 'image/png', Buffer.from('<svg onload="alert(1)"></svg>'));
    expect(text.statusCode).toBe(400);
    const big = Buffer.concat([tinyPng(), Buffer.alloc(5000)]);
    const oversized = await upload(member, member.handle, 'icon', 'image/png', big);
    expect(oversized.statusCode).toBe(400);
    expect(json(oversized)).toMatchObject({ errors: { icon: ['Too large'] } });
    expect((await upload(member, member.handle, 'avatar', 'image/png', tinyPng())).statusCode).toBe(400);
    expect((await upload(member, admin.handle, 'icon', 'image/png', tinyPng())).statusCode).toBe(403);
    const notMultipart = await server.app.inject({
      method: 'POST',
      url: `/api/users/${member.handle}/icon`,
      headers: authHeaders(member),
      payload: { icon: 'x' },
    });
    expect(notMultipart.statusCode).toBe(400);
    expect(json(await get(member, `/api/users/${member.handle}`))).toMatchObject({ thumbnail_url: null });
  });
});

describe('POST /api/users/{id}/actions/change-role', () => {
  it('refuses a member (403) and changes nothing', async () => {
    const response = await changeRole(member, admin.id, 'guest');
    expect(response.statusCode).toBe(403);
    expect(json(await get(owner, `/api/users/${admin.handle}`))).toMatchObject({ role: 'admin' });
  });

  it('lets an admin change a non-owner, but not make an owner nor touch an owner', async () => {
    const toGuest = await changeRole(admin, member.handle, 'guest');
    expect(toGuest.statusCode).toBe(200);
    expect(json(toGuest)).toMatchObject({ handle: 'max', role: 'guest' });
    expect((await changeRole(admin, member.id, 'owner')).statusCode).toBe(403);
    expect((await changeRole(admin, owner.id, 'member')).statusCode).toBe(403);
    expect((await changeRole(admin, member.id, 'member')).statusCode).toBe(200);
  });

  it('lets an owner make an owner and keeps at least one owner', async () => {
    expect((await changeRole(owner, owner.id, 'admin')).statusCode).toBe(409);
    expect(json(await changeRole(owner, admin.id, 'owner'))).toMatchObject({ role: 'owner' });
    expect(json(await changeRole(admin, owner.id, 'admin'))).toMatchObject({ role: 'admin' });
    expect(json(await changeRole(admin, owner.id, 'owner'))).toMatchObject({ role: 'owner' });
    expect(json(await changeRole(owner, admin.id, 'admin'))).toMatchObject({ role: 'admin' });
    expect((await changeRole(owner, admin.id, 'superuser')).statusCode).toBe(400);
  });
});

describe('DELETE /api/users/{handle}', () => {
  it('is for a super admin, never on themself; the deleted user’s tokens stop working', async () => {
    const doomed = await inviteAndJoin(server, owner, 'doomed');
    expect(
      (await server.app.inject({ method: 'DELETE', url: `/api/users/${doomed.handle}`, headers: authHeaders(admin) }))
        .statusCode,
    ).toBe(403);
    expect(
      (await server.app.inject({ method: 'DELETE', url: `/api/users/${owner.handle}`, headers: authHeaders(owner) }))
        .statusCode,
    ).toBe(400);
    const deleted = await server.app.inject({
      method: 'DELETE',
      url: `/api/users/${doomed.handle}`,
      headers: authHeaders(owner),
    });
    expect(deleted.statusCode).toBe(204);
    expect((await get(owner, `/api/users/${doomed.handle}`)).statusCode).toBe(404);
    expect((await get(doomed, `/api/users/${owner.handle}`)).statusCode).toBe(401);
  });
});
