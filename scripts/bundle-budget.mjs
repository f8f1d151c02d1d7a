/**
 * Prints the bytes a first visit to /login sends over the wire (the page, the entry chunk and the login screen's
 * chunk with their static imports, their CSS and the fonts that CSS declares), as the server sends them: brotli,
 * from the `.br` files the build wrote (the page is compressed when the server starts). Fails the build when they
 * exceed the budget. Fonts: every face but the italic ones (no italic text on /login); the icon font is counted
 * though /login shows no icon. tests/e2e/wire.test.ts measures the same visit in Chromium.
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
