import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MutedItem, Service, StarredItem, Team, WatchedService } from '../../src/contract/catalogue.js';
import { addMember, createService, createTeam, seedWorkspace } from '../support/fixtures.js';
import { json, startTestServer, type Member, type TestServer, callAs, type Method } from '../support/server.js';

let server: TestServer;
let owner: Member;
/** Admin of team payments, which owns billing (workspace) and fraud (owner-only). */
let alice: Member;
/** Member of team search, which owns indexer. */
let carol: Member;
let guest: Member;
let outsider: Member;
let billing: Service;
let fraud: Service;
let indexer: Service;
let payments: Team;

const call = (actor: Member, method: Method, url: string, payload?: object, headers: Record<string, string> = {}) =>
  callAs(server, actor, method, url, payload, headers);
const get = (actor: Member, url: string) => call(actor, 'GET', url);
const starredHandles = async (viewer: Member, username: string) =>
  json<StarredItem[]>(await get(viewer, `/api/users/${username}/starred`)).map((s) => s.profile.handle);

beforeAll(async () => {
  server = await startTestServer();
  ({ owner, teamAdmin: alice, guest, outsider, team: payments } = await seedWorkspace(server, { domain: 'starco' }));
  carol = await addMember(server, owner, 'carol');
  await createTeam(server, carol, { name: 'Search', handle: 'search' });
  billing = await createService(server, alice, 'payments', { name: 'Billing', handle: 'billing' });
  fraud = await createService(server, alice, 'payments', { name: 'Fraud', handle: 'fraud', visibility: 'owner' });
  indexer = await createService(server, carol, 'search', { name: 'Indexer', handle: 'indexer' });
});
afterAll(() => server.close());

describe('PUT and DELETE /api/users/{username}/starred/{service}', () => {
  it('stars once however often the PUT is replayed (Idempotency-Key accepted)', async () => {
    const put = () =>
      call(carol, 'PUT', '/api/users/carol/starred/billing', undefined, { 'idempotency-key': 'outbox-entry-1' });
    expect((await put()).statusCode).toBe(204);
    expect((await put()).statusCode).toBe(204);
    expect(json(await get(carol, '/api/services/billing'))).toMatchObject({ starred: true, starred_count: 1 });
    expect(json(await get(alice, '/api/services/billing'))).toMatchObject({ starred: false, starred_count: 1 });
    expect(await starredHandles(carol, 'carol')).toEqual(['billing']);
  });

  it('unstars once however often the DELETE is replayed; a missing star is a quiet 204', async () => {
    for (let i = 0; i < 2; i++) {
      const response = await call(carol, 'DELETE', '/api/users/carol/starred/billing', undefined, {
        'idempotency-key': 'outbox-entry-2',
      });
      expect(response.statusCode).toBe(204);
    }
    expect(json(await get(carol, '/api/services/billing'))).toMatchObject({ starred: false, starred_count: 0 });
    expect(await starredHandles(carol, 'carol')).toEqual([]);
    expect((await call(carol, 'DELETE', '/api/users/carol/starred/no-such-service')).statusCode).toBe(204);
  });

  it('counts stars of several users, by handle or id', async () => {
    expect((await call(carol, 'PUT', `/api/users/${carol.id}/starred/${billing.id}`)).statusCode).toBe(204);
    expect((await call(alice, 'PUT', '/api/users/alice/starred/billing')).statusCode).toBe(204);
    expect((await call(owner, 'PUT', `/api/users/${owner.handle}/starred/billing`)).statusCode).toBe(204);
    expect(json(await get(guest, '/api/services/billing'))).toMatchObject({ starred_count: 3 });
    expect((await call(owner, 'DELETE', `/api/users/${owner.handle}/starred/${billing.id}`)).statusCode).toBe(204);
    expect(json(await get(guest, '/api/services/billing'))).toMatchObject({ starred_count: 2 });
  });

  it('never double counts concurrent replays', async () => {
    const count = async () => json<Service>(await get(guest, '/api/services/billing')).starred_count;
    const before = await count();
    const puts = await Promise.all(
      Array.from({ length: 6 }, () => call(guest, 'PUT', '/api/users/gus/starred/billing')),
    );
    expect(puts.map((r) => r.statusCode)).toEqual(Array(6).fill(204));
    expect(await count()).toBe(before + 1);
    const deletes = await Promise.all(
      Array.from({ length: 6 }, () => call(guest, 'DELETE', '/api/users/gus/starred/billing')),
    );
    expect(deletes.map((r) => r.statusCode)).toEqual(Array(6).fill(204));
    expect(await count()).toBe(before);
  });

  it('lets guests star (docs/decisions.md#roles-and-visibility)', async () => {
    expect((await call(guest, 'PUT', '/api/users/gus/starred/indexer')).statusCode).toBe(204);
    expect(json(await get(guest, '/api/services/indexer'))).toMatchObject({ starred: true, starred_count: 1 });
  });

  it('refuses starring for someone else (403), unknown users and services (404)', async () => {
    expect((await call(alice, 'PUT', '/api/users/carol/starred/indexer')).statusCode).toBe(403);
    expect((await call(alice, 'DELETE', '/api/users/carol/starred/billing')).statusCode).toBe(403);
    expect((await call(owner, 'PUT', '/api/users/carol/starred/indexer')).statusCode).toBe(403);
    expect((await call(alice, 'PUT', '/api/users/nobody/starred/indexer')).statusCode).toBe(404);
    expect((await call(alice, 'PUT', '/api/users/alice/starred/nope')).statusCode).toBe(404);
    expect((await call(outsider, 'PUT', `/api/users/${outsider.handle}/starred/${billing.id}`)).statusCode).toBe(404);
    expect(json(await get(guest, '/api/services/indexer'))).toMatchObject({ starred_count: 1 });
  });

  it('never lets a hidden service be starred, and keeps it out of other viewers’ starred lists', async () => {
    expect((await call(carol, 'PUT', '/api/users/carol/starred/fraud')).statusCode).toBe(404);
    expect((await call(alice, 'PUT', '/api/users/alice/starred/fraud')).statusCode).toBe(204);
    expect(await starredHandles(alice, 'alice')).toEqual(['billing', 'fraud']);
    expect(await starredHandles(owner, 'alice')).toEqual(['billing', 'fraud']);
    expect(await starredHandles(carol, 'alice')).toEqual(['billing']);
    expect(await starredHandles(guest, 'alice')).toEqual(['billing']);
    const items = json<StarredItem[]>(await get(carol, '/api/users/alice/starred'));
    expect(items).toEqual([
      { id: billing.id, profile: { id: billing.id, handle: 'billing', name: 'Billing', thumbnail_url: null } },
    ]);
    expect((await get(carol, '/api/users/nobody/starred')).statusCode).toBe(404);
  });

  it('forgets the stars of a deleted service', async () => {
    const temp = json<Service>(
      await call(alice, 'POST', '/api/teams/payments/services', { name: 'Temp', handle: 'temp' }),
    );
    await call(carol, 'PUT', '/api/users/carol/starred/temp');
    expect(await starredHandles(carol, 'carol')).toEqual(['billing', 'temp']);
    await call(alice, 'DELETE', '/api/services/temp');
    expect(await starredHandles(carol, 'carol')).toEqual(['billing']);
    expect((await call(carol, 'DELETE', `/api/users/carol/starred/${temp.id}`)).statusCode).toBe(204);
  });
});

