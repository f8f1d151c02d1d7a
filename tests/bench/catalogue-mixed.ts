/**
 * `BENCH_PROFILE=mixed npm run bench:catalogue` (issue 31): the catalogue's reads under real traffic. 2,000 users
 * each with their own token ask different URLs drawn the way people browse: a Zipf-like choice (the popular
 * first) over the services, teams and users, pages 1-20 of the lists, and a few hundred search terms, while the
 * same workspace takes BENCH_TRANSITIONS health transitions (10) and BENCH_EDITS catalogue edits (1) per second.
 * Each row is one kind of read, measured against a bare Fastify route that serves the very bytes Beacon gave for
 * each of its URLs (captured once, with the owner's token), with the share of answers given from what was kept.
 * BENCH_CPU_PROFILE=1 prints where the server's time goes during each row; BENCH_ROWS=name,name runs only those.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { SignJWT } from 'jose';
import { pino } from 'pino';
import { buildApp } from '../../src/server/app.js';
import { closeContext, createContext } from '../../src/server/bootstrap.js';
import type { ServerContext } from '../../src/server/context.js';
import { SHARED_RUNNER_AGENT } from '../../src/server/services/accounts/agents.js';
import { setServiceHealth } from '../../src/server/services/catalogue/service-health.js';
import { catalogueAnswersOf } from '../../src/server/cache/catalogue-cache.js';
import { sha256 } from '../../src/server/crypto/secrets.js';
import { freshDatabase, TEST_POSTGRES_URL, type TestEngine } from '../support/database.js';
import {
  benchConfig,
  capture,
  CONNECTIONS,
  DOMAIN,
  DURATION,
  enginesToRun,
  positiveNumber,
  printAligned,
  profiled,
  registerAndLogIn,
  settle,
  WARMUP_SECONDS,
} from './harness.js';
import { KINDS, NOUNS, seedCatalogue, TEAMS, USERS } from './seed-catalogue.js';

const SERVICES = positiveNumber(process.env.BENCH_SERVICES, 10_000, 'BENCH_SERVICES');
const TRANSITIONS = positiveNumber(process.env.BENCH_TRANSITIONS, 10, 'BENCH_TRANSITIONS');
const EDITS = positiveNumber(process.env.BENCH_EDITS, 1, 'BENCH_EDITS');
const CPU_PROFILE = process.env.BENCH_CPU_PROFILE === '1';
/** BENCH_ROWS: only these rows (comma separated names, as the table prints them). */
const ONLY = process.env.BENCH_ROWS?.split(',').map((name) => name.trim());
const TARGET_P99_MS = 50;
const PAGES = 20;

interface Population {
  name: string;
  targetRatio: number;
  /** The URLs, most popular first. */
  paths: string[];
}

/** Cumulative Zipf weights (s = 1) for `n` ranks: rank k is asked 1/k as often as the first. */
function zipfCdf(n: number): number[] {
  const cdf: number[] = [];
  let total = 0;
  for (let k = 1; k <= n; k++) cdf.push((total += 1 / k));
  return cdf;
}

