import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../src/contract/alerts.js';
import { createClient, createService, seedWorkspace, type SeededWorkspace } from '../support/fixtures.js';
import { callAs, json, startTestServer, type TestServer } from '../support/server.js';

/** Issue 50: `beacon alerts list|ack|resolve`, a real process against a listening server. */
let server: TestServer;
let cast: SeededWorkspace;
let credentials: string[];

const TSX = pathToFileURL(join(process.cwd(), 'node_modules/tsx/dist/loader.mjs')).href;

const beacon = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', TSX, join(process.cwd(), 'src/cli.ts'), ...args],
      { env: { ...process.env, BEACON_CLIENT_ID: credentials[0], BEACON_CLIENT_SECRET: credentials[1] } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

beforeAll(async () => {
  server = await startTestServer();
  cast = await seedWorkspace(server);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const made = await createClient(server, cast.teamAdmin, 'payments', {
    name: 'Pager bot',
    scopes: ['beacon.alert.read', 'beacon.alert.write'],
  });
  const client = made.client as unknown as { client_id: string; client_secret: string };
  credentials = [client.client_id, client.client_secret];
  await createService(server, cast.teamAdmin, 'payments', { name: 'Ledger', handle: 'ledger' });
  await callAs(server, cast.teamAdmin, 'POST', '/api/services/ledger/notices', {
    type: 'incident',
    title: 'Ledger down',
    message: 'Looking',
    health: 'critical',
  });
});
afterAll(() => server?.close());

const url = () => `http://${cast.domain}.localhost:${(server.app.server.address() as AddressInfo).port}`;

describe('beacon alerts', () => {
  it('lists the open alerts, acknowledges one and resolves it with a reason', async () => {
    const [alert] = json<Alert[]>(await callAs(server, cast.teamAdmin, 'GET', '/api/alerts'));
    const listed = await beacon(['alerts', 'list', '--url', url()]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(alert!.id);
    expect(listed.stdout).toMatch(/open\s+critical\s+ledger \(payments\)/);

    const acked = await beacon(['alerts', 'ack', alert!.id, '--url', url()]);
    expect(acked.code, acked.stderr).toBe(0);
    expect(acked.stdout).toContain('Acknowledged Ledger');
    const again = await beacon(['alerts', 'ack', alert!.id, '--url', url()]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('This alert is already acknowledged');

    const resolved = await beacon(['alerts', 'resolve', alert!.id, '--reason', 'Rolled back', '--url', url()]);
    expect(resolved.code, resolved.stderr).toBe(0);
    const after = json<Alert>(await callAs(server, cast.teamAdmin, 'GET', `/api/alerts/${alert!.id}`));
    expect(after).toMatchObject({ state: 'resolved', reason: 'Rolled back' });
    expect((await beacon(['alerts', 'list', '--url', url()])).stdout).toBe('No alerts.\n');
  });
});
