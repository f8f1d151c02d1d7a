import { randomBytes, randomUUID } from 'node:crypto';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import Fastify from 'fastify';
import { SignJWT } from 'jose';
import { pino } from 'pino';
import { buildApp } from '../src/server/app.js';
import { closeContext, createContext } from '../src/server/bootstrap.js';
import { loadConfig } from '../src/server/config.js';
import { sha256 } from '../src/server/services/secrets.js';
import { freshDatabase } from '../tests/support/database.js';
import { DOMAIN, registerAndLogIn, settle } from '../tests/bench/harness.js';
import { seedCatalogue } from '../tests/bench/seed-catalogue.js';

const PATH = process.env.P ?? 'service';
const database = await freshDatabase('sqlite');
const config = loadConfig({ ...database.env, PORT: '8080', LOG_LEVEL: 'silent' });
const ctx = await createContext(config, pino({ level: 'silent' }));
const app = await buildApp(ctx);
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as any).port;
const host = `${DOMAIN}.localhost:${port}`;
const { workspaceId, ownerId } = await registerAndLogIn(app, ctx, host);
const { users, services } = await seedCatalogue(ctx, workspaceId, ownerId, 10000);
const now = new Date();
const sessions = users.slice(0, 2000).map((user: any) => ({ id: randomUUID(), workspace_id: workspaceId, user_id: user.id, token_hash: sha256(randomBytes(16).toString('hex')), created_at: now.toISOString(), expires_at: new Date(now.getTime() + 3 * 3600_000).toISOString(), revoked_at: null }));
for (let i = 0; i < sessions.length; i += 200) await ctx.database.db.insertInto('sessions').values(sessions.slice(i, i + 200)).execute();
const iat = Math.floor(now.getTime() / 1000);
const tokens = await Promise.all(sessions.map((s, i) => new SignJWT({ ws: workspaceId, sid: s.id }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(`user:${DOMAIN}:${(users[i] as any).handle}`).setIssuedAt(iat).setExpirationTime(iat + 10800).sign(ctx.jwtKey)));
await settle(ctx);
const visible = services.filter((s: any) => s.visibility !== 'owner').slice(0, 500);
const paths = PATH === 'service' ? visible.map((s: any) => `/api/services/${s.handle}`) : Array.from({ length: 20 }, (_, p) => `/api/search/services?limit=36&cursor=${p * 36}`);
const bodies = new Map<string, string>();
const bare = Fastify();
bare.get('/*', (req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(bodies.get(req.url) ?? ''));
await bare.ready();
async function run(target: any, n: number) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const path = paths[i % paths.length]!;
    const r = await target.inject({ method: 'GET', url: path, headers: { host, authorization: `Bearer ${tokens[(i * 7) % tokens.length]}` } });
    if (target === app && !bodies.has(path)) bodies.set(path, r.body);
    if (r.statusCode !== 200) throw new Error(r.statusCode + r.body);
  }
  return Number(process.hrtime.bigint() - t) / n / 1000;
}
await run(app, 20000);
await run(bare, 5000);
{
  const { sideReaderOf } = await import('../src/server/db/connect.js');
  const side = sideReaderOf(ctx.database.db)! as any;
  const orig = side.get;
  let n = 0, ns = 0n;
  side.get = (t: string, v: string) => { const a = process.hrtime.bigint(); const r = orig(t, v); ns += process.hrtime.bigint() - a; n++; return r; };
  const per = await run(app, 20000);
  console.log('with timing: us/req', per.toFixed(1), 'side get n', n, 'mean us', Number(ns / BigInt(n)) / 1000);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < 20000; i++) orig('select version from catalogue_versions where workspace_id = ?', workspaceId);
  console.log('tight loop us', Number(process.hrtime.bigint() - t0) / 20000 / 1000);
  side.get = orig;
}
console.log('beacon us/req', (await run(app, 20000)).toFixed(1), 'bare us/req', (await run(bare, 20000)).toFixed(1));
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
await run(app, 30000);
const { profile } = await session.post('Profiler.stop');
writeFileSync('/tmp/inject.cpuprofile', JSON.stringify(profile));
await app.close();
await closeContext(ctx);
process.exit(0);
