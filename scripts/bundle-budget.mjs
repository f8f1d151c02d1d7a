/**
 * Prints the gzipped JavaScript a first visit to /login downloads (the entry chunk, its static imports and
 * the login screen's chunk) and fails the build when it exceeds the budget (200 KB, issue "installable web app").
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 200;
const dist = new URL('../dist/app/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));

/** The chunk and everything it imports statically (what the browser fetches before running it). */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) closure(imported, seen);
  return seen;
}

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
const login = Object.keys(manifest).find((key) => key.endsWith('auth/login-screen.tsx'));
const files = [...closure(login, closure(entry))]
  .map((key) => manifest[key].file)
  .filter((file) => file.endsWith('.js'));
let total = 0;
for (const file of files) {
  const size = gzipSync(readFileSync(new URL(file, dist))).length;
  total += size;
  console.log(`  ${file.padEnd(48)} ${(size / 1024).toFixed(1).padStart(7)} KB gzip`);
}
console.log(`JavaScript to render /login: ${(total / 1024).toFixed(1)} KB gzip (budget ${BUDGET_KB} KB)`);
if (total > BUDGET_KB * 1024) {
  console.error('Over the bundle budget.');
  process.exit(1);
}