describe('GET /api/users/{username}/services (watched services)', () => {
  it('lists the services of the user’s teams and those they starred, as far as the viewer may see', async () => {
    const watched = json<WatchedService[]>(await get(alice, '/api/users/alice/services'));
    expect(watched).toEqual([
      { service: { id: billing.id, handle: 'billing', name: 'Billing' }, muted: false },
      { service: { id: fraud.id, handle: 'fraud', name: 'Fraud' }, muted: false },
    ]);
    // carol: her team's indexer plus starred billing.
    const carols = json<WatchedService[]>(await get(carol, '/api/users/carol/services'));
    expect(carols.map((w) => w.service.handle)).toEqual(['billing', 'indexer']);
    // Seen by carol, alice's list has no owner-only fraud.
    expect(json<WatchedService[]>(await get(carol, '/api/users/alice/services')).map((w) => w.service.handle)).toEqual([
      'billing',
    ]);
    expect((await get(carol, '/api/users/nobody/services')).statusCode).toBe(404);
  });
});

describe('mutes', () => {
  const mute = (actor: Member, username: string, profile: string, method: 'PUT' | 'PATCH' = 'PUT', body?: object) =>
    call(actor, method, `/api/users/${username}/muted/${profile}`, body);
  const muted = async (actor: Member) => json<MutedItem[]>(await get(actor, `/api/users/${actor.handle}/muted`));

  it('mutes a service with both flags by default, and PATCH changes one flag', async () => {
    const put = await mute(carol, 'carol', billing.id, 'PUT', {});
    expect(put.statusCode).toBe(200);
    expect(json(put)).toEqual({
      profile: { id: billing.id, type: 'service', handle: 'billing', name: 'Billing', description: null },
      activity: true,
      notifications: true,
    });
    const patched = await mute(carol, 'carol', billing.id, 'PATCH', { notifications: false });
    expect(json(patched)).toMatchObject({ activity: true, notifications: false });
    const replayed = await mute(carol, 'carol', billing.id, 'PATCH', { notifications: false });
    expect(json(replayed)).toMatchObject({ activity: true, notifications: false });
    expect(json(await mute(carol, 'carol', billing.id, 'PUT', { activity: false, notifications: true }))).toMatchObject(
      {
        activity: false,
        notifications: true,
      },
    );
    expect(json(await get(carol, `/api/users/carol/muted/${billing.id}`))).toMatchObject({ activity: false });
  });

  it('mutes teams and users too, by id; an empty PUT mutes everything; PATCH can start a mute', async () => {
    await call(alice, 'PATCH', '/api/teams/payments', { description: 'Money in, money out' });
    const team = await call(carol, 'PUT', `/api/users/carol/muted/${payments.id}`);
    expect(team.statusCode).toBe(200);
    expect(json(team)).toEqual({
      profile: {
        id: payments.id,
        type: 'team',
        handle: 'payments',
        name: 'Payments',
        description: 'Money in, money out',
      },
      activity: true,
      notifications: true,
    });
    const user = await mute(carol, 'carol', alice.id, 'PATCH', { activity: false });
    expect(json(user)).toMatchObject({
      profile: { type: 'user', handle: 'alice' },
      activity: false,
      notifications: true,
    });
    expect((await muted(carol)).map((m) => [m.profile.name, m.profile.type])).toEqual([
      ['Billing', 'service'],
      ['Payments', 'team'],
      ['User alice', 'user'],
    ]);
  });

  it('shows a mute in the watched services of the user, and to nobody else', async () => {
    const own = json<WatchedService[]>(await get(carol, '/api/users/carol/services'));
    expect(own.map((w) => [w.service.handle, w.muted])).toEqual([
      ['billing', true],
      ['indexer', false],
    ]);
    const seenByOthers = json<WatchedService[]>(await get(alice, '/api/users/carol/services'));
    expect(seenByOthers.map((w) => w.muted)).toEqual([false, false]);
  });

  it('refuses handles, unknown ids, hidden services and other workspaces’ profiles with 404', async () => {
    expect((await mute(carol, 'carol', 'billing')).statusCode).toBe(404);
    expect((await mute(carol, 'carol', 'no-such-id')).statusCode).toBe(404);
    expect((await mute(carol, 'carol', fraud.id)).statusCode).toBe(404);
    expect((await mute(carol, 'carol', outsider.id)).statusCode).toBe(404);
    expect((await mute(alice, 'alice', fraud.id)).statusCode).toBe(200);
    expect((await get(carol, `/api/users/carol/muted/${indexer.id}`)).statusCode).toBe(404);
  });

  it('keeps mutes private: 403 for anyone else, guests mute their own', async () => {
    expect((await get(alice, '/api/users/carol/muted')).statusCode).toBe(403);
    expect((await get(owner, `/api/users/carol/muted/${billing.id}`)).statusCode).toBe(403);
    expect((await mute(alice, 'carol', billing.id)).statusCode).toBe(403);
    expect((await mute(alice, 'carol', billing.id, 'PATCH', { activity: true })).statusCode).toBe(403);
    expect((await call(alice, 'DELETE', `/api/users/carol/muted/${billing.id}`)).statusCode).toBe(403);
    expect((await get(alice, '/api/users/nobody/muted')).statusCode).toBe(404);
    expect((await mute(guest, 'gus', indexer.id)).statusCode).toBe(200);
    expect((await muted(guest)).map((m) => m.profile.handle)).toEqual(['indexer']);
  });

  it('validates the body', async () => {
    expect((await mute(carol, 'carol', billing.id, 'PUT', { activity: 'yes' })).statusCode).toBe(400);
    const unknown = await mute(carol, 'carol', billing.id, 'PATCH', { muted: true });
    expect(json(unknown)).toMatchObject({ errors: { muted: ['Unknown field'] } });
  });

  it('unmutes idempotently (Idempotency-Key accepted)', async () => {
    for (let i = 0; i < 2; i++) {
      const response = await call(carol, 'DELETE', `/api/users/carol/muted/${billing.id}`, undefined, {
        'idempotency-key': 'outbox-entry-3',
      });
      expect(response.statusCode).toBe(204);
    }
    expect((await muted(carol)).map((m) => m.profile.handle)).toEqual(['payments', 'alice']);
    expect((await get(carol, `/api/users/carol/muted/${billing.id}`)).statusCode).toBe(404);
  });

  it('drops mutes of a service the user can no longer see', async () => {
    await call(alice, 'POST', '/api/teams/payments/members', { user: { id: 'carol' } });
    expect((await mute(carol, 'carol', fraud.id)).statusCode).toBe(200);
    expect((await muted(carol)).map((m) => m.profile.handle)).toContain('fraud');
    await call(alice, 'DELETE', '/api/teams/payments/members/carol');
    expect((await muted(carol)).map((m) => m.profile.handle)).not.toContain('fraud');
  });
});