/** `items` in a fixed shuffled order: popularity is not the order they were made in. */
function shuffled<T>(items: readonly T[], seed = 7): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function populations(
  services: readonly { handle: string; visibility: string }[],
  teams: readonly { handle: string }[],
  users: readonly { handle: string }[],
): Population[] {
  const pages = (path: string, size: number) =>
    Array.from(
      { length: PAGES },
      (_, page) => `${path}${path.includes('?') ? '&' : '?'}limit=${size}&cursor=${page * size}`,
    );
  // A few hundred terms: what people type (a noun, a kind, both, a team's name, a number).
  const terms = [
    ...NOUNS,
    ...KINDS,
    ...NOUNS.flatMap((noun) => KINDS.map((kind) => `${noun} ${kind}`)),
    ...Array.from({ length: 60 }, (_, i) => String(i * 37)),
  ].slice(0, 300);
  return [
    {
      name: 'get service',
      targetRatio: 0.3,
      // People open the services they can see: the one in ten kept to its team is left out (it would be a 404).
      paths: shuffled(services.filter((s) => s.visibility !== 'owner')).map((s) => `/api/services/${s.handle}`),
    },
    { name: 'get team', targetRatio: 0.3, paths: shuffled(teams).map((t) => `/api/teams/${t.handle}`) },
    { name: 'get user', targetRatio: 0.3, paths: shuffled(users).map((u) => `/api/users/${u.handle}`) },
    { name: 'services pages', targetRatio: 0.15, paths: pages('/api/search/services', 36) },
    {
      name: 'services q',
      targetRatio: 0.15,
      paths: shuffled(terms).map((q) => `/api/search/services?limit=36&cursor=0&q=${encodeURIComponent(q)}`),
    },
    { name: 'teams pages', targetRatio: 0.15, paths: pages('/api/search/teams', 20) },
    { name: 'users pages', targetRatio: 0.15, paths: pages('/api/search/users', 20) },
    {
      name: 'team services',
      targetRatio: 0.15,
      paths: shuffled(teams).map((t) => `/api/teams/${t.handle}/services?limit=20&cursor=0`),
    },
  ];
}

/** A live session and a token for each user, made straight in the database (2,000 logins would hash 2,000 passwords). */
async function tokensFor(ctx: ServerContext, workspaceId: string, users: readonly { id: string; handle: string }[]) {
  const now = new Date();
  const expires = new Date(now.getTime() + 3 * 3600_000).toISOString();
  const sessions = users.map((user) => ({
    id: randomUUID(),
    workspace_id: workspaceId,
    user_id: user.id,
    token_hash: sha256(randomBytes(16).toString('hex')),
    created_at: now.toISOString(),
    expires_at: expires,
    revoked_at: null,
  }));
  await ctx.database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < sessions.length; i += 200)
      await trx
        .insertInto('sessions')
        .values(sessions.slice(i, i + 200))
        .execute();
  });
  const issuedAt = Math.floor(now.getTime() / 1000);
  return Promise.all(
    sessions.map((session, i) =>
      new SignJWT({ ws: workspaceId, sid: session.id })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(`user:${DOMAIN}:${users[i]!.handle}`)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + 3 * 3600)
        .sign(ctx.jwtKey),
    ),
  );
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Latency (ms) at each percentile autocannon reports, and how many latencies it counted. */
  percentiles: { at: number; ms: number }[];
  count: number;
}

/** autocannon's percentile keys (`p97_5`) as numbers. */
function percentilesOf(latency: Record<string, number>): { at: number; ms: number }[] {
  return Object.entries(latency)
    .filter(([key]) => /^p\d+(_\d+)?$/.test(key))
    .map(([key, ms]) => ({ at: Number(key.slice(1).replace('_', '.')), ms }))
    .sort((a, b) => a.at - b.at);
}

