import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProfileEvents, type FeedProfile } from '../../src/server/db/repositories/events.js';
import { seedWorkspace, workspaceIdOf } from '../support/fixtures.js';
import { random } from '../support/random.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Issue 14: a feed page is looked for first among the workspace's newest events (a window scan, from 8 profiles),
 * then merged from each watched profile's own index range below the window, reading only a few rows of each (a
 * threshold merge in two rounds). Whatever the spread of events over profiles (one busy profile, many quiet ones,
 * equal times, other trials' events around them), every page must be exactly the oracle's: all the profiles'
 * events sorted newest first (time, then id), cut after the cursor.
 */
let server: TestServer;
let workspaceId: string;

beforeAll(async () => {
  server = await startTestServer();
  await seedWorkspace(server, { domain: 'mergeco' });
  workspaceId = await workspaceIdOf(server, 'mergeco');
});
afterAll(() => server.close());

const newestFirst = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
  a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1;

describe('the feed merge', () => {
  it('pages exactly as sorting every event would, over random spreads, page sizes and cursors', async () => {
    const { db } = server.ctx.database;
    for (let trial = 0; trial < 12; trial++) {
      const next = random(1000 + trial);
      const profileCount = 1 + Math.floor(next() * 40);
      const profiles: FeedProfile[] = Array.from({ length: profileCount }, (_, i) => ({
        type: 'service',
        id: `t${trial}-p${i}`,
        handle: `p${i}`,
        name: `P ${i}`,
        icon_asset_id: null,
      }));
      // Skewed: some profiles busy, most quiet, a few silent; times drawn from a small set so many are equal.
      const weights: number[] = profiles.map(() => (next() < 0.2 ? 20 : next() < 0.2 ? 0 : 1));
      const total = weights.reduce((a, b) => a + b, 0);
      const eventCount = total === 0 ? 0 : Math.floor(next() * 300);
      const rows = Array.from({ length: eventCount }, (_, i) => {
        let pick = next() * total;
        let profile = 0;
        while (pick >= weights[profile]! && profile < profiles.length - 1) pick -= weights[profile++]!;
        return {
          id: `t${trial}-e${String(i).padStart(4, '0')}-${Math.floor(next() * 1e6)}`,
          workspace_id: workspaceId,
          profile_type: 'service' as const,
          profile_id: profiles[profile]!.id,
          type: 'service.updated',
          actor_id: null,
          data: '{}',
          created_at: new Date(Date.UTC(2026, 0, 1, 0, Math.floor(next() * 60))).toISOString(),
        };
      });
      for (let i = 0; i < rows.length; i += 100)
        await db
          .insertInto('events')
          .values(rows.slice(i, i + 100))
          .execute();
      // Only some of the profiles are watched: the others' events must never show.
      const watched = profiles.filter(() => next() < 0.8);
      const watchedIds = new Set(watched.map((profile) => profile.id));
      const oracle = rows
        .filter((row) => watchedIds.has(row.profile_id))
        .sort(newestFirst)
        .map((row) => row.id);

      const limit = 1 + Math.floor(next() * 30);
      const paged: string[] = [];
      let cursor: string | undefined;
      for (let guard = 0; guard < 400; guard++) {
        const page = await listProfileEvents(db, workspaceId, watched, { cursor, limit });
        expect(page.length, `trial ${trial}: page size`).toBeLessThanOrEqual(limit);
        paged.push(...page.map((event) => event.id));
        if (page.length < limit) break;
        cursor = page.at(-1)!.id;
      }
      expect(paged, `trial ${trial}: ${profileCount} profiles, ${eventCount} events, pages of ${limit}`).toEqual(
        oracle,
      );
    }
  });
});
