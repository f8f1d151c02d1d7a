/**
 * The memberships a process keeps per user (cache/viewer.ts): a read of them that was under way when they
 * were forgotten may predate the change that was forgotten, so it answers its request but is not kept. Kept, a
 * synced read (cache/catalogue-cache.ts) would trust it for good, and the user would not see their new team's
 * owner-only services until the process restarted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CachedCaller } from '../../src/server/cache/caller-cache.js';
import { forgetViewer, viewerOf } from '../../src/server/cache/viewer.js';
import { seedWorkspace, workspaceIdOf, type SeededWorkspace } from '../support/fixtures.js';
import { type TestServer, startTestServer } from '../support/server.js';

let server: TestServer;
let cast: SeededWorkspace;
let caller: CachedCaller;
let teamId: string;

beforeAll(async () => {
  server = await startTestServer();
  cast = await seedWorkspace(server);
  const workspaceId = await workspaceIdOf(server, cast.domain);
  const { db } = server.ctx.database;
  const workspace = await db
    .selectFrom('workspaces')
    .selectAll()
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  const user = await db.selectFrom('users').selectAll().where('id', '=', cast.guest.id).executeTakeFirstOrThrow();
  caller = { workspace, user };
  teamId = (await db.selectFrom('teams').select('id').where('handle', '=', 'payments').executeTakeFirstOrThrow()).id;
});
afterAll(() => server.close());

describe('kept memberships', () => {
  it('keeps no read that was under way when the user’s memberships were forgotten', async () => {
    forgetViewer(server.ctx, caller.user.id);
    const reading = viewerOf(server.ctx, caller);
    // A membership write forgets the user while the read above is under way.
    forgetViewer(server.ctx, caller.user.id);
    expect((await reading).teams.has(teamId)).toBe(false);
    await server.ctx.database.db
      .insertInto('team_members')
      .values({
        workspace_id: caller.workspace.id,
        team_id: teamId,
        user_id: caller.user.id,
        role: 'member',
        created_at: new Date().toISOString(),
      })
      .execute();
    // Synced: any memberships still held are trusted. The read under way was not kept, so they are read again.
    expect((await viewerOf(server.ctx, caller, true)).teams.has(teamId)).toBe(true);
  });

  it('keeps a read nothing forgot meanwhile', async () => {
    forgetViewer(server.ctx, caller.user.id);
    const first = await viewerOf(server.ctx, caller);
    const again = await viewerOf(server.ctx, caller, true);
    expect(again.teams).toBe(first.teams);
  });
});
