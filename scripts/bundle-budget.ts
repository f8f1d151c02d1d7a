/**
 * `npm run build`'s budget: prints the bytes a cold visit to /login receives, counted as Chromium counts them
 * (every response, headers included, no cache, no service worker: scripts/login-visit.ts says what the visit
 * fetches), and fails above LOGIN_BUDGET_KB. The responses are asked of the real server: a Beacon started on this
 * build with a fresh database and the demo workspace (`beacon serve`, `beacon demo`), as tests/e2e/wire.test.ts
 * starts one to measure the same visit in Chromium. Then prints the service worker's precache and fails when a
 * large chunk's code is precached twice (in two chunks).
 *
 * Usage: node --import tsx scripts/bundle-budget.ts [dist/app]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOGIN_BUDGET_KB, loginRequests, receiveAll, totalBytes, type Kind, type Received } from './login-visit.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORKSPACE = 'demo';
const dist = resolve(process.argv[2] ?? join(ROOT, 'dist/app'));

function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Runs `beacon <args>` with `env`; resolves with its exit code and output. */
function beacon(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [join(ROOT, 'bin/beacon.js'), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number>((done) => child.on('exit', (code) => done(code ?? 1)));
  return { child, exited, output: () => output };
}

/** `beacon serve` on this build, on a fresh embedded database with the demo workspace; resolves once it answers. */
async function startServer(): Promise<{ port: number; stop(): Promise<void> }> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'beacon-budget-'));
  // The settings of the calling shell (another database, another base domain) are left out.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('BEACON_') && name !== 'DATABASE_URL'),
  );
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    BEACON_DATA_DIR: dataDir,
    BEACON_WEB_DIR: dist,
    LOG_LEVEL: 'warn',
  });
  const server = beacon(['serve'], env);
  // Not left serving should this script die half-way.
  process.once('exit', () => server.child.kill());
  const stop = async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 60_000;
    while (
      !(await fetch(`http://127.0.0.1:${port}/api/livez`).then(
        (answer) => answer.ok,
        () => false,
      ))
    ) {
      if (server.child.exitCode !== null || Date.now() > deadline)
        throw new Error(`Beacon did not start:\n${server.output()}`);
      await new Promise((done) => setTimeout(done, 100));
    }
    const demo = beacon(['demo'], env);
    if ((await demo.exited) !== 0) throw new Error(`beacon demo failed:\n${demo.output()}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, stop };
}

const server = await startServer();
let received: Received[];
try {
  received = await receiveAll(server.port, `${WORKSPACE}.localhost:${server.port}`, loginRequests(dist, WORKSPACE));
} finally {
  await server.stop();
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1).padStart(6)} KB`;
console.log('A cold visit to /login, as Chromium counts it (body as sent + status line and headers):');
for (const one of received) {
  const request = `${one.method} ${one.path}`.padEnd(60);
  console.log(`  ${one.kind.padEnd(6)} ${request} ${one.status} ${kb(one.bodyBytes)} + ${kb(one.headerBytes)}`);
}
const kinds: Kind[] = ['page', 'script', 'style', 'font', 'image', 'api'];
const byKind = kinds
  .map((kind) => [kind, totalBytes(received.filter((one) => one.kind === kind))] as const)
  .map(([kind, bytes]) => `${kind} ${(bytes / 1024).toFixed(1)}`)
  .join(', ');
const headers = received.reduce((sum, one) => sum + one.headerBytes, 0);
const total = totalBytes(received);
console.log(
  `Total for /login: ${(total / 1024).toFixed(1)} KB in ${received.length} responses (${byKind}; headers ` +
    `${(headers / 1024).toFixed(1)}), budget ${LOGIN_BUDGET_KB} KB`,
);
if (total > LOGIN_BUDGET_KB * 1024) {
  console.error('Over the wire budget.');
  process.exit(1);
}

// The service worker precaches every built file but the heavy lazy chunks (docs/decisions.md#offline), so a library in
// two chunks is downloaded and kept twice. The app and the layout worker both use cytoscape: the main build and the
// worker build each write a chunk of it, one file only when both load it alike (a dynamic import makes them byte for
// byte the same). A large chunk whose code shows up in another precached chunk fails the build.
const sw = readFileSync(resolve(dist, 'sw.js'), 'utf8');
const precached = [...sw.matchAll(/"url":"([^"]+)"/g)].map((match) => match[1]!);
const sizes = new Map(precached.map((file) => [file, readFileSync(resolve(dist, file)).length]));
const precacheBytes = [...sizes.values()].reduce((sum, bytes) => sum + bytes, 0);
console.log(`Precache: ${precached.length} files, ${(precacheBytes / 1024).toFixed(1)} KB`);
const LARGE = 100 * 1024;
const SAMPLES = 40;
const large = precached.filter((file) => file.endsWith('.js') && sizes.get(file)! >= LARGE);
const code = new Map(large.map((file) => [file, readFileSync(resolve(dist, file), 'utf8')]));
const twice: string[] = [];
for (const file of large) {
  const text = code.get(file)!;
  const samples = Array.from({ length: SAMPLES }, (_, i) => {
    const at = Math.floor(((i + 0.5) * (text.length - 120)) / SAMPLES);
    return text.slice(at, at + 120);
  });
  for (const other of large) {
    if (other === file || sizes.get(other)! < sizes.get(file)! / 2) continue;
    // Minified names differ between chunks; a tenth of the samples found word for word is the same library.
    const found = samples.filter((sample) => code.get(other)!.includes(sample)).length;
    if (found >= SAMPLES / 10) twice.push(`${file} is also in ${other} (${found}/${SAMPLES} samples)`);
  }
}
if (twice.length > 0) {
  console.error(`Precached twice:\n  ${twice.join('\n  ')}`);
  process.exit(1);
}
