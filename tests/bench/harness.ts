/**
 * What every API benchmark shares: the real app on a fresh database per engine, a bare Fastify route that
 * serves the very bytes Beacon answered (so the ratio is the cost of Beacon's stack: plugins, zod, auth and
 * the database), autocannon over loopback, and the table of figures against the targets.
 *
 * Settings: BENCH_DURATION (seconds per measured run, default 10), BENCH_ENGINES (sqlite, postgres or both,
 * comma separated), BEACON_TEST_DATABASE_URL (PostgreSQL server). Missing a target still exits 0 (a
 * benchmark, not a test); only a run that could not measure at all exits 1.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { performance as nodePerformance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { pino } from 'pino';
import { HEALTHS } from '../../src/domain/catalogue.js';
import { buildApp } from '../../src/server/app.js';
import { closeContext, createContext } from '../../src/server/bootstrap.js';
import { loadConfig, type Config } from '../../src/server/config.js';
import type { ServerContext } from '../../src/server/context.js';
import { createBetaKey } from '../../src/server/services/accounts/registration.js';
import { freshDatabase, TEST_POSTGRES_URL, type TestEngine } from '../support/database.js';
import { USE_WRK, wrk } from './wrk.js';

export const DURATION = positiveNumber(process.env.BENCH_DURATION, 10, 'BENCH_DURATION');
export const WARMUP_SECONDS = 2;
export const CONNECTIONS = 50;
export const DOMAIN = 'bench';
export const PASSWORD = 'Str0ng-pass';
const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 50;

export interface Endpoint {
  name: string;
  /** Path and query, identical for Beacon and the bare route. */
  path: string;
  /** Request headers beside Host and Authorization, for both (say, the Accept-Encoding a browser sends). */
  headers?: Record<string, string>;
  /** The least ratio to the bare route this endpoint must reach (default 0.5; pages and searches 0.25). */
  targetRatio?: number;
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
}

interface Row {
  engine: TestEngine;
  endpoint: string;
  targetRatio: number;
  beacon: Measure;
  bare: Measure;
}

export interface Seeded {
  /** The owner's access token. */
  token: string;
  endpoints: Endpoint[];
}

/** Fills the fresh workspace `bench` (its owner is already registered) and names the endpoints to measure. */
export type Seeder = (ctx: ServerContext, workspaceId: string, ownerId: string) => Promise<Endpoint[]>;

/** Runs after an engine's rows, on the same server: the workspace's address, to load in a browser. */
export type AfterLoad = (engine: TestEngine, origin: string) => Promise<void>;

