/**
 * Issue 31: a change drops only the kept answers that show what it changed (migration 032, scoped-cache.ts). Each
 * write below is made by another OS process with its own connection, as another `beacon serve` would make it;
 * after each, every read is asked again, one at a time, and the test counts which were made afresh: exactly the
 * reads that include the change, each showing it, while every other answer stays kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/contract/accounts.js';
import type { Service, Team } from '../../src/contract/catalogue.js';
import { catalogueAnswersOf } from '../../src/server/cache/catalogue-cache.js';
import {
  addMember,
  createService,
  createTeam,
  seedWorkspace,
  type SeededWorkspace,
  workspaceIdOf,
} from '../support/fixtures.js';
import { writeElsewhere, type Statement } from '../support/other-process.js';
import { callAs, json, startTestServer, type Member, type TestServer } from '../support/server.js';

let server: TestServer;
let cast: SeededWorkspace;
let dora: Member;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  cast = await seedWorkspace(server);
  dora = await addMember(server, cast.owner, 'dora');
  const search = await createTeam(server, cast.admin, { name: 'Search', handle: 'search' });
  ids.ledger = (await createService(server, cast.teamAdmin, 'payments', { name: 'Ledger', handle: 'ledger' })).id;
  await createService(server, cast.teamAdmin, 'payments', { name: 'Vault', handle: 'vault', visibility: 'owner' });
  ids.finder = (await createService(server, cast.admin, 'search', { name: 'Finder', handle: 'finder' })).id;
  await createService(server, cast.admin, 'search', { name: 'Indexer', handle: 'indexer' });
  ids.search = search.id;
  ids.bob = cast.teamMember.id;
  ids.dora = dora.id;
  ids.owner = cast.owner.id;
  ids.workspace = await workspaceIdOf(server, cast.domain);
});
afterAll(() => server.close());

/** The reads, each a kept answer: by the owner (who sees everything) unless said. */
const READS = {
  ledger: '/api/services/ledger',
  finder: '/api/services/finder',
  'finder as dora': '/api/services/finder',
  payments: '/api/teams/payments',
  'search team': '/api/teams/search',
  bob: '/api/users/bob',
  dora: '/api/users/dora',
  services: '/api/search/services?limit=36',
  'services as dora': '/api/search/services?limit=36',
  'q find': '/api/search/services?limit=36&q=find',
  'q money': '/api/search/services?limit=36&q=money',
  teams: '/api/search/teams?limit=20',
  users: '/api/search/users?limit=20',
  'payments services': '/api/teams/payments/services?limit=20',
  'search services': '/api/teams/search/services?limit=20',
} as const;
type Read = keyof typeof READS;

/** Every read, one at a time: which were made afresh (not given from what was kept), and what each answered. */
async function readAll() {
  const answers = catalogueAnswersOf(server.ctx);
  const made = new Set<Read>();
  const bodies = {} as Record<Read, unknown>;
  for (const [name, url] of Object.entries(READS) as [Read, string][]) {
    const before = answers.made;
    const response = await callAs(server, name.endsWith('as dora') ? dora : cast.owner, 'GET', url);
    expect(response.statusCode, `${name}: ${response.body}`).toBe(200);
    bodies[name] = json(response);
    if (answers.made > before) made.add(name);
  }
  return { made: [...made].sort(), bodies };
}

const servicesOf = (body: unknown) => body as Service[];
const find = (body: unknown, name: string) => servicesOf(body).find((s) => s.name === name);