async function load(port: number, host: string, row: string, seconds: number): Promise<Measure> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/`,
    headers: { host, 'x-bench-row': row },
    connections: CONNECTIONS,
    duration: seconds,
    workers: 1,
    requests: [{ setupRequest: fileURLToPath(new URL('./mixed-request.cjs', import.meta.url)) }],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
    percentiles: percentilesOf(result.latency as unknown as Record<string, number>),
    count: (result.latency as unknown as { totalCount: number }).totalCount,
  };
}

/** Health transitions and catalogue edits at their rates, as checks and people make them, until stopped. */
function startWrites(ctx: ServerContext, workspaceId: string, services: readonly { id: string }[]) {
  const { db } = ctx.database;
  let turn = 0;
  let written = 0;
  const timers = [
    setInterval(() => {
      const service = services[Math.floor(Math.random() * services.length)]!;
      const health = turn++ % 2 === 0 ? 'warning' : 'good';
      void db
        .transaction()
        .execute((trx) =>
          setServiceHealth(trx, {
            workspaceId,
            serviceId: service.id,
            health,
            at: new Date(),
            source: 'check',
            agent: SHARED_RUNNER_AGENT,
          }),
        )
        .then(() => written++);
    }, 1000 / TRANSITIONS),
    setInterval(() => {
      const service = services[Math.floor(Math.random() * services.length)]!;
      void db
        .updateTable('services')
        .set({ description: `Edited at ${new Date().toISOString()}`, updated_at: new Date().toISOString() })
        .where('id', '=', service.id)
        .execute()
        .then(() => written++);
    }, 1000 / EDITS),
  ];
  return {
    stop: () => timers.forEach(clearInterval),
    written: () => written,
  };
}

/**
 * Beacon and the bare route are measured in turns, TURNS of each (DURATION seconds in all per side): this
 * machine's speed drifts by a third within minutes, and measured one after the other the ratio took that drift
 * whole (the same row and commit passed and failed by it). One under a CPU profile, which is taken once.
 */
const TURNS = CPU_PROFILE ? 1 : 3;

/**
 * Beacon's warm-up before each row: a row's first seconds make afresh what its 2,000 callers' visibilities need
 * (a page of services per set of teams, and their owner-only matches): 2 s left that cold start in the first turn
 * (services pages on PostgreSQL at 10,000: 1,760 req/s in the first turn, 4,192 in the third). Under real traffic
 * every kind of read is asked all the time, so a row measures what a server that has been asked it keeps.
 */
const ROW_WARMUP_SECONDS = 6;

/**
 * The turns of one side as one measure: their mean rate, and the latency that `share` of all their requests took
 * longer than, from each turn's percentiles (read as steps, so it errs long: a turn counts as over a latency all
 * that its table does not show under it).
 */
function together(turns: readonly Measure[]): Measure {
  const count = turns.reduce((sum, m) => sum + m.count, 0);
  const over = (ms: number) =>
    turns.reduce((sum, m) => {
      const under = m.percentiles.filter((p) => p.ms <= ms).at(-1)?.at ?? 0;
      return sum + (m.count * (100 - under)) / 100;
    }, 0) / Math.max(1, count);
  const latencies = [...new Set(turns.flatMap((m) => m.percentiles.map((p) => p.ms)))].sort((a, b) => a - b);
  const percentile = (share: number) => latencies.find((ms) => over(ms) <= share) ?? Math.max(...latencies);
  const points = [...new Set(turns.flatMap((m) => m.percentiles.map((p) => p.at)))].sort((a, b) => a - b);
  return {
    rps: turns.reduce((sum, m) => sum + m.rps, 0) / turns.length,
    p50: percentile(0.5),
    p99: percentile(0.01),
    errors: turns.reduce((sum, m) => sum + m.errors, 0),
    percentiles: points.map((at) => ({ at, ms: percentile(1 - at / 100) })),
    count,
  };
}

/**
 * What held the server's thread while `work` ran: the event loop's delay (p99 and max, ms) and the collector's
 * pauses (their sum and the longest, ms). A p99 well over the mean wait is a thread held, and this says by what.
 */
async function watchLoop<T>(work: () => Promise<T>): Promise<{ value: T; loop: LoopWatch }> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  const pauses: number[] = [];
  const gc = new PerformanceObserver((list) => pauses.push(...list.getEntries().map((entry) => entry.duration)));
  delay.enable();
  gc.observe({ entryTypes: ['gc'] });
  try {
    const value = await work();
    return {
      value,
      loop: {
        delayP99: delay.percentile(99) / 1e6,
        delayMax: delay.max / 1e6,
        gcTotal: pauses.reduce((sum, ms) => sum + ms, 0),
        gcMax: Math.max(0, ...pauses),
      },
    };
  } finally {
    delay.disable();
    gc.disconnect();
  }
}

interface LoopWatch {
  delayP99: number;
  delayMax: number;
  gcTotal: number;
  gcMax: number;
}

/** `measure` while the workspace takes its health transitions and edits; with how many were written meanwhile. */
async function withWrites<T>(
  ctx: ServerContext,
  workspaceId: string,
  services: readonly { id: string }[],
  measure: () => Promise<T>,
): Promise<{ value: T; written: number }> {
  const writes = startWrites(ctx, workspaceId, services);
  try {
    return { value: await measure(), written: writes.written() };
  } finally {
    writes.stop();
  }
}

interface Row {
  engine: TestEngine;
  name: string;
  targetRatio: number;
  beacon: Measure;
  bare: Measure;
  hitRate: number;
}

async function benchEngine(engine: TestEngine, file: string): Promise<Row[]> {
  console.log(`\n${engine}: seeding...`);
  const database = await freshDatabase(engine);
  const config = benchConfig(database.env);
  const ctx = await createContext(config, pino({ level: 'silent' }));
  const app = await buildApp(ctx);
  const bare = Fastify();
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const host = `${DOMAIN}.localhost:${port}`;
    const { token, workspaceId, ownerId } = await registerAndLogIn(app, ctx, host);
    const started = Date.now();
    const { users, teams, services } = await seedCatalogue(ctx, workspaceId, ownerId, SERVICES);
    const people = users.map((user) => ({ id: user.id!, handle: user.handle }));
    const tokens = await tokensFor(ctx, workspaceId, people);
    await settle(ctx);
    console.log(`  seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const rows = populations(services, teams, users).filter((row) => !ONLY || ONLY.includes(row.name));
    writeFileSync(
      file,
      JSON.stringify({
        tokens,
        rows: Object.fromEntries(rows.map((row) => [row.name, { paths: row.paths, cdf: zipfCdf(row.paths.length) }])),
      }),
    );
    // The bare route: each URL's bytes as Beacon gave them to the owner, captured a few at a time.
    const captured = new Map<string, { body: Buffer; contentType: string }>();
    // Least popular first: what the capture leaves kept is then what a server that has run a while keeps (the
    // popular answers, most recently used), not the tail it asked last.
    const all = rows.flatMap((row) => [...row.paths].reverse());
    const capturing = Date.now();
    for (let i = 0; i < all.length; i += 16)
      await Promise.all(
        all.slice(i, i + 16).map(async (path) => {
          const { body, contentType } = await capture(port, path, { host, authorization: `Bearer ${token}` });
          captured.set(path, { body, contentType });
        }),
      );
    console.log(`  captured ${captured.size} URLs in ${((Date.now() - capturing) / 1000).toFixed(1)} s`);
    bare.get('/*', (request, reply) => {
      const hit = captured.get(request.url);
      if (!hit) return reply.code(404).send();
      return reply.header('content-type', hit.contentType).send(hit.body);
    });
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const barePort = (bare.server.address() as AddressInfo).port;
    const kept = catalogueAnswersOf(ctx);
    const results: Row[] = [];
    for (const row of rows) {
      await withWrites(ctx, workspaceId, services, () => load(port, host, row.name, ROW_WARMUP_SECONDS));
      await load(barePort, host, row.name, WARMUP_SECONDS);
      kept.hits = 0;
      kept.made = 0;
      const turns: { beacon: Measure; bare: Measure; loop: LoopWatch }[] = [];
      let written = 0;
      for (let turn = 0; turn < TURNS; turn++) {
        const measured = await withWrites(ctx, workspaceId, services, () =>
          watchLoop(() =>
            profiled(`${row.name} (${engine})`, () => load(port, host, row.name, DURATION / TURNS), {
              enabled: CPU_PROFILE,
            }),
          ),
        );
        written += measured.written;
        const { value: beacon, loop } = measured.value;
        turns.push({ beacon, bare: await load(barePort, host, row.name, DURATION / TURNS), loop });
      }
      const hitRate = kept.hits / Math.max(1, kept.hits + kept.made);
      const beacon = together(turns.map((t) => t.beacon));
      const plain = together(turns.map((t) => t.bare));
      console.log(
        `  ${row.name}: beacon ${beacon.rps.toFixed(0)} req/s p99 ${beacon.p99} ms, bare ${plain.rps.toFixed(0)} ` +
          `req/s (by turn: ${turns.map((t) => `${t.beacon.rps.toFixed(0)}/${t.bare.rps.toFixed(0)}`).join(', ')}); ` +
          `kept answers ${(hitRate * 100).toFixed(0)} %; ${written} writes; ` +
          `${kept.cache.count} answers held in ${(kept.cache.size / 2 ** 20).toFixed(1)} MiB; loop delay p99/max ` +
          `${turns.map((t) => `${t.loop.delayP99.toFixed(0)}/${t.loop.delayMax.toFixed(0)}`).join(', ')} ms, GC ` +
          `${turns.map((t) => `${t.loop.gcTotal.toFixed(0)}/${t.loop.gcMax.toFixed(0)}`).join(', ')} ms (sum/max)` +
          (beacon.errors ? `; WARNING ${beacon.errors} errors or non-2xx` : ''),
      );
      results.push({ engine, name: row.name, targetRatio: row.targetRatio, beacon, bare: plain, hitRate });
    }
    return results;
  } finally {
    await bare.close();
    await app.close();
    await closeContext(ctx);
    await database.drop();
  }
}

