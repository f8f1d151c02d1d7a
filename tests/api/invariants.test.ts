/**
 * Rules that must hold under concurrency (issue 10, item 2): a workspace keeps an owner and a team keeps an
 * admin however many requests race. Each race sends its requests at once (`Promise.all` over `app.inject`: on
 * PostgreSQL each runs on its own pooled connection, their queries interleave) and is repeated ROUNDS times.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../support/database.js';
import { addMember, addToTeam, createTeam } from '../support/fixtures.js';
import { callAs, registerWorkspace, startTestServer, type Member, type TestServer } from '../support/server.js';

const ROUNDS = 20;

let server: TestServer;
let founder: Member;
/** The two owners of the first race (both owners again after it). */
let ann: Member;
let ben: Member;

beforeAll(async () => {
  server = await startTestServer();
  founder = await registerWorkspace(server, 'racers');
});
afterAll(() => server.close());

async function ownerCount(): Promise<number> {
  const rows = await server.ctx.database.db.selectFrom('users').select('id').where('role', '=', 'owner').execute();
  return rows.length;
}

async function teamAdminCount(teamId: string): Promise<number> {
  const rows = await server.ctx.database.db
    .selectFrom('team_members')
    .select('user_id')
    .where('team_id', '=', teamId)
    .where('role', '=', 'admin')
    .execute();
  return rows.length;
}

const statuses = (responses: { statusCode: number }[]) => responses.map((r) => r.statusCode).sort();

describe('the last owner', () => {
  it('survives two owners demoting each other at once', async () => {
    // The founder is the super admin who repairs the workspace between rounds; the two racers are its owners.
    ann = await addMember(server, founder, 'ann', 'owner');
    ben = await addMember(server, founder, 'ben', 'owner');
    await callAs(server, founder, 'POST', `/api/users/${founder.id}/actions/change-role`, { role: 'admin' });
    for (let round = 0; round < ROUNDS; round++) {
      const race = await Promise.all([
        callAs(server, ann, 'POST', `/api/users/${ben.id}/actions/change-role`, { role: 'admin' }),
        callAs(server, ben, 'POST', `/api/users/${ann.id}/actions/change-role`, { role: 'admin' }),
      ]);
      expect(await ownerCount(), `round ${round}`).toBe(1);
      // One wins; the other is refused: 409 (last owner) or 403 (no longer an owner itself).
      const [won, lost] = statuses(race);
      expect(won).toBe(200);
      expect([403, 409]).toContain(lost);
      const winner = race[0]!.statusCode === 200 ? ann : ben;
      const loser = winner === ann ? ben : ann;
      const repair = await callAs(server, winner, 'POST', `/api/users/${loser.id}/actions/change-role`, {
        role: 'owner',
      });
      expect(repair.statusCode).toBe(200);
    }
  });

  it('survives one owner deleted while the other demotes the deleter', async () => {
    // The founder (the super admin, who alone deletes users) becomes the only owner again.
    await callAs(server, ann, 'POST', `/api/users/${founder.id}/actions/change-role`, {
      role: 'owner',
    });
    for (const handle of ['ann', 'ben'])
      await callAs(server, founder, 'POST', `/api/users/${handle}/actions/change-role`, { role: 'member' });
    for (let round = 0; round < ROUNDS; round++) {
      const cy = await addMember(server, founder, `cy-${round}`, 'owner');
      const race = await Promise.all([
        callAs(server, founder, 'DELETE', `/api/users/${cy.id}`),
        callAs(server, cy, 'POST', `/api/users/${founder.id}/actions/change-role`, { role: 'member' }),
      ]);
      expect(await ownerCount(), `round ${round}`).toBe(1);
      expect(statuses(race)).not.toEqual([200, 204]);
      if (race[1]!.statusCode === 200) {
        // cy won: the founder is made an owner again and cy steps down, so each round starts alike.
        const url = `/api/users/${founder.id}/actions/change-role`;
        expect((await callAs(server, cy, 'POST', url, { role: 'owner' })).statusCode).toBe(200);
        const down = await callAs(server, founder, 'POST', `/api/users/${cy.id}/actions/change-role`, {
          role: 'member',
        });
        expect(down.statusCode).toBe(200);
      }
    }
  });
});

