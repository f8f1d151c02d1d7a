#!/usr/bin/env node
/**
 * Completes package-lock.json with the per-platform optional packages npm leaves out (npm/cli#4828: a lock made
 * on one platform lacks rollup's and unrs-resolver's binaries for the others, and `npm ci` then refuses the lock
 * as out of sync). Each missing one gets an entry with its version and its platform (os, cpu, libc), so `npm ci`
 * accepts the lock and skips them on every other platform; no integrity, since they are never fetched here.
 * Run after `npm install` changes the lock: `node scripts/complete-lock.mjs`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const CPUS = ['arm64', 'arm', 'x64', 'ia32', 'loong64', 'ppc64', 's390x', 'riscv64'];
const OSES = {
  win32: 'win32',
  darwin: 'darwin',
  linux: 'linux',
  android: 'android',
  freebsd: 'freebsd',
  openbsd: 'openbsd',
  openharmony: 'openharmony',
};

/** os, cpu and libc from a binary package's name, e.g. `rollup-linux-arm-musleabihf`. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((part) => part in OSES);
  const cpu = parts.find((part) => CPUS.includes(part));
  if (!os || !cpu) return null;
  const libc = parts.some((part) => part.startsWith('musl')) ? 'musl' : os === 'linux' ? 'glibc' : null;
  return { os: OSES[os], cpu, libc };
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (lock.packages[key]) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    lock.packages[key] = {
      version,
      cpu: [platform.cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(platform.libc ? { libc: [platform.libc] } : {}),
      optional: true,
      os: [platform.os],
    };
    added++;
    void path;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform packages added`);
