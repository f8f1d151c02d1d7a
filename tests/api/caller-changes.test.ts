/**
 * Issue 31: the caller cache follows the workspace's logged changes (caller-cache.ts, migration 036)
 * instead of reading each caller again when its time is up. Each write below is made by another OS process, as
 * another `beacon serve` would make it: once a held caller's time is up, the request follows the changes and sees
 * the write; before that, any read that follows the catalogue forgets the callers the write changed. A caller
 * nothing changed is kept, not read again.
 */
import { callersOf } from '../../src/server/cache/caller-cache.js';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  createService,
  seedWorkspace,
  workspaceIdOf,
  type SeededWorkspace,
} from '../support/fixtures.js';
import { writeElsewhere, type Statement } from '../support/other-process.js';
import { atTime, callAs, type Member, type TestServer, startTestServer } from '../support/server.js';

const TTL_MS = 60_000;
let server: TestServer;
let cast: SeededWorkspace;
let workspaceId: string;

beforeAll(async () => {
  server = await startTestServer({ BEACON_AUTH_CACHE_TTL_MS: String(TTL_MS) });
  cast = await seedWorkspace(server);
  workspaceId = await workspaceIdOf(server, cast.domain);
  await createService(server, cast.teamAdmin, 'payments', { name: 'Ledger', handle: 'ledger' });
  // The process's first read of the workspace: it follows its changes from here on.
  expect(await status(cast.owner)).toBe(200);
});
afterAll(() => server.close());

const SERVICE = '/api/services/ledger';
const sessionOf = (member: Member) => decodeJwt(member.token).sid as string;
/** A moment past the time of every caller held now. */
const later = () => Date.now() + TTL_MS + 1000;
const status = async (member: Member, at?: number) => {
  const call = () => callAs(server, member, 'GET', SERVICE);
  return (at === undefined ? await call() : await atTime(server, at, call)).statusCode;
};

describe('held callers follow the changes another process makes', () => {
  it('keeps a caller nothing changed past its time, without reading it again', async () => {
    expect(await status(cast.teamMember)).toBe(200);
    const key = sessionOf(cast.teamMember);
    const held = callersOf(server.ctx).get(key, Date.now());
    expect(held?.fresh).toBe(true);
    // A change of another user leaves it as it is.
    await writeElsewhere(server.database, [
      { sql: `update users set bio = 'Elsewhere' where id = ?`, values: [cast.guest.id] },
    ]);
    const at = later();
    expect(await status(cast.teamMember, at)).toBe(200);
    const renewed = callersOf(server.ctx).get(key, at);
    expect(renewed?.caller).toBe(held!.caller);
    expect(renewed?.fresh).toBe(true);
  });

  const cases: { write: string; who: () => Member; statements: () => Statement[]; then: number }[] = [
    {
      write: 'a session ended',
      who: () => cast.guest,
      statements: () => [
        {
          sql: `update sessions set revoked_at = ? where id = ?`,
          values: [new Date().toISOString(), sessionOf(cast.guest)],
        },
      ],
      then: 401,
    },
    {
      write: 'a user deleted',
      who: () => cast.admin,
      statements: () => [
        { sql: `delete from sessions where user_id = ?`, values: [cast.admin.id] },
        { sql: `delete from users where id = ?`, values: [cast.admin.id] },
      ],
      then: 401,
    },
  ];
  for (const { write, who, statements, then } of cases) {
    it(`sees ${write} once the caller's time is up`, async () => {
      expect(await status(who())).toBe(200);
      await writeElsewhere(server.database, statements());
      // Still held as it was: no read followed the change yet.
      expect(await status(who())).toBe(200);
      expect(await status(who(), later())).toBe(then);
    });
  }

  it('forgets a caller as soon as any read follows the change, before its time is up', async () => {
    const alice = cast.teamAdmin;
    expect(await status(alice)).toBe(200);
    await writeElsewhere(server.database, [
      { sql: `update sessions set revoked_at = ? where id = ?`, values: [new Date().toISOString(), sessionOf(alice)] },
    ]);
    // The owner's catalogue read follows the change: the ended session is forgotten with it.
    expect(await status(cast.owner)).toBe(200);
    expect(callersOf(server.ctx).get(sessionOf(alice), Date.now())).toBeUndefined();
    expect(await status(alice)).toBe(401);
  });

  it('sees an API client’s new secret once the caller’s time is up', async () => {
    const { caller: bot, client } = await createClient(server, cast.owner, 'payments', {
      scopes: ['beacon.service.read'],
    });
    expect(await status(bot)).toBe(200);
    await writeElsewhere(server.database, [
      { sql: `update clients set secret_version = secret_version + 1 where id = ?`, values: [client.id] },
    ]);
    expect(await status(bot, later())).toBe(401);
  });

  it('sees the workspace made inactive once the caller’s time is up', async () => {
    expect(await status(cast.owner)).toBe(200);
    await writeElsewhere(server.database, [
      { sql: `update workspaces set status = 'inactive' where id = ?`, values: [workspaceId] },
    ]);
    const response = await atTime(server, later(), () => callAs(server, cast.owner, 'GET', SERVICE));
    expect([response.statusCode, response.json()]).toEqual([403, { message: 'Workspace Inactive' }]);
  });
});
