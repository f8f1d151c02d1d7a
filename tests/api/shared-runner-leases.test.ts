import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../support/database.js';
import { createService, createTeam } from '../support/fixtures.js';
import { beacon, freePort, type BeaconProcess } from '../support/processes.js';
import { callAs, registerWorkspace, startTestServer, type TestServer } from '../support/server.js';

/**
 * docs/decisions.md#runtime-and-dependencies and the issue: with DATABASE_URL, several `beacon serve` processes share
 * the checks through leases and no check runs twice for one slot. Two real processes on one PostgreSQL schema probe 12
 * checks at 1 s against a local target that logs every hit; then one stops and the other takes its checks over.
 */
const CHECKS = 12;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(TEST_ENGINE === 'postgres')('shared runner leases on PostgreSQL', () => {
  let server: TestServer;
  let target: Server;
  const hits = new Map<string, number[]>();
  const processes: BeaconProcess[] = [];

  beforeAll(async () => {
    target = createServer((request, response) => {
      const list = hits.get(request.url ?? '') ?? [];
      list.push(Date.now());
      hits.set(request.url ?? '', list);
      response.end('ok');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const port = (target.address() as AddressInfo).port;
    server = await startTestServer();
    const owner = await registerWorkspace(server, 'leaseco');
    await createTeam(server, owner, { name: 'Ops', handle: 'ops' });
    await createService(server, owner, 'ops', { name: 'Edge', handle: 'edge' });
    for (let i = 0; i < CHECKS; i++) {
      const created = await callAs(server, owner, 'POST', '/api/services/edge/health-checks', {
        name: `Check ${i}`,
        endpoint: `http://127.0.0.1:${port}/c/${i}`,
        frequency: 1,
        timeout: 1,
      });
      expect(created.statusCode).toBe(201);
    }
  });

  afterAll(async () => {
    for (const process of processes) process.child.kill('SIGKILL');
    await new Promise((resolve) => target.close(resolve));
    await server.close();
  });

  async function serve(): Promise<BeaconProcess> {
    const port = await freePort();
    const process = beacon(['serve'], {
      ...server.database.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BEACON_ALLOW_PRIVATE_TARGETS: '1',
      LOG_LEVEL: 'info',
    });
    processes.push(process);
    await process.waitFor(/Server listening/);
    return process;
  }

  const owners = async () => {
    const rows = await server.ctx.database.db
      .selectFrom('health_checks')
      .select(['lease_owner', (eb) => eb.fn.countAll<string>().as('n')])
      .groupBy('lease_owner')
      .execute();
    return rows.filter((row) => row.lease_owner !== null).map((row) => Number(row.n));
  };

  /** The smallest gap between two hits of one check, over every check, from `since`. */
  const smallestGap = (since: number) => {
    let smallest = Infinity;
    for (const times of hits.values()) {
      const recent = times.filter((time) => time >= since);
      for (let i = 1; i < recent.length; i++) smallest = Math.min(smallest, recent[i]! - recent[i - 1]!);
    }
    return smallest;
  };

  it('splits the checks between two processes, never runs one twice for a slot, and hands over on stop', async () => {
    const first = await serve();
    const second = await serve();
    const started = Date.now();
    // Both hold a share within a few reloads (5 s each).
    const deadline = Date.now() + 25_000;
    let shares: number[] = [];
    while (Date.now() < deadline) {
      shares = await owners();
      if (shares.length === 2 && shares.every((n) => n === CHECKS / 2)) break;
      await sleep(500);
    }
    expect(shares).toEqual([CHECKS / 2, CHECKS / 2]);
    const shared = Date.now();
    await sleep(6000);
    // Every check ran about once a second, and never twice for one slot (its slots are 1 s apart).
    for (let i = 0; i < CHECKS; i++) {
      const recent = (hits.get(`/c/${i}`) ?? []).filter((time) => time >= shared);
      expect(recent.length, `check ${i}`).toBeGreaterThanOrEqual(4);
      expect(recent.length, `check ${i}`).toBeLessThanOrEqual(8);
    }
    expect(smallestGap(started)).toBeGreaterThan(500);

    // A clean stop gives the leases back; the other process takes every check within a reload or two.
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const stopped = Date.now();
    const handover = Date.now() + 15_000;
    while (Date.now() < handover && (await owners()).join() !== String(CHECKS)) await sleep(500);
    expect(await owners()).toEqual([CHECKS]);
    await sleep(3000);
    const after = Date.now() - 2500;
    for (let i = 0; i < CHECKS; i++) {
      expect(
        (hits.get(`/c/${i}`) ?? []).some((time) => time >= after),
        `check ${i} after the handover`,
      ).toBe(true);
    }
    expect(smallestGap(stopped - 2000)).toBeGreaterThan(500);
    expect(first.child.exitCode).toBeNull();
  }, 90_000);
});
