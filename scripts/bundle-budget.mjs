/**
 * Prints the bytes a first visit to /login sends over the wire (the page, the entry chunk and the login screen's
 * chunk with their static imports, their CSS and the fonts that CSS declares), as the server sends them: brotli,
 * from the `.br` files the build wrote (the page is compressed when the server starts). Fails the build when they
 * exceed the budget. Fonts: every face but the italic ones (no italic text on /login); the icon font is counted
 * though /login shows no icon. tests/e2e/wire.test.ts measures the same visit in Chromium. Then prints the service
 * worker's precache and fails when a large chunk's code is precached twice (in two chunks).
 *
 * Usage: node scripts/bundle-budget.mjs [dist/app]
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { brotliCompressSync } from 'node:zlib';

const BUDGET_KB = 250;
const dist = resolve(process.argv[2] ?? new URL('../dist/app/', import.meta.url).pathname);
const manifest = JSON.parse(readFileSync(resolve(dist, '.vite/manifest.json'), 'utf8'));

/** The chunk and everything it imports statically (what the browser fetches before running it). */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) closure(imported, seen);
  return seen;
}

/** Bytes on the wire: the `.br` twin when there is one (the server prefers it), else the file itself. */
function sent(file) {
  const path = resolve(dist, file);
  return existsSync(`${path}.br`) ? readFileSync(`${path}.br`).length : readFileSync(path).length;
}

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
const login = Object.keys(manifest).find((key) => key.endsWith('auth/login-screen.tsx'));
const chunks = [...closure(login, closure(entry))].map((key) => manifest[key]);
const js = chunks.map((chunk) => chunk.file);
const css = [...new Set(chunks.flatMap((chunk) => chunk.css ?? []))];
const fonts = css.flatMap((file) =>
  [...readFileSync(resolve(dist, file), 'utf8').matchAll(/@font-face\{([^}]*)\}/g)]
    .filter(([, face]) => !/font-style:\s*italic/.test(face))
    .flatMap(([, face]) => [...face.matchAll(/url\(["']?\/?(assets\/[^)"'?#]+\.woff2)/g)].map((m) => m[1])),
);
const page = readFileSync(resolve(dist, 'index.html'));
const rows = [
  // The server compresses the page as brotliCompressSync does by default (quality 11).
  { type: 'HTML', file: 'index.html', raw: page.length, wire: brotliCompressSync(page).length },
  ...[
    ['JS', js],
    ['CSS', css],
    ['font', fonts],
  ].flatMap(([type, files]) =>
    files.map((file) => ({ type, file, raw: readFileSync(resolve(dist, file)).length, wire: sent(file) })),
  ),
];

const kb = (bytes) => `${(bytes / 1024).toFixed(1).padStart(7)} KB`;
console.log(`Bytes on the wire for a first visit to /login (uncompressed -> sent):`);
for (const row of rows) console.log(`  ${row.type.padEnd(5)} ${row.file.padEnd(56)} ${kb(row.raw)} -> ${kb(row.wire)}`);
let total = 0;
for (const type of ['HTML', 'JS', 'CSS', 'font']) {
  const of = rows.filter((row) => row.type === type);
  const raw = of.reduce((sum, row) => sum + row.raw, 0);
  const wire = of.reduce((sum, row) => sum + row.wire, 0);
  total += wire;
  console.log(`  ${type.padEnd(5)} ${`${of.length} file(s)`.padEnd(56)} ${kb(raw)} -> ${kb(wire)}`);
}
console.log(`Total for /login: ${(total / 1024).toFixed(1)} KB sent (budget ${BUDGET_KB} KB)`);
if (total > BUDGET_KB * 1024) {
  console.error('Over the wire budget.');
  process.exit(1);
}

// The service worker precaches every built file (DESIGN.md 6), so a library in two chunks is downloaded and kept
// twice. The app and the layout worker both use cytoscape: the main build and the worker build each write a chunk
// of it, one file only when both load it alike (a dynamic import makes them byte for byte the same). A large chunk
// whose code shows up in another precached chunk fails the build.
const sw = readFileSync(resolve(dist, 'sw.js'), 'utf8');
const precached = [...sw.matchAll(/"url":"([^"]+)"/g)].map((match) => match[1]);
const sizes = new Map(precached.map((file) => [file, readFileSync(resolve(dist, file)).length]));
const precacheBytes = [...sizes.values()].reduce((sum, bytes) => sum + bytes, 0);
console.log(`Precache: ${precached.length} files, ${(precacheBytes / 1024).toFixed(1)} KB`);
const LARGE = 100 * 1024;
const SAMPLES = 40;
const large = precached.filter((file) => file.endsWith('.js') && sizes.get(file) >= LARGE);
const code = new Map(large.map((file) => [file, readFileSync(resolve(dist, file), 'utf8')]));
const twice = [];
for (const file of large) {
  const text = code.get(file);
  const samples = Array.from({ length: SAMPLES }, (_, i) => {
    const at = Math.floor(((i + 0.5) * (text.length - 120)) / SAMPLES);
    return text.slice(at, at + 120);
  });
  for (const other of large) {
    if (other === file || sizes.get(other) < sizes.get(file) / 2) continue;
    // Minified names differ between chunks; a tenth of the samples found word for word is the same library.
    const found = samples.filter((sample) => code.get(other).includes(sample)).length;
    if (found >= SAMPLES / 10) twice.push(`${file} is also in ${other} (${found}/${SAMPLES} samples)`);
  }
}
if (twice.length > 0) {
  console.error(`Precached twice:\n  ${twice.join('\n  ')}`);
  process.exit(1);
}