describe('a change elsewhere drops only the answers that show it', () => {
  it('keep every answer while nothing changes', async () => {
    await readAll();
    expect((await readAll()).made).toEqual([]);
  });

  const cases: {
    write: string;
    statements: () => Statement[];
    remade: Read[];
    shows: (bodies: Record<Read, unknown>) => void | Promise<void>;
  }[] = [
    {
      write: 'a health transition',
      statements: () => [{ sql: `update services set health = 'critical' where id = ?`, values: [ids.finder] }],
      remade: ['finder', 'q find', 'search services', 'services', 'services as dora'],
      shows: (b) => {
        expect((b.finder as Service).health).toBe('critical');
        expect((b['finder as dora'] as Service).health).toBe('critical');
        expect(find(b.services, 'Finder')?.health).toBe('critical');
        expect(find(b['search services'], 'Finder')?.health).toBe('critical');
      },
    },
    {
      write: 'an edit of a service (a column searches read)',
      statements: () => [
        { sql: `update services set description = 'Money in, money out' where id = ?`, values: [ids.ledger] },
      ],
      // The pages with the service in them, and the search its new text matches (not the one of "find").
      remade: ['ledger', 'payments services', 'q money', 'services', 'services as dora'],
      shows: (b) => {
        expect((b.ledger as Service).description).toBe('Money in, money out');
        expect(find(b['payments services'], 'Ledger')?.description).toBe('Money in, money out');
        expect(servicesOf(b['q money']).map((s) => s.name)).toEqual(['Ledger']);
      },
    },
    {
      write: 'a team renamed',
      statements: () => [{ sql: `update teams set name = 'Search & Discovery' where id = ?`, values: [ids.search] }],
      remade: ['finder', 'q find', 'search services', 'search team', 'services', 'services as dora', 'teams'],
      shows: (b) => {
        expect((b['search team'] as Team).name).toBe('Search & Discovery');
        expect((b.finder as Service).owner.name).toBe('Search & Discovery');
        expect((b.teams as Team[]).map((t) => t.name)).toContain('Search & Discovery');
      },
    },
    {
      write: 'a user’s profile',
      statements: () => [{ sql: `update users set bio = 'Finds things' where id = ?`, values: [ids.dora] }],
      remade: ['dora', 'users'],
      shows: (b) => {
        expect((b.dora as User).bio).toBe('Finds things');
        expect((b.users as User[]).find((u) => u.handle === 'dora')?.bio).toBe('Finds things');
      },
    },
    {
      write: 'a membership',
      statements: () => [
        {
          sql: `insert into team_members (workspace_id, team_id, user_id, role, created_at) values (?, ?, ?, 'member', ?)`,
          values: [ids.workspace, ids.search, ids.dora, new Date().toISOString()],
        },
      ],
      // Dora's page of services stays the one every member sees: her new team has no owner-only service.
      remade: ['search team', 'teams'],
      shows: async (b) => {
        expect((b['search team'] as Team).member_count).toBe(2);
        const asDora = json<Team>(await callAs(server, dora, 'GET', '/api/teams/search'));
        expect([asDora.is_member, asDora.is_admin]).toEqual([true, false]);
      },
    },
    {
      write: 'a star',
      statements: () => [
        {
          sql: `insert into stars (workspace_id, user_id, service_id, created_at) values (?, ?, ?, ?)`,
          values: [ids.workspace, ids.owner, ids.finder, new Date().toISOString()],
        },
        { sql: `update services set starred_count = starred_count + 1 where id = ?`, values: [ids.finder] },
      ],
      remade: ['finder', 'q find', 'search services', 'services', 'services as dora'],
      shows: (b) => {
        const [owners, doras] = [b.finder as Service, b['finder as dora'] as Service];
        expect([owners.starred, owners.starred_count]).toEqual([true, 1]);
        expect([doras.starred, doras.starred_count]).toEqual([false, 1]);
        expect(find(b.services, 'Finder')?.starred).toBe(true);
        expect(find(b['services as dora'], 'Finder')?.starred).toBe(false);
      },
    },
    {
      write: 'a visibility',
      statements: () => [{ sql: `update services set visibility = 'owner' where id = ?`, values: [ids.ledger] }],
      remade: ['ledger', 'payments services', 'q find', 'q money', 'search services', 'services', 'services as dora'],
      shows: async (b) => {
        expect(find(b.services, 'Ledger')).toBeDefined();
        expect(find(b['services as dora'], 'Ledger')).toBeUndefined();
        expect((await callAs(server, dora, 'GET', '/api/services/ledger')).statusCode).toBe(404);
      },
    },
    {
      write: 'an edit that takes a search’s match away',
      statements: () => [{ sql: `update services set description = 'Books' where id = ?`, values: [ids.ledger] }],
      // Ledger is owner-only now: Dora's page does not show it.
      remade: ['ledger', 'payments services', 'q money', 'services'],
      shows: (b) => {
        expect(servicesOf(b['q money'])).toEqual([]);
        expect(find(b.services, 'Ledger')?.description).toBe('Books');
      },
    },
    {
      write: 'a user renamed (a column lists sort by)',
      statements: () => [{ sql: `update users set name = 'Robert' where id = ?`, values: [ids.bob] }],
      // Bob is one of the members the payments team shows.
      remade: ['bob', 'payments', 'teams', 'users'],
      shows: (b) => {
        expect((b.bob as User).name).toBe('Robert');
        expect((b.payments as Team).members.map((m) => m.name)).toContain('Robert');
        expect((b.users as User[]).map((u) => u.name)).toContain('Robert');
      },
    },
  ];

  for (const { write, statements, remade, shows } of cases) {
    it(`make again after ${write} exactly the answers that include it, each showing it`, async () => {
      await writeElsewhere(server.database, statements());
      const { made, bodies } = await readAll();
      expect(made).toEqual([...remade].sort());
      await shows(bodies);
      expect((await readAll()).made).toEqual([]);
    });
  }
});