export function positiveNumber(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${name} must be a positive number, got "${value}"`);
  return parsed;
}

/**
 * Beacon's configuration for a bench on `database`; BEACON_READ_CACHE_MB=0 measures the catalogue's reads made on
 * every request instead of kept.
 */
export function benchConfig(database: Record<string, string>): Config {
  const readCache = process.env.BEACON_READ_CACHE_MB;
  return loadConfig({
    ...database,
    PORT: '8080',
    LOG_LEVEL: 'silent',
    ...(readCache !== undefined ? { BEACON_READ_CACHE_MB: readCache } : {}),
  });
}

export function enginesToRun(): TestEngine[] {
  const wanted = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim().toLowerCase());
  const engines = (['sqlite', 'postgres'] as const).filter((e) => wanted.includes(e));
  if (engines.length === 0) throw new Error(`BENCH_ENGINES must name sqlite and/or postgres, got "${wanted}"`);
  return engines;
}

function portOf(app: FastifyInstance): number {
  return (app.server.address() as AddressInfo).port;
}

/** `count` team rows `team-0`, `team-1`, ... of a workspace, for direct insertion. */
export function teamRows(workspaceId: string, count: number, now: string) {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    workspace_id: workspaceId,
    handle: `team-${i}`,
    name: `Team ${i}`,
    description: null,
    icon_asset_id: null,
    parent_id: null,
    created_at: now,
  }));
}

/** `count` live service rows `${prefix}-${i}`, owned in turn by `teamIds`, for direct insertion. */
export function serviceRows(
  workspaceId: string,
  count: number,
  teamIds: readonly string[],
  { now, prefix = 'svc', health = () => 'good' }: { now: string; prefix?: string; health?: (i: number) => string },
) {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    workspace_id: workspaceId,
    handle: `${prefix}-${i}`,
    name: `Service ${i}`,
    description: null,
    icon_asset_id: null,
    owner_team_id: teamIds[i % teamIds.length]!,
    visibility: 'workspace',
    stage: 'live',
    health: health(i),
    links: '[]',
    starred_count: 0,
    created_at: now,
    updated_at: now,
  }));
}

/** A team `ops` and `count` live services it owns, inserted directly; the services, in order. */
export async function seedTeamAndServices(ctx: ServerContext, workspaceId: string, count: number, now: string) {
  const team = { id: randomUUID(), workspace_id: workspaceId, handle: 'ops', name: 'Ops', description: null };
  await insertInBatches(ctx, 'teams', [{ ...team, icon_asset_id: null, parent_id: null, created_at: now }]);
  const services = serviceRows(workspaceId, count, [team.id], { now });
  await insertInBatches(ctx, 'services', services);
  return services;
}

/** Inserts rows in batches that stay under SQLite's and PostgreSQL's bound-parameter limits. */
export async function insertInBatches<T extends object>(
  ctx: ServerContext,
  table:
    | 'users'
    | 'teams'
    | 'team_members'
    | 'services'
    | 'stars'
    | 'health_checks'
    | 'health_transitions'
    | 'service_dependencies',
  rows: T[],
  batch = 200,
): Promise<void> {
  await ctx.database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += batch) {
      // The seed rows are typed by each bench; the table name picks the shape.
      await trx
        .insertInto(table)
        .values(rows.slice(i, i + batch) as never)
        .execute();
    }
  });
}

/**
 * `count` live services of the workspace visible to it, `${prefix}-${i}` named `Service ${i}`, owned in turn by
 * `teamIds`, their healths cycling through every health: what the graph benches draw and walk.
 */
export function graphServices(workspaceId: string, count: number, teamIds: readonly string[], prefix: string) {
  const now = new Date().toISOString();
  return serviceRows(workspaceId, count, teamIds, { now, prefix, health: (i) => HEALTHS[i % HEALTHS.length]! });
}

/** Inserts the dependencies `[from, to]` between `services` (by index). */
export async function insertDependencies(
  ctx: ServerContext,
  services: ReadonlyArray<{ id: string; workspace_id: string }>,
  links: ReadonlyArray<readonly [number, number]>,
): Promise<void> {
  const now = new Date().toISOString();
  const rows = links.map(([from, to]) => ({
    workspace_id: services[from]!.workspace_id,
    service_id: services[from]!.id,
    dependency_id: services[to]!.id,
    created_at: now,
  }));
  await insertInBatches(ctx, 'service_dependencies', rows, 200);
}

/**
 * Brings a freshly seeded database to the state a running one is in. A running database has planner statistics
 * (autovacuum on PostgreSQL, PRAGMA optimize on SQLite): a bulk seed has none until they run, and the plans
 * without them measure nothing real. On PostgreSQL the seed also leaves every table for autovacuum to visit,
 * which it would do in the middle of the first measurement (on a 2-core machine, half its CPU): it is done first.
 */
export async function settle(ctx: ServerContext): Promise<void> {
  const { db } = ctx.database;
  await sql.raw(ctx.database.engine === 'sqlite' ? 'analyze' : 'vacuum analyze').execute(db);
  // The seeding's pages, copied into the database file now rather than by the read thread's checkpoints during
  // the first measured run (connect.ts), as on a server that has been running a while.
  if (ctx.database.engine === 'sqlite') await sql.raw('pragma wal_checkpoint(TRUNCATE)').execute(db);
}

/** The owner through the real registration API (so the workspace is set up as in production), then a token. */
export async function registerAndLogIn(app: FastifyInstance, ctx: ServerContext, host: string) {
  const ownerEmail = `owner@${DOMAIN}.example`;
  const betaKey = await createBetaKey(ctx, ownerEmail);
  const registered = await app.inject({
    method: 'POST',
    url: '/api/registration/register-workspace',
    payload: {
      beta_key: betaKey,
      owner: { email: ownerEmail, name: 'Bench Owner', handle: 'bench-owner', password: PASSWORD },
      workspace: { name: 'Bench', domain: DOMAIN },
    },
  });
  if (registered.statusCode !== 201) throw new Error(`register: ${registered.statusCode} ${registered.body}`);
  const session = await app.inject({
    method: 'POST',
    url: '/api/session',
    headers: { host },
    payload: { workspace: DOMAIN, login: ownerEmail, password: PASSWORD },
  });
  const cookie = session.cookies.find((c) => c.name === 'beacon_session');
  if (session.statusCode !== 200 || !cookie) throw new Error(`login: ${session.statusCode} ${session.body}`);
  const token = await app.inject({
    method: 'POST',
    url: '/api/token',
    headers: { host },
    cookies: { beacon_session: cookie.value },
    payload: { grant_type: 'session', workspace: DOMAIN },
  });
  if (token.statusCode !== 200) throw new Error(`token: ${token.statusCode} ${token.body}`);
  const { db } = ctx.database;
  const workspace = await db
    .selectFrom('workspaces')
    .select('id')
    .where('domain', '=', DOMAIN)
    .executeTakeFirstOrThrow();
  const owner = await db.selectFrom('users').select('id').where('email', '=', ownerEmail).executeTakeFirstOrThrow();
  return {
    token: (token.json() as { access_token: string }).access_token,
    workspaceId: workspace.id,
    ownerId: owner.id,
  };
}

/** The real response over the socket, as autocannon will see it (fetch would drop the Host header). */
export async function capture(port: number, path: string, headers: Record<string, string>) {
  const response = await new Promise<IncomingMessage>((resolve, reject) =>
    request({ host: '127.0.0.1', port, path, headers }, resolve).on('error', reject).end(),
  );
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  if (response.statusCode !== 200) throw new Error(`GET ${path}: ${response.statusCode} ${body.toString()}`);
  const total = response.headers.total;
  return {
    body,
    contentType: response.headers['content-type'] ?? 'application/octet-stream',
    contentEncoding: response.headers['content-encoding'] ?? null,
    total: typeof total === 'string' ? total : null,
  };
}

async function load(
  port: number,
  path: string,
  headers: Record<string, string>,
  seconds: number,
  label: string,
): Promise<Measure> {
  if (USE_WRK) {
    const result = await wrk(`http://127.0.0.1:${port}${path}`, { headers, connections: CONNECTIONS, seconds });
    if (result.errors !== 0) console.warn(`  WARNING ${label}: ${result.errorLines}; figures are not meaningful`);
    return result;
  }
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    headers,
    connections: CONNECTIONS,
    duration: seconds,
    // The load generator gets its own thread; on the server's thread it would steal the event loop it measures.
    workers: 1,
  });
  if (result.non2xx !== 0 || result.errors !== 0) {
    console.warn(
      `  WARNING ${label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts; figures are not meaningful`,
    );
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/**
 * BENCH_PROFILE=1: a CPU profile of the server's thread while Beacon answers an endpoint; its top functions by
 * self time are printed (where the time goes, before changing anything).
 */
const PROFILE = process.env.BENCH_PROFILE === '1';

export async function profiled<T>(
  label: string,
  work: () => Promise<T>,
  options: {
    enabled?: boolean;
    /** Sampling interval, µs. */
    intervalUs?: number;
    /** More to print of the profile, after its top functions. */
    also?: (label: string, profile: { nodes: ProfileNode[] }) => void;
  } = {},
): Promise<T> {
  if (!(options.enabled ?? PROFILE)) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: options.intervalUs ?? 200 });
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    // BENCH_PROFILE_OUT=DIR also keeps the whole profile, for DevTools or a closer look.
    if (process.env.BENCH_PROFILE_OUT) {
      mkdirSync(process.env.BENCH_PROFILE_OUT, { recursive: true });
      writeFileSync(
        `${process.env.BENCH_PROFILE_OUT}/${label.replace(/\W+/g, '-')}.cpuprofile`,
        JSON.stringify(profile),
      );
    }
    printProfile(label, profile);
    options.also?.(label, profile);
  }
}

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export function printProfile(label: string, profile: { nodes: ProfileNode[] }): void {
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    total += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*\/(src|tests)\//, '$1/');
    const key = `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
  }
  const top = [...byFunction.entries()].sort(([, a], [, b]) => b - a).slice(0, 15);
  console.log(`  profile of ${label} (self time, top 15):`);
  for (const [key, hits] of top) console.log(`    ${((hits / total) * 100).toFixed(1).padStart(5)} %  ${key}`);
}

async function measure(port: number, path: string, headers: Record<string, string>, label: string): Promise<Measure> {
  await load(port, path, headers, WARMUP_SECONDS, `${label} warm-up`);
  // The server answers on this thread (the load generator has its own): its busy share is the core it used.
  const before = nodePerformance.eventLoopUtilization();
  const measured = label.endsWith(' beacon')
    ? await profiled(label, () => load(port, path, headers, DURATION, label))
    : await load(port, path, headers, DURATION, label);
  const busy = nodePerformance.eventLoopUtilization(before).utilization;
  console.log(
    `  ${label}: ${measured.rps.toFixed(0)} req/s, p50 ${measured.p50} ms, p99 ${measured.p99} ms; server thread ` +
      `${(busy * 100).toFixed(0)} % busy, ${(measured.rps / busy).toFixed(0)} req/s per busy core`,
  );
  return measured;
}

async function benchEngine(engine: TestEngine, seed: Seeder, after?: AfterLoad): Promise<Row[]> {
  console.log(`\n${engine}: seeding...`);
  const database = await freshDatabase(engine);
  let ctx: ServerContext | undefined;
  let app: FastifyInstance | undefined;
  const bare = Fastify();
  try {
    const config = benchConfig(database.env);
    ctx = await createContext(config, pino({ level: 'silent' }));
    app = await buildApp(ctx);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = portOf(app);
    const host = `${DOMAIN}.localhost:${port}`;
    const { token, workspaceId, ownerId } = await registerAndLogIn(app, ctx, host);
    const started = Date.now();
    const endpoints = await seed(ctx, workspaceId, ownerId);
    await settle(ctx);
    console.log(`  seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const headers = { host, authorization: `Bearer ${token}` };
    // The bare route answers each measured URL (path and query, and the encodings accepted) with the bytes and
    // headers Beacon gave, captured once.
    const capturedKey = (url: string, accepted: string | undefined) => `${url}\u0000${accepted ?? ''}`;
    const captured = new Map<string, { body: Buffer; contentType: string; contentEncoding: string | null }>();
    for (const endpoint of endpoints) {
      const asked = performance.now();
      const { body, contentType, contentEncoding, total } = await capture(port, endpoint.path, {
        ...headers,
        ...endpoint.headers,
      });
      // The first answer, alone: what a cold cache costs where the app keeps one.
      const first = performance.now() - asked;
      console.log(
        `  ${endpoint.name}: GET ${endpoint.path} -> ${body.length} bytes` +
          `${contentEncoding === null ? '' : ` (${contentEncoding})`}${total === null ? '' : `, total ${total}`}` +
          ` in ${first.toFixed(0)} ms`,
      );
      // A large answer's first askers get a quickly compressed twin while the smaller one is made (answer-cache.ts):
      // the bare route serves what later askers get, the smallest of the answers asked for over the next second.
      let kept = body;
      for (let tries = 0; contentEncoding !== null && tries < 20; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const again = (await capture(port, endpoint.path, { ...headers, ...endpoint.headers })).body;
        if (again.length < kept.length) kept = again;
      }
      if (kept.length !== body.length) console.log(`    later askers get ${kept.length} bytes`);
      captured.set(capturedKey(endpoint.path, endpoint.headers?.['accept-encoding']), {
        body: kept,
        contentType,
        contentEncoding,
      });
    }
    bare.get('/*', (request, reply) => {
      const hit = captured.get(capturedKey(request.url, request.headers['accept-encoding']));
      if (!hit) return reply.code(404).send();
      if (hit.contentEncoding !== null) void reply.header('content-encoding', hit.contentEncoding);
      return reply.header('content-type', hit.contentType).send(hit.body);
    });
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const rows: Row[] = [];
    for (const endpoint of endpoints) {
      const sent = { ...headers, ...endpoint.headers };
      const beacon = await measure(port, endpoint.path, sent, `${endpoint.name} beacon`);
      const plain = await measure(portOf(bare), endpoint.path, sent, `${endpoint.name} bare`);
      rows.push({
        engine,
        endpoint: endpoint.name,
        targetRatio: endpoint.targetRatio ?? TARGET_RATIO,
        beacon,
        bare: plain,
      });
    }
    // A failure here is reported without losing the rows measured.
    await after?.(engine, `http://${DOMAIN}.localhost:${port}`).catch((error: unknown) => {
      console.error(`  ${engine}: the step after the load failed:`, error);
      process.exitCode = 1;
    });
    return rows;
  } finally {
    await bare.close();
    await app?.close();
    if (ctx) await closeContext(ctx);
    await database.drop();
  }
}

