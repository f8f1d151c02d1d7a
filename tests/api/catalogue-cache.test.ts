/**
 * The catalogue's reads are kept per process until what they show changes (cache/catalogue-cache.ts,
 * migrations 021 and 032; tests/api/catalogue-changes.test.ts counts which answers each kind of write drops). What must hold: every change shows in the very next read, whichever process made it (the writes
 * below go straight to the database, as another `beacon serve` would make them, past this process's code); no
 * caller is given an answer made for another; an answer is reused only while nothing changed.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service, Team } from '../../src/contract/catalogue.js';
import type { User } from '../../src/contract/accounts.js';
import { isSqlite } from '../../src/server/db/connect.js';
import { CATALOGUE_TABLES } from '../../src/server/db/migrations/021-catalogue-version.js';
import { workspaceVersion } from '../../src/server/db/repositories/versions.js';
import { catalogueAnswersOf } from '../../src/server/cache/catalogue-cache.js';
import {
  addMember,
  addToTeam,
  createService,
  createTeam,
  seedWorkspace,
  type SeededWorkspace,
  workspaceIdOf,
} from '../support/fixtures.js';
import { callAs, json, startTestServer, type Member, type TestServer } from '../support/server.js';

let server: TestServer;
let cast: SeededWorkspace;
let workspaceId: string;

beforeAll(async () => {
  server = await startTestServer();
  cast = await seedWorkspace(server);
  await createService(server, cast.teamAdmin, 'payments', { name: 'Ledger', handle: 'ledger' });
  await createService(server, cast.teamAdmin, 'payments', { name: 'Vault', handle: 'vault', visibility: 'owner' });
  workspaceId = await workspaceIdOf(server, cast.domain);
});
afterAll(() => server.close());

async function read<T>(who: Member, url: string): Promise<{ body: T; total: string | undefined }> {
  const response = await callAs(server, who, 'GET', url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  const total = response.headers.total;
  return { body: json<T>(response), total: typeof total === 'string' ? total : undefined };
}

const service = async (who: Member, handle = 'ledger') => (await read<Service>(who, `/api/services/${handle}`)).body;
const servicePage = async (who: Member, url = '/api/search/services?limit=36') => read<Service[]>(who, url);
const names = (services: { name: string }[]) => services.map((s) => s.name);
const db = () => server.ctx.database.db;
const idOf = async (table: 'users' | 'teams' | 'services', handle: string) =>
  (
    await db()
      .selectFrom(table)
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('handle', '=', handle)
      .executeTakeFirstOrThrow()
  ).id;

describe('kept catalogue reads', () => {
  it('answer each caller with their own view, however often it is asked', async () => {
    const dora = await addMember(server, cast.owner, 'dora');
    const eve = await addMember(server, cast.owner, 'eve');
    for (const who of [cast.teamMember, dora]) {
      const star = await callAs(server, who, 'PUT', `/api/users/${who.handle}/starred/ledger`);
      expect(star.statusCode).toBe(204);
    }
    for (let round = 0; round < 2; round++) {
      const bobs = await service(cast.teamMember);
      const adas = await service(cast.admin);
      const guss = await service(cast.guest);
      expect([bobs.starred, adas.starred, guss.starred]).toEqual([true, false, false]);
      expect([bobs.permissions.edit, adas.permissions.edit, guss.permissions.edit]).toEqual([true, true, false]);
      // Two members of no team: the same rights, their own stars.
      expect([(await service(dora)).starred, (await service(eve)).starred]).toEqual([true, false]);
      // The owner-only service: its team and admins see it, a guest gets the 404 of a missing one.
      expect(names((await servicePage(cast.teamMember)).body)).toContain('Vault');
      expect(names((await servicePage(cast.guest)).body)).not.toContain('Vault');
      const teamPage = '/api/teams/payments/services?limit=20';
      expect(names((await servicePage(cast.teamMember, teamPage)).body)).toContain('Vault');
      expect(names((await servicePage(dora, teamPage)).body)).not.toContain('Vault');
      expect(names((await servicePage(cast.guest, teamPage)).body)).not.toContain('Vault');
      expect(names((await servicePage(cast.admin, teamPage)).body)).toContain('Vault');
      expect((await callAs(server, cast.guest, 'GET', '/api/services/vault')).statusCode).toBe(404);
      // The outsider's workspace has none of them.
      expect((await callAs(server, cast.outsider, 'GET', '/api/services/ledger')).statusCode).toBe(404);
    }
  });

  it('reuse an answer while nothing changed, and make it again after a change', async () => {
    const { cache } = catalogueAnswersOf(server.ctx);
    await service(cast.owner);
    const held = cache.count;
    expect(held).toBeGreaterThan(0);
    const first = await read<Service[]>(cast.owner, '/api/teams/payments/services?limit=10');
    const grown = cache.count;
    expect(grown).toBeGreaterThan(held);
    expect(await read<Service[]>(cast.owner, '/api/teams/payments/services?limit=10')).toEqual(first);
    await service(cast.owner);
    expect(cache.count).toBe(grown);
    await db()
      .updateTable('services')
      .set({ description: 'Money in, money out' })
      .where('handle', '=', 'ledger')
      .execute();
    expect((await service(cast.owner)).description).toBe('Money in, money out');
    // The change dropped the answers showing the service and the pages of services (which it may move).
    expect(cache.count).toBeLessThan(grown);
  });

  it('show every change another process makes in the next read', async () => {
    const ledgerId = await idOf('services', 'ledger');
    const paymentsId = await idOf('teams', 'payments');
    const eveId = await idOf('users', 'eve');
    const bobId = await idOf('users', cast.teamMember.handle);
    const urls = [
      '/api/services/ledger',
      `/api/users/${cast.teamMember.handle}`,
      '/api/teams/payments',
      '/api/search/services?limit=36',
      '/api/search/services?limit=36&q=ledg',
      '/api/search/teams?limit=20',
      '/api/search/users?limit=20',
      '/api/teams/payments/services?limit=20',
    ];
    const readAll = () => Promise.all(urls.map((url) => read<unknown>(cast.owner, url)));
    await readAll();

    // A service's fields, each a column the triggers follow.
    const services = db().updateTable('services').where('id', '=', ledgerId);
    await services.set({ name: 'General Ledger', health: 'critical', stage: 'live' }).execute();
    const renamed = await service(cast.owner);
    expect([renamed.name, renamed.health, renamed.stage]).toEqual(['General Ledger', 'critical', 'live']);
    expect(names((await servicePage(cast.owner)).body)).toContain('General Ledger');
    expect(names((await servicePage(cast.owner, '/api/search/services?limit=36&q=ledg')).body)).toEqual([
      'General Ledger',
    ]);
    expect(names((await read<Service[]>(cast.owner, '/api/teams/payments/services?limit=20')).body)).toContain(
      'General Ledger',
    );
    await services.set({ links: JSON.stringify([{ name: 'Runbook', url: 'https://runbook.example' }]) }).execute();
    expect((await service(cast.owner)).links).toEqual([{ name: 'Runbook', url: 'https://runbook.example' }]);

    // A star, by another process: the owner's own flag and the count.
    await readAll();
    const before = await service(cast.owner);
    await db()
      .insertInto('stars')
      .values({
        workspace_id: workspaceId,
        user_id: await idOf('users', cast.owner.handle),
        service_id: ledgerId,
        created_at: new Date().toISOString(),
      })
      .execute();
    await services.set((eb) => ({ starred_count: eb('starred_count', '+', 1) })).execute();
    const starred = await service(cast.owner);
    expect(starred.starred).toBe(true);
    expect(starred.starred_count).toBe(before.starred_count + 1);

    // A team's name and a user's profile.
    await db().updateTable('teams').set({ name: 'Payments & Billing' }).where('id', '=', paymentsId).execute();
    expect((await read<Team>(cast.owner, '/api/teams/payments')).body.name).toBe('Payments & Billing');
    expect((await read<Team[]>(cast.owner, '/api/search/teams?limit=20')).body.map((t) => t.name)).toContain(
      'Payments & Billing',
    );
    expect((await service(cast.owner)).owner.name).toBe('Payments & Billing');
    await db().updateTable('users').set({ name: 'Robert', bio: 'Ledgers' }).where('id', '=', bobId).execute();
    const bob = (await read<User>(cast.owner, `/api/users/${cast.teamMember.handle}`)).body;
    expect([bob.name, bob.bio]).toEqual(['Robert', 'Ledgers']);
    expect((await read<User[]>(cast.owner, '/api/search/users?limit=20')).body.map((u) => u.name)).toContain('Robert');

    // A membership: the team's member count, and a new user in the users page with its total.
    const members = (await read<Team>(cast.owner, '/api/teams/payments')).body.member_count;
    await db()
      .insertInto('team_members')
      .values({
        workspace_id: workspaceId,
        team_id: paymentsId,
        user_id: eveId,
        role: 'member',
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await read<Team>(cast.owner, '/api/teams/payments')).body.member_count).toBe(members + 1);
    const users = await read<User[]>(cast.owner, '/api/search/users?limit=20');
    await db()
      .insertInto('users')
      .values({
        id: 'a-new-user-id',
        workspace_id: workspaceId,
        handle: 'newcomer',
        name: 'Newcomer',
        email: 'newcomer@example.com',
        password_hash: 'x',
        bio: null,
        profile: null,
        description: null,
        icon_asset_id: null,
        role: 'member',
        super_admin: 0,
        last_login: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    const grown = await read<User[]>(cast.owner, '/api/search/users?limit=20');
    expect(Number(grown.total)).toBe(Number(users.total) + 1);
    expect(grown.body.map((u) => u.handle)).toContain('newcomer');

    // Visibility: the owner-only service leaves the guest's reach as the service's team changes.
    await read<Service[]>(cast.guest, '/api/search/services?limit=36');
    await db().updateTable('services').set({ visibility: 'owner' }).where('id', '=', ledgerId).execute();
    expect((await callAs(server, cast.guest, 'GET', '/api/services/ledger')).statusCode).toBe(404);
    expect(names((await servicePage(cast.admin)).body)).toContain('General Ledger');
  });

  it('follow the caller’s own teams: joining one shows its owner-only services at once', async () => {
    const quiet = await createTeam(server, cast.admin, { name: 'Quiet', handle: 'quiet' });
    await createService(server, cast.admin, quiet.handle, { name: 'Hush', handle: 'hush', visibility: 'owner' });
    expect(names((await servicePage(cast.teamMember)).body)).not.toContain('Hush');
    await addToTeam(server, cast.admin, quiet.handle, cast.teamMember);
    expect(names((await servicePage(cast.teamMember)).body)).toContain('Hush');
    expect((await service(cast.teamMember, 'hush')).name).toBe('Hush');
  });

  it('follow every column of the tables they read, but for ids, search texts and password hashes', async () => {
    // A column added later must be added to migration 021's triggers (a new migration), or named here as unshown.
    const unshown = new Set(['id', 'search_text', 'password_hash']);
    for (const { table, updates } of CATALOGUE_TABLES) {
      const columns = isSqlite(db())
        ? (await sql<{ name: string }>`select name from pragma_table_xinfo(${table})`.execute(db())).rows
        : (
            await sql<{ name: string }>`select column_name as name from information_schema.columns
              where table_schema = current_schema() and table_name = ${table}`.execute(db())
          ).rows;
      const expected = columns.map((c) => c.name).filter((name) => !unshown.has(name));
      expect([...updates].sort(), table).toEqual(expected.sort());
    }
  });

  it('read the version a request starts from as committed, never from a transaction still open', async () => {
    const before = await workspaceVersion(db(), 'catalogue', workspaceId);
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('services').set({ name: 'Rolled back' }).where('handle', '=', 'ledger').execute();
          // The write bumped the version inside the transaction; a request reading now must not see it.
          expect(await workspaceVersion(db(), 'catalogue', workspaceId)).toBe(before);
          throw new Error('roll back');
        }),
    ).rejects.toThrow('roll back');
    expect(await workspaceVersion(db(), 'catalogue', workspaceId)).toBe(before);
    expect((await service(cast.owner)).name).not.toBe('Rolled back');
  });

  it('give a member the page every member sees, their owner-only services in its total, unless one comes before its end', async () => {
    await createService(server, cast.teamAdmin, 'payments', { name: 'Aa public', handle: 'aa-public' });
    await createService(server, cast.teamAdmin, 'payments', {
      name: 'Zz private',
      handle: 'zz-private',
      visibility: 'owner',
    });
    const visibleTo = async (userId: string | null) =>
      Number(
        (
          await db()
            .selectFrom('services')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('workspace_id', '=', workspaceId)
            .where((eb) =>
              eb.or([
                eb('visibility', '<>', 'owner'),
                eb(
                  'owner_team_id',
                  'in',
                  eb
                    .selectFrom('team_members')
                    .select('team_id')
                    .where('user_id', '=', userId ?? ''),
                ),
              ]),
            )
            .executeTakeFirstOrThrow()
        ).n,
      );
    const bobId = await idOf('users', cast.teamMember.handle);
    for (let round = 0; round < 2; round++) {
      // The first by name is public: Bob's owner-only services come after it, counted in his total only.
      const bobs = await servicePage(cast.teamMember, '/api/search/services?limit=1');
      const guss = await servicePage(cast.guest, '/api/search/services?limit=1');
      expect(names(bobs.body)).toEqual(['Aa public']);
      expect(names(guss.body)).toEqual(['Aa public']);
      expect(Number(bobs.total)).toBe(await visibleTo(bobId));
      expect(Number(guss.total)).toBe(await visibleTo(await idOf('users', cast.guest.handle)));
      expect(Number(bobs.total)).toBeGreaterThan(Number(guss.total));
      // A page his owner-only ones fall in is his own, and nobody else's.
      expect(names((await servicePage(cast.teamMember, '/api/search/services?limit=50')).body)).toContain('Zz private');
      expect(names((await servicePage(cast.guest, '/api/search/services?limit=50')).body)).not.toContain('Zz private');
      const search = '/api/search/services?limit=5&q=private';
      expect(names((await servicePage(cast.teamMember, search)).body)).toEqual(['Zz private']);
      expect((await servicePage(cast.guest, search)).body).toEqual([]);
    }
  });

  it('find a member’s owner-only service in a search once an edit makes it match, and lose it once another does not', async () => {
    const vaultId = await idOf('services', 'vault');
    const search = async (who: Member) => {
      const { body, total } = await servicePage(who, '/api/search/services?limit=36&q=lockbox');
      return { names: names(body), total: Number(total) };
    };
    const describe = (text: string) =>
      db().updateTable('services').set({ description: text }).where('id', '=', vaultId).execute();
    for (const text of ['Keys and secrets', 'The LOCKBOX of keys', 'Keys again']) {
      await describe(text);
      const matches = text.toLowerCase().includes('lockbox');
      // Twice: made afresh after the edit, then given from what was kept.
      for (let ask = 0; ask < 2; ask++) {
        expect(await search(cast.teamMember)).toEqual(
          matches ? { names: ['Vault'], total: 1 } : { names: [], total: 0 },
        );
        expect(await search(cast.guest)).toEqual({ names: [], total: 0 });
      }
    }
  });
});
