/**
 * `npm start`: builds the web app only when its sources changed since the last build (a hash of them is kept
 * beside the build), then serves Beacon. A newcomer's first start builds once; later starts serve at once.
 * `npm run demo` (`--demo`): the same after seeding the demo workspace, with its local check target served and
 * private targets allowed, since the demo's checks probe that target on this machine.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
/** What the built app is made from. */
const INPUTS = [
  'src/app',
  'src/contract',
  'src/domain',
  'src/local',
  'src/sw',
  'src/workers',
  'public',
  'scripts',
  'vite.config.ts',
  'package-lock.json',
];
const stamp = join(root, 'dist/app/.build-inputs');

function files(path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

function inputsHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files))
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(root, file)));
  return hash.digest('hex');
}

const wanted = inputsHash();
const built = existsSync(join(root, 'dist/app/index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8');
if (built !== wanted) {
  console.log('Building the web app (its sources changed since the last build)...');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(stamp, wanted);
}
const env = { ...process.env };
if (process.argv.includes('--demo')) {
  env.BEACON_ALLOW_PRIVATE_TARGETS = '1';
  env.BEACON_DEMO_TARGET_PORT ??= String(Number(env.PORT || 8080) + 1);
  const seeded = spawnSync(process.execPath, [join(root, 'bin/beacon.js'), 'demo'], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  if (seeded.status !== 0) process.exit(seeded.status ?? 1);
}
const serve = spawn(process.execPath, [join(root, 'bin/beacon.js'), 'serve'], { cwd: root, env, stdio: 'inherit' });
// The server shuts down gracefully on SIGTERM and SIGINT: pass them on, and leave with its exit code.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => serve.kill(signal));
serve.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