function printTable(rows: Row[]): void {
  const header = [
    'engine',
    'endpoint',
    'beacon req/s',
    'beacon p50 ms',
    'beacon p99 ms',
    'bare req/s',
    'bare p50 ms',
    'bare p99 ms',
    'ratio',
    'target',
    'result',
  ];
  const lines = rows.map((r) => {
    const ratio = r.bare.rps > 0 ? r.beacon.rps / r.bare.rps : 0;
    const pass = ratio >= r.targetRatio && r.beacon.p99 < TARGET_P99_MS;
    return [
      r.engine,
      r.endpoint,
      r.beacon.rps.toFixed(0),
      r.beacon.p50.toFixed(0),
      r.beacon.p99.toFixed(0),
      r.bare.rps.toFixed(0),
      r.bare.p50.toFixed(0),
      r.bare.p99.toFixed(0),
      ratio.toFixed(2),
      `>= ${r.targetRatio}`,
      pass ? 'PASS' : 'FAIL',
    ];
  });
  console.log(
    `\nTarget: ratio (beacon req/s / bare req/s) at least the row's target and beacon p99 < ${TARGET_P99_MS} ms`,
  );
  printAligned(header, lines);
}

/** A table in columns: the first two (engine, endpoint) to the left, the figures to the right. */
export function printAligned(header: string[], lines: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(format(line));
}

/** Runs one benchmark on every engine asked for and prints the table. */
export async function runBench(title: string, seed: Seeder, after?: AfterLoad): Promise<void> {
  const engines = enginesToRun();
  console.log(
    `${title}: ${CONNECTIONS} connections from ${USE_WRK ? 'wrk' : 'autocannon'}, ${WARMUP_SECONDS} s warm-up + ` +
      `${DURATION} s per run; ` +
      `node ${process.version}, ${os.cpus().length} CPUs; engines: ${engines.join(', ')}` +
      (engines.includes('postgres') ? ` (${TEST_POSTGRES_URL.replace(/\/\/[^@]*@/, '//')})` : ''),
  );
  const rows: Row[] = [];
  let failed = false;
  for (const engine of engines) {
    try {
      rows.push(...(await benchEngine(engine, seed, after)));
    } catch (error) {
      // One engine failing (say, no PostgreSQL server) should not hide the other's figures.
      failed = true;
      console.error(`\n${engine}: benchmark could not run:`, error);
    }
  }
  if (rows.length > 0) printTable(rows);
  if (failed) process.exitCode = 1;
}