function printTable(rows: Row[]): void {
  const header = [
    'engine',
    'reads',
    'beacon req/s',
    'p50 ms',
    'p99 ms',
    'bare req/s',
    'ratio',
    'kept',
    'target',
    'result',
  ];
  const lines = rows.map((r) => {
    const ratio = r.bare.rps > 0 ? r.beacon.rps / r.bare.rps : 0;
    const pass = ratio >= r.targetRatio && r.beacon.p99 < TARGET_P99_MS && r.beacon.errors === 0;
    return [
      r.engine,
      r.name,
      r.beacon.rps.toFixed(0),
      r.beacon.p50.toFixed(0),
      r.beacon.p99.toFixed(0),
      r.bare.rps.toFixed(0),
      ratio.toFixed(2),
      `${(r.hitRate * 100).toFixed(0)} %`,
      `>= ${r.targetRatio}`,
      pass ? 'PASS' : 'FAIL',
    ];
  });
  console.log(
    `\nTarget: ratio at least the row's target and beacon p99 < ${TARGET_P99_MS} ms; kept = answers given from what was kept`,
  );
  printAligned(header, lines);
}

const engines = enginesToRun();
console.log(
  `Beacon catalogue bench, mixed traffic (${SERVICES} services, ${TEAMS} teams, ${USERS} users with their own ` +
    `tokens; ${TRANSITIONS} health transitions and ${EDITS} edits a second): ${CONNECTIONS} connections, ` +
    `${ROW_WARMUP_SECONDS} s warm-up (bare ${WARMUP_SECONDS} s) + ${DURATION} s per run in ${TURNS} turns; node ${process.version}, ${os.cpus().length} CPUs; ` +
    `engines: ${engines.join(', ')}` +
    (engines.includes('postgres') ? ` (${TEST_POSTGRES_URL.replace(/\/\/[^@]*@/, '//')})` : ''),
);
const dir = mkdtempSync(join(os.tmpdir(), 'beacon-mixed-'));
const file = join(dir, 'traffic.json');
process.env.BENCH_MIXED_FILE = file;
const all: Row[] = [];
try {
  for (const engine of engines) {
    try {
      all.push(...(await benchEngine(engine, file)));
    } catch (error) {
      process.exitCode = 1;
      console.error(`\n${engine}: benchmark could not run:`, error);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (all.length > 0) printTable(all);