describe('the last team admin', () => {
  it('survives two admins leaving at once', async () => {
    const dee = await addMember(server, founder, 'dee');
    const eve = await addMember(server, founder, 'eve');
    const team = await createTeam(server, dee, { name: 'Racing', handle: 'racing' });
    await addToTeam(server, dee, 'racing', eve, 'admin');
    for (let round = 0; round < ROUNDS; round++) {
      const race = await Promise.all([
        callAs(server, dee, 'DELETE', `/api/teams/racing/members/${dee.handle}`),
        callAs(server, eve, 'DELETE', `/api/teams/racing/members/${eve.handle}`),
      ]);
      expect(await teamAdminCount(team.id), `round ${round}`).toBe(1);
      expect(statuses(race)).toEqual([204, 409]);
      const [stayed, left] = race[0]!.statusCode === 204 ? [eve, dee] : [dee, eve];
      await addToTeam(server, stayed, 'racing', left, 'admin');
    }
  });

  it('survives two admins demoting each other at once', async () => {
    const fay = await addMember(server, founder, 'fay');
    const gil = await addMember(server, founder, 'gil');
    const team = await createTeam(server, fay, { name: 'Relay', handle: 'relay' });
    await addToTeam(server, fay, 'relay', gil, 'admin');
    for (let round = 0; round < ROUNDS; round++) {
      const race = await Promise.all([
        callAs(server, fay, 'PATCH', `/api/teams/relay/members/${gil.handle}`, { role: 'member' }),
        callAs(server, gil, 'PATCH', `/api/teams/relay/members/${fay.handle}`, { role: 'member' }),
      ]);
      expect(await teamAdminCount(team.id), `round ${round}`).toBe(1);
      // The loser is refused: 409 (last admin), or 403 when its own demotion was already seen.
      const [won, lost] = statuses(race);
      expect(won).toBe(200);
      expect([403, 409]).toContain(lost);
      const [winner, loser] = race[0]!.statusCode === 200 ? [fay, gil] : [gil, fay];
      const repair = await callAs(server, winner, 'PATCH', `/api/teams/relay/members/${loser.handle}`, {
        role: 'admin',
      });
      expect(repair.statusCode).toBe(200);
    }
  });
});

/**
 * Another process (here a worker thread: better-sqlite3 waits for a lock synchronously, blocking this thread)
 * holds SQLite's write lock for a moment. A guarded transaction begins IMMEDIATE and waits its turn; one begun
 * DEFERRED would read first and then fail to write on a snapshot the other process had made stale.
 */
describe.runIf(TEST_ENGINE === 'sqlite')('SQLite write lock held by another process', () => {
  it('waits for it, then decides on what the other process wrote', async () => {
    const holder = new Worker(
      `const Database = require('better-sqlite3');
       const { parentPort, workerData } = require('node:worker_threads');
       const db = new Database(workerData.file);
       db.exec('begin immediate');
       db.prepare("update users set name = name || '!' where handle = 'ann'").run();
       parentPort.postMessage('locked');
       setTimeout(() => { db.exec('commit'); db.close(); parentPort.postMessage('done'); }, 300);`,
      { eval: true, workerData: { file: join(server.database.dataDir, 'beacon.sqlite') } },
    );
    const messages: string[] = [];
    const done = new Promise<void>((resolve, reject) => {
      holder.on('message', (message: string) => {
        messages.push(message);
        if (message === 'done') resolve();
      });
      holder.on('error', reject);
    });
    await new Promise<void>((resolve) => holder.once('message', () => resolve()));
    const response = await callAs(server, founder, 'POST', `/api/users/${ann.id}/actions/change-role`, {
      role: 'guest',
    });
    await done;
    await holder.terminate();
    expect(response.statusCode).toBe(200);
    expect(messages).toEqual(['locked', 'done']);
  });
});
