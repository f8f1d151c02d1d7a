/**
 * `npm run build`, after vite: writes dist/app/login.html, the app's page with the login card already in it
 * (src/app/auth/login-prerender.tsx). The server answers a workspace's /login with it.
 *
 * Usage: node --import tsx scripts/prerender-login.tsx [dist/app]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerenderedLoginCard } from '../src/app/auth/login-prerender.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dist = resolve(process.argv[2] ?? join(ROOT, 'dist/app'));
const EMPTY_ROOT = '<div id="root"></div>';

const card = prerenderedLoginCard();
const index = readFileSync(join(dist, 'index.html'), 'utf8');
if (!index.includes(EMPTY_ROOT)) throw new Error(`dist/app/index.html has no ${EMPTY_ROOT} to fill`);
writeFileSync(join(dist, 'login.html'), index.replace(EMPTY_ROOT, `<div id="root">${card}</div>`));
console.log(`login.html: the login card prerendered (${card.length} characters)`);
