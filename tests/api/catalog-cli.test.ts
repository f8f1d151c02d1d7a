import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/contract/catalogue.js';
import { createClient, seedWorkspace, type SeededWorkspace } from '../support/fixtures.js';
import { callAs, json, startTestServer, type TestServer } from '../support/server.js';

/** Issue 29: `beacon catalog plan|apply|export` as CI runs it, a real process against a listening server. */
let server: TestServer;
let cast: SeededWorkspace;
let dir: string;
let credentials: string[];

/** tsx by its file: the CLI runs in a temporary folder, where no package resolves. */
const TSX = pathToFileURL(join(process.cwd(), 'node_modules/tsx/dist/loader.mjs')).href;

const beacon = (args: string[], cwd = dir) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', TSX, join(process.cwd(), 'src/cli.ts'), ...args],
      { cwd, env: { ...process.env, BEACON_CLIENT_ID: credentials[0], BEACON_CLIENT_SECRET: credentials[1] } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

beforeAll(async () => {
  server = await startTestServer();
  cast = await seedWorkspace(server);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const made = await createClient(server, cast.admin, 'payments', {
    name: 'CI',
    scopes: ['beacon.catalog.manage'],
  });
  const client = made.client as unknown as { client_id: string; client_secret: string };
  credentials = [client.client_id, client.client_secret];
  dir = await mkdtemp(join(tmpdir(), 'beacon-catalog-'));
});
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const url = () => `http://${cast.domain}.localhost:${(server.app.server.address() as AddressInfo).port}`;

describe('beacon catalog', () => {
  it('plans and applies files, printing the plan, exiting 2 when an entity is in error', async () => {
    await writeFile(
      join(dir, 'catalog-info.yaml'),
      `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: ledger
  title: Ledger
spec:
  type: service
  lifecycle: production
  owner: payments
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: broken
spec:
  type: service
  lifecycle: retired
  owner: payments
`,
    );
    const planned = await beacon(['catalog', 'plan', 'catalog-info.yaml', '--url', url()]);
    expect(planned.stderr).toBe('');
    expect(planned.stdout).toContain('+ create service ledger (catalog-info.yaml:1)');
    expect(planned.stdout).toContain('catalog-info.yaml:17: spec.lifecycle "retired" is not one Beacon knows');
    expect(planned.stdout).toContain('Plan: 1 create, 1 error');
    expect(planned.code).toBe(2);
    expect((await callAs(server, cast.admin, 'GET', '/api/services/ledger')).statusCode).toBe(404);

    // Only the good entity now.
    const [good] = (await readFile(join(dir, 'catalog-info.yaml'), 'utf8')).split('---');
    await writeFile(join(dir, 'catalog-info.yaml'), good!);
    const applied = await beacon(['catalog', 'apply', 'catalog-info.yaml', '--url', url()]);
    expect(applied.stdout).toContain('Applied plan');
    expect(applied.code).toBe(0);
    expect(json<Service>(await callAs(server, cast.admin, 'GET', '/api/services/ledger'))).toMatchObject({
      name: 'Ledger',
      stage: 'live',
    });
  });

  it('exports the workspace, and planning the export answers no changes', async () => {
    const exported = await beacon(['catalog', 'export', '--dir', 'export', '--url', url()]);
    expect(exported.code).toBe(0);
    expect(await readdir(join(dir, 'export', 'teams'))).toEqual(['payments.yaml']);
    const again = await beacon([
      'catalog',
      'plan',
      'catalog-info.yaml',
      'teams/payments.yaml',
      '--root',
      'export',
      '--url',
      url(),
    ]);
    expect(again.stdout).toMatch(/^No changes\./m);
    expect(again.code).toBe(0);
  });

  it('plans files named from another folder: paths from their git work tree, else their common folder', async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), 'beacon-elsewhere-'));
    try {
      // The files of the first test, from a folder that holds none of them: named as from their own folder.
      const same = await beacon(['catalog', 'plan', join(dir, 'catalog-info.yaml'), '--url', url()], elsewhere);
      expect(same.stderr).toBe('');
      expect(same.stdout).toMatch(/^No changes\./m);
      expect(same.code).toBe(0);
      // In a git work tree, its paths, whichever folder of it the files are in.
      await mkdir(join(dir, 'repo', '.git'), { recursive: true });
      await mkdir(join(dir, 'repo', 'services'), { recursive: true });
      await writeFile(
        join(dir, 'repo', 'services', 'billing.yaml'),
        'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: billing\nspec:\n  lifecycle: production\n  owner: payments\n',
      );
      const repo = await beacon(
        ['catalog', 'plan', join(dir, 'repo', 'services', 'billing.yaml'), '--url', url()],
        elsewhere,
      );
      expect(repo.stderr).toBe('');
      expect(repo.stdout).toContain('+ create service billing (services/billing.yaml:1)');
      expect(repo.code).toBe(0);
      // --root still says where paths start, and a file outside it is refused.
      const outside = await beacon(
        ['catalog', 'plan', join(dir, 'catalog-info.yaml'), '--root', 'repo', '--url', url()],
        dir,
      );
      expect(outside.code).toBe(1);
      expect(outside.stderr).toContain('is outside the root repo');
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('fails with the server’s word when the credentials are wrong', async () => {
    credentials = [credentials[0]!, 'wrong-secret'];
    const refused = await beacon(['catalog', 'plan', 'catalog-info.yaml', '--url', url()]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('POST /api/token: 401');
  });
});
