import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../support/database.js';
import { openEventStream } from '../support/event-stream.js';
import { createService, seedWorkspace } from '../support/fixtures.js';
import { beacon, freePort, type BeaconProcess } from '../support/processes.js';
import { hostOf, startTestServer, type Member, type TestServer } from '../support/server.js';

/**
 * docs/decisions.md#feeds: on PostgreSQL every process LISTENs and a committed event is announced with NOTIFY, so a
 * stream held by one `beacon serve` process hears what another wrote. Two real processes on one schema.
 */
describe.runIf(TEST_ENGINE === 'postgres')('event streams across processes on PostgreSQL', () => {
  let server: TestServer;
  let alice: Member;
  let bob: Member;
  const processes: BeaconProcess[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    ({ teamAdmin: alice, teamMember: bob } = await seedWorkspace(server, { domain: 'liveco' }));
    await createService(server, alice, 'payments', { name: 'Billing', handle: 'billing' });
  });

  afterAll(async () => {
    for (const process of processes) process.child.kill('SIGKILL');
    await server.close();
  });

  async function serve(): Promise<{ process: BeaconProcess; port: number }> {
    const port = await freePort();
    const process = beacon(['serve'], {
      ...server.database.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BEACON_SHARED_RUNNER: '0',
      LOG_LEVEL: 'info',
    });
    processes.push(process);
    await process.waitFor(/Server listening/);
    return { process, port };
  }

  /** POST through a real process, as `actor`. */
  const post = (port: number, actor: Member, path: string, body: object) =>
    new Promise<number>((resolve, reject) => {
      const payload = JSON.stringify(body);
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          headers: {
            host: hostOf(actor.domain),
            authorization: `Bearer ${actor.token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  it('a stream on process B receives a notification written through process A; B stops promptly', async () => {
    const [a, b] = await Promise.all([serve(), serve()]);
    const stream = await openEventStream({ port: b.port, host: hostOf('liveco'), token: bob.token });
    try {
      expect(stream.status).toBe(200);
      const before = (
        JSON.parse((await stream.waitFor((event) => event.event === 'unread')).data) as { unread: number }
      ).unread;
      const started = Date.now();
      expect(await post(a.port, alice, '/api/services/billing/actions/change-health', { health: 'critical' })).toBe(
        200,
      );
      const arrived = await stream.waitFor((event) => event.event === 'notification', 2000);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(JSON.parse(arrived.data)).toMatchObject({ message: 'Billing: Health changed from Good to Critical' });
      await stream.waitFor((event) => event.event === 'unread' && JSON.parse(event.data).unread === before + 1);

      // SIGTERM with the stream open: the stream is ended and the process exits well within its drain time.
      const stopping = Date.now();
      b.process.child.kill('SIGTERM');
      expect(await b.process.exited).toBe(0);
      expect(Date.now() - stopping).toBeLessThan(5000);
    } finally {
      stream.close();
    }
  });
});
