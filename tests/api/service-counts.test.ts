import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToTeam, createService, createTeam, seedWorkspace } from '../support/fixtures.js';
import { callAs, json, startTestServer, type Member, type TestServer } from '../support/server.js';

/**
 * Issue 18: the `total` of a services page comes from counts kept by triggers (migration 018). Whatever
 * creates, moves, hides or deletes services, the totals each viewer gets equal the services they can list.
 */
let server: TestServer;
let owner: Member;
let alice: Member;
let bob: Member;
let guest: Member;

beforeAll(async () => {
  server = await startTestServer();
  ({ owner, teamAdmin: alice, teamMember: bob, guest } = await seedWorkspace(server, { domain: 'countco' }));
  await createTeam(server, alice, { name: 'Search', handle: 'search' });
  await addToTeam(server, alice, 'search', guest);
});
afterAll(() => server.close());

/** The `total` header and the services actually listed (every page). */
async function totals(actor: Member, path: string) {
  const first = await callAs(server, actor, 'GET', `${path}?limit=100&cursor=0`);
  expect(first.statusCode).toBe(200);
  return { total: Number(first.headers.total), listed: json<unknown[]>(first).length };
}

async function expectConsistent() {
  for (const actor of [owner, alice, bob, guest]) {
    for (const path of ['/api/search/services', '/api/teams/payments/services', '/api/teams/search/services']) {
      const { total, listed } = await totals(actor, path);
      expect(total, `${actor.handle} ${path}`).toBe(listed);
    }
  }
}

describe('service totals', () => {
  it('equal what each viewer can list, through creating, hiding, moving and deleting', async () => {
    await expectConsistent();
    for (let i = 0; i < 6; i++) {
      const team = i % 2 === 0 ? 'payments' : 'search';
      await createService(server, alice, team, { name: `Service ${i}`, handle: `service-${i}` });
    }
    await expectConsistent();
    const act = (path: string, body: object) => callAs(server, alice, 'POST', `/api/services/${path}`, body);
    expect((await act('service-0/actions/change-visibility', { visibility: 'owner' })).statusCode).toBe(200);
    expect((await act('service-1/actions/change-visibility', { visibility: 'owner' })).statusCode).toBe(200);
    await expectConsistent();
    // Bob (payments) sees service-0 but not service-1 (search, owner-only); the owner sees both.
    expect((await totals(bob, '/api/search/services')).total).toBe(5);
    expect((await totals(owner, '/api/search/services')).total).toBe(6);
    expect((await act('service-0/actions/reparent', { owner: { id: 'search' } })).statusCode).toBe(200);
    await expectConsistent();
    expect((await totals(bob, '/api/search/services')).total).toBe(4);
    expect((await callAs(server, alice, 'DELETE', '/api/services/service-2')).statusCode).toBe(204);
    expect((await act('service-1/actions/change-visibility', { visibility: 'public' })).statusCode).toBe(200);
    await expectConsistent();
    expect((await totals(owner, '/api/search/services')).total).toBe(5);
    expect((await totals(bob, '/api/teams/search/services')).total).toBe(3);
  });

  it('search a rare text through the index and a common one by walking the names: same answers either way', async () => {
    // 260 services, one of them "Zebra": a rare text's page comes from the trigram index, a common one's from the
    // walk in name order (services.ts chooses by the counts); both must list exactly what matches.
    for (let i = 0; i < 260; i++) {
      const name = i === 7 ? 'Zebra Crossing' : `Common Thing ${String(i).padStart(3, '0')}`;
      await createService(server, alice, 'payments', { name, handle: `thing-${i}` });
    }
    const search = async (q: string, limit: number, cursor = 0) => {
      const response = await callAs(
        server,
        owner,
        'GET',
        `/api/search/services?q=${encodeURIComponent(q)}&limit=${limit}&cursor=${cursor}`,
      );
      expect(response.statusCode).toBe(200);
      return {
        total: Number(response.headers.total),
        names: json<Array<{ name: string }>>(response).map((s) => s.name),
      };
    };
    expect(await search('zebra', 20)).toEqual({ total: 1, names: ['Zebra Crossing'] });
    expect(await search('ZEBRA cro', 20)).toEqual({ total: 1, names: ['Zebra Crossing'] });
    const common = await search('common thing', 20);
    expect(common.total).toBe(259);
    const numbers = Array.from({ length: 21 }, (_, i) => i).filter((i) => i !== 7);
    expect(common.names).toEqual(numbers.map((i) => `Common Thing ${String(i).padStart(3, '0')}`));
    expect((await search('thing 25', 100)).names).toEqual(Array.from({ length: 10 }, (_, i) => `Common Thing 25${i}`));
    // The last page, and past it: the total stays the count of the matches.
    expect(await search('common thing', 20, 240)).toEqual({
      total: 259,
      names: Array.from({ length: 19 }, (_, i) => `Common Thing ${241 + i}`),
    });
    expect(await search('common thing', 20, 300)).toEqual({ total: 259, names: [] });
    expect(await search('ab', 20, 300)).toEqual({ total: 0, names: [] });
  });

  it('search a text whose matches sit together at the end of the names: the whole page all the same', async () => {
    // 40 "Zulu" services after the 261 others: a common text (1 in 8) whose matches the name-order walk only
    // reaches at its end. On SQLite the walk stops short of them, and the page comes from the index.
    for (let i = 0; i < 40; i++)
      await createService(server, alice, 'payments', {
        name: `Zulu Post ${String(i).padStart(2, '0')}`,
        handle: `zulu-${i}`,
      });
    const page = async (cursor: number) => {
      const response = await callAs(server, owner, 'GET', `/api/search/services?q=zulu&limit=15&cursor=${cursor}`);
      expect(response.statusCode).toBe(200);
      return {
        total: Number(response.headers.total),
        names: json<Array<{ name: string }>>(response).map((s) => s.name),
      };
    };
    const zulu = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `Zulu Post ${String(from + i).padStart(2, '0')}`);
    expect(await page(0)).toEqual({ total: 40, names: zulu(0, 15) });
    expect(await page(30)).toEqual({ total: 40, names: zulu(30, 40) });
  });
});
