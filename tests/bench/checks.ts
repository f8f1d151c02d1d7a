/**
 * `npm run bench:checks`: the shared runner with 10,000 checks at 15 s against a local target (a separate
 * process) for two minutes, in one server process, on each engine: probes per second, schedule lag (how late
 * each probe starts after its slot) p50/p99/max, the process's CPU (one core = 100 %) and its peak RSS.
 * Then GET /api/services/{handle}/reports/service-health-daily over 90 days for a service with a year of
 * transitions (one every 20 minutes): p50/p99 of 500 sequential requests through the real app.
 *
 * Then what the results cost: bytes on disk per result row and per aggregate row, per check and day, and the
 * time of the retention job deleting the raw results of the run (issue 18).
 *
 * Settings: BENCH_CHECKS (10000), BENCH_FREQUENCY (seconds between probes of a check, 15), BENCH_CHECK_SECONDS
 * (measured seconds, 120), BENCH_ENGINES, and BEACON_TEST_DATABASE_URL (see README.md here). The issue's
 * profile: BENCH_CHECKS=100000 BENCH_FREQUENCY=60.
 *
 * BENCH_PROFILE=mixed runs checks-mixed.ts instead: checks of every kind with assertions (issue 26).
 *
 * Last (and alone with BENCH_PROFILE=schemas): the `schema` assertion's cost (issue 30), 10,000 validations of a
 * 10 KB JSON list against an OpenAPI 3.0 response schema after a warm-up, JSON.parse included: p50/p99/max in µs;
 * and specProbes over a generated 500-operation spec.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { pino } from 'pino';
import { buildApp } from '../../src/server/app.js';
import { closeContext, createContext } from '../../src/server/bootstrap.js';
import { loadConfig } from '../../src/server/config.js';
import type { ServerContext } from '../../src/server/context.js';
import { isSqlite } from '../../src/server/db/connect.js';
import { pruneCheckResults } from '../../src/server/jobs/result-retention.js';
import { startSharedRunner } from '../../src/server/jobs/shared-runner.js';
import { AGGREGATE_RETENTION_DAYS } from '../../src/domain/check-aggregates.js';
import { specProbes } from '../../src/domain/openapi-probes.js';
import { closeSharedAgents } from '../../src/runner/probe.js';
import { specSchemas } from '../../src/runner/response-schemas.js';
import { freshDatabase, type TestEngine } from '../support/database.js';
import {
  DOMAIN,
  enginesToRun,
  insertInBatches,
  positiveNumber,
  registerAndLogIn,
  seedTeamAndServices,
  settle,
} from './harness.js';

const CHECKS = positiveNumber(process.env.BENCH_CHECKS, 10_000, 'BENCH_CHECKS');
const SECONDS = positiveNumber(process.env.BENCH_CHECK_SECONDS, 120, 'BENCH_CHECK_SECONDS');
const FREQUENCY = positiveNumber(process.env.BENCH_FREQUENCY, 15, 'BENCH_FREQUENCY');
const SERVICES = 100;
const REPORT_REQUESTS = 500;
const TARGET_LAG_P99_MS = 1000;
const TARGET_CPU = 100;
const TARGET_REPORT_P99_MS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A plain HTTP target in its own process, so its work is not counted as the runner's. */
async function startTarget(): Promise<{ port: number; child: ChildProcess }> {
  const code = `require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () {
    process.stdout.write(String(this.address().port) + '\\n');
  });`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) =>
    child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
  );
  return { port, child };
}

async function seedChecks(ctx: ServerContext, workspaceId: string, targetPort: number): Promise<void> {
  const now = new Date().toISOString();
  const services = await seedTeamAndServices(ctx, workspaceId, SERVICES, now);
  const checks = Array.from({ length: CHECKS }, (_, i) => ({
    id: randomUUID(),
    workspace_id: workspaceId,
    service_id: services[i % SERVICES]!.id,
    name: `Check ${i}`,
    endpoint: `http://127.0.0.1:${targetPort}/health/${i}`,
    runner_id: null,
    frequency: FREQUENCY,
    timeout: 5,
    allowed_failures: 0,
    importance: 'warning',
    disabled: 0,
    paused: 0,
    created_at: now,
    updated_at: now,
  }));
  await insertInBatches(ctx, 'health_checks', checks);
}

interface RunnerFigures {
  probesPerSecond: number;
  resultsPerSecond: number;
  /** Probes started minus results written over the whole run (after the runner stopped and flushed). */
  lost: number;
  lag: { p50: number; p99: number; max: number };
  cpuPercent: number;
  rssMb: number;
}

async function measureRunner(ctx: ServerContext): Promise<RunnerFigures> {
  let measuring = false;
  let started = 0;
  const lags: number[] = [];
  const runner = startSharedRunner(ctx, {
    onStart: (lag) => {
      started++;
      if (measuring) lags.push(lag);
    },
  });
  // The first interval spreads the first runs of every check over its slots; measure the steady state after.
  console.log(`  warming up for ${FREQUENCY + 5} s...`);
  await sleep((FREQUENCY + 5) * 1000);
  const count = async () =>
    Number(
      (
        await ctx.database.db
          .selectFrom('health_check_results')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const resultsBefore = await count();
  measuring = true;
  const cpuBefore = process.cpuUsage();
  const since = Date.now();
  let rss = process.memoryUsage().rss;
  console.log(`  measuring for ${SECONDS} s...`);
  while (Date.now() - since < SECONDS * 1000) {
    await sleep(1000);
    rss = Math.max(rss, process.memoryUsage().rss);
  }
  measuring = false;
  const elapsed = (Date.now() - since) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const resultsAtEnd = await count();
  await runner.stop();
  const resultsAfter = await count();
  lags.sort((a, b) => a - b);
  return {
    probesPerSecond: lags.length / elapsed,
    resultsPerSecond: (resultsAtEnd - resultsBefore) / elapsed,
    lost: started - resultsAfter,
    lag: { p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags.at(-1) ?? NaN },
    cpuPercent: ((cpu.user + cpu.system) / 1000 / (elapsed * 1000)) * 100,
    rssMb: rss / 1024 / 1024,
  };
}

/** A year of transitions for one service (one every 20 minutes, cycling through the states), then the report. */
async function measureReport(
  ctx: ServerContext,
  app: Awaited<ReturnType<typeof buildApp>>,
  token: string,
): Promise<{ transitions: number; p50: number; p99: number }> {
  const db = ctx.database.db;
  const service = await db.selectFrom('services').select('id').where('handle', '=', 'svc-0').executeTakeFirstOrThrow();
  const now = Date.now();
  const yearAgo = now - 365 * 86_400_000;
  await db
    .updateTable('services')
    .set({ created_at: new Date(yearAgo).toISOString() })
    .execute();
  const states = ['warning', 'good', 'error', 'good', 'critical', 'good', 'maintenance', 'good'] as const;
  const { workspace_id } = await db.selectFrom('services').select('workspace_id').limit(1).executeTakeFirstOrThrow();
  const transitions = [];
  for (let at = yearAgo, i = 0; at < now; at += 20 * 60_000, i++) {
    transitions.push({ workspace_id, service_id: service.id, at, health: states[i % states.length]!, source: 'check' });
  }
  await insertInBatches(ctx, 'health_transitions', transitions, 500);
  // As on a running server, where autovacuum and PRAGMA optimize keep statistics (and PostgreSQL's visibility
  // map, which index-only scans need) up to date.
  await sql.raw(isSqlite(db) ? 'analyze' : 'vacuum analyze health_transitions').execute(db);
  const headers = { host: `${DOMAIN}.localhost`, authorization: `Bearer ${token}` };
  const times: number[] = [];
  for (let i = 0; i < REPORT_REQUESTS + 20; i++) {
    const started = process.hrtime.bigint();
    const response = await app.inject({
      method: 'GET',
      url: '/api/services/svc-0/reports/service-health-daily',
      headers,
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (response.statusCode !== 200) throw new Error(`report: ${response.statusCode} ${response.body}`);
    if ((response.json() as unknown[]).length !== 90) throw new Error('report: expected 90 days');
    if (i >= 20) times.push(ms); // the first requests warm up the caches
  }
  times.sort((a, b) => a - b);
  return { transitions: transitions.length, p50: percentile(times, 50), p99: percentile(times, 99) };
}

interface StorageFigures {
  resultRows: number;
  bytesPerResult: number;
  aggregateRows: number;
  bytesPerAggregate: number;
  /** One check's rows written in a day at BENCH_FREQUENCY, and what the retention windows keep of them. */
  perCheckDayKb: number;
  perCheckKeptKb: number;
  retention: { ms: number; deleted: number };
}

/** Bytes of a table with its indexes: PostgreSQL's own count; SQLite's dbstat pages of the table and its indexes. */
async function tableBytes(ctx: ServerContext, table: string): Promise<number> {
  const db = ctx.database.db;
  if (isSqlite(db)) {
    const { rows } = await sql<{ bytes: number }>`
      select coalesce(sum(pgsize), 0) as bytes from dbstat
      where name = ${table} or name in (select name from sqlite_master where type = 'index' and tbl_name = ${table})`.execute(
      db,
    );
    return Number(rows[0]?.bytes ?? 0);
  }
  const { rows } = await sql<{ bytes: string }>`select pg_total_relation_size(${table}::regclass) as bytes`.execute(db);
  return Number(rows[0]?.bytes ?? 0);
}

async function measureStorage(ctx: ServerContext): Promise<StorageFigures> {
  const db = ctx.database.db;
  await settle(ctx);
  const rows = async (table: 'health_check_results' | 'health_check_aggregates') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const resultRows = await rows('health_check_results');
  const aggregateRows = await rows('health_check_aggregates');
  const bytesPerResult = (await tableBytes(ctx, 'health_check_results')) / Math.max(1, resultRows);
  const bytesPerAggregate = (await tableBytes(ctx, 'health_check_aggregates')) / Math.max(1, aggregateRows);
  const resultsPerDay = 86_400 / FREQUENCY;
  const minutesPerDay = 1440;
  const hoursPerDay = 24;
  const perCheckDay = resultsPerDay * bytesPerResult + (minutesPerDay + hoursPerDay) * bytesPerAggregate;
  const kept =
    resultsPerDay * bytesPerResult * (ctx.config.resultRetentionHours / 24) +
    minutesPerDay * bytesPerAggregate * AGGREGATE_RETENTION_DAYS.minute +
    hoursPerDay * bytesPerAggregate * AGGREGATE_RETENTION_DAYS.hour;
  // The retention job as the runner runs it, with the clock moved past the raw window: every raw row goes.
  const realNow = ctx.now;
  ctx.now = () => new Date(Date.now() + (ctx.config.resultRetentionHours + 1) * 3_600_000);
  const started = process.hrtime.bigint();
  const pruned = await pruneCheckResults(ctx);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  ctx.now = realNow;
  return {
    resultRows,
    bytesPerResult,
    aggregateRows,
    bytesPerAggregate,
    perCheckDayKb: perCheckDay / 1024,
    perCheckKeptKb: kept / 1024,
    retention: { ms, deleted: pruned.results },
  };
}

async function benchEngine(engine: TestEngine) {
  console.log(`\n${engine}: seeding ${CHECKS} checks...`);
  const database = await freshDatabase(engine);
  const target = await startTarget();
  let ctx: ServerContext | undefined;
  try {
    const config = loadConfig({
      ...database.env,
      PORT: '8080',
      LOG_LEVEL: 'silent',
      BEACON_ALLOW_PRIVATE_TARGETS: '1',
    });
    ctx = await createContext(config, pino({ level: 'silent' }));
    const app = await buildApp(ctx);
    await app.ready();
    const { token, workspaceId } = await registerAndLogIn(app, ctx, `${DOMAIN}.localhost`);
    await seedChecks(ctx, workspaceId, target.port);
    const runner = await measureRunner(ctx);
    const storage = await measureStorage(ctx);
    const report = await measureReport(ctx, app, token);
    await app.close();
    return { engine, runner, storage, report };
  } finally {
    target.child.kill();
    await closeSharedAgents();
    if (ctx) await closeContext(ctx);
    await database.drop();
  }
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);

async function defaultProfile(): Promise<void> {
  const results = [];
  for (const engine of enginesToRun()) results.push(await benchEngine(engine));

  console.log(
    `\nShared runner: ${CHECKS} checks every ${FREQUENCY} s, ${SECONDS} s measured (targets: lag p99 < ${TARGET_LAG_P99_MS} ms, CPU < ${TARGET_CPU} % of one core)`,
  );
  console.log(
    '| engine | probes/s | results written/s | lost | lag p50 ms | lag p99 ms | lag max ms | CPU % of a core | peak RSS MB | verdict |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const { engine, runner } of results) {
    const ok = runner.lag.p99 < TARGET_LAG_P99_MS && runner.cpuPercent < TARGET_CPU && runner.lost === 0;
    console.log(
      `| ${engine} | ${fixed(runner.probesPerSecond)} | ${fixed(runner.resultsPerSecond)} | ${runner.lost} | ${fixed(runner.lag.p50)} | ${fixed(runner.lag.p99)} | ${fixed(runner.lag.max)} | ${fixed(runner.cpuPercent)} | ${fixed(runner.rssMb)} | ${ok ? 'PASS' : 'FAIL'} |`,
    );
  }
  console.log(
    `\nResults on disk (raw kept BEACON_RESULT_RETENTION_HOURS, minute aggregates ${AGGREGATE_RETENTION_DAYS.minute} d, hour aggregates ${AGGREGATE_RETENTION_DAYS.hour} d) and the retention job deleting the run's raw results`,
  );
  console.log(
    '| engine | raw rows | bytes/raw row | aggregate rows | bytes/aggregate row | KB per check per day | KB kept per check | retention ms | rows deleted |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const { engine, storage } of results) {
    console.log(
      `| ${engine} | ${storage.resultRows} | ${fixed(storage.bytesPerResult)} | ${storage.aggregateRows} | ${fixed(storage.bytesPerAggregate)} | ${fixed(storage.perCheckDayKb, 1)} | ${fixed(storage.perCheckKeptKb)} | ${fixed(storage.retention.ms)} | ${storage.retention.deleted} |`,
    );
  }
  console.log(
    `\nDaily health report over 90 days, a year of transitions, ${REPORT_REQUESTS} requests (target p99 < ${TARGET_REPORT_P99_MS} ms)`,
  );
  console.log('| engine | transitions | p50 ms | p99 ms | verdict |');
  console.log('|---|---|---|---|---|');
  for (const { engine, report } of results) {
    console.log(
      `| ${engine} | ${report.transitions} | ${fixed(report.p50, 1)} | ${fixed(report.p99, 1)} | ${report.p99 < TARGET_REPORT_P99_MS ? 'ok' : 'FAIL'} |`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The schema assertion (issue 30)

const SCHEMA_VALIDATIONS = 10_000;
const SCHEMA_WARMUP = 2_000;
const TARGET_SCHEMA_P99_US = 200;
const TARGET_PROBES_MS = 1000;

const jsonContent = (schema: unknown) => ({ content: { 'application/json': { schema } } });

/**
 * A typical list endpoint: objects with formats, an enum, a nullable `$ref` and an array; with `pattern`, the name
 * also has one (patterns run on re2js, about 0.6 µs a string against native RegExp's 0.02).
 */
function listSpec(pattern?: string) {
  return {
    openapi: '3.0.3',
    info: { title: 'Bench', version: '1' },
    paths: {
      '/items': {
        get: {
          operationId: 'listItems',
          responses: { '200': jsonContent({ type: 'array', items: { $ref: '#/components/schemas/Item' } }) },
        },
      },
    },
    components: {
      schemas: {
        Item: {
          type: 'object',
          required: ['id', 'name', 'price', 'status', 'created_at'],
          properties: {
            id: { type: 'integer', format: 'int64' },
            name: { type: 'string', maxLength: 200, ...(pattern ? { pattern } : {}) },
            price: { type: 'number', minimum: 0 },
            status: { type: 'string', enum: ['new', 'active', 'sold'] },
            tags: { type: 'array', items: { type: 'string' } },
            created_at: { type: 'string', format: 'date-time' },
            owner: { $ref: '#/components/schemas/Owner' },
          },
        },
        Owner: {
          type: 'object',
          nullable: true,
          required: ['id'],
          properties: { id: { type: 'string', format: 'uuid' }, email: { type: 'string', format: 'email' } },
        },
      },
    },
  };
}

/** About 10 KB of items. */
function listBody(): string {
  const items = [];
  for (let i = 0; JSON.stringify(items).length < 10_240; i++)
    items.push({
      id: i,
      name: `Item number ${i}`,
      price: i * 1.25,
      status: ['new', 'active', 'sold'][i % 3],
      tags: ['red', 'large'],
      created_at: '2026-11-28T10:00:00Z',
      owner: i % 2 ? null : { id: '0b9e4c1e-8a1f-4a8e-9a3b-1f2d3c4b5a69', email: `owner${i}@example.com` },
    });
  return JSON.stringify(items);
}

/** 100 paths of 5 operations each (GET with a path and a query parameter, HEAD, PUT, PATCH, DELETE). */
function generatedSpec(): unknown {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 100; i++)
    paths[`/resources${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', example: `r-${i}` } }],
      get: {
        operationId: `get${i}`,
        parameters: [{ name: 'expand', in: 'query', required: true, schema: { enum: ['all', 'none'] } }],
        responses: { '200': jsonContent({ $ref: '#/components/schemas/Item' }), '404': jsonContent({}) },
      },
      head: { operationId: `head${i}`, responses: { '200': {} } },
      put: { operationId: `put${i}`, requestBody: jsonContent({}), responses: { '200': jsonContent({}) } },
      patch: { operationId: `patch${i}`, requestBody: jsonContent({}), responses: { '200': jsonContent({}) } },
      delete: { operationId: `delete${i}`, responses: { '204': {} } },
    };
  return { ...listSpec(), servers: [{ url: 'https://api.example.com/v1' }], paths };
}

/** Microseconds of each of SCHEMA_VALIDATIONS runs of `run` after SCHEMA_WARMUP, sorted. */
function timeEach(run: () => void): number[] {
  for (let i = 0; i < SCHEMA_WARMUP; i++) run();
  const times: number[] = [];
  for (let i = 0; i < SCHEMA_VALIDATIONS; i++) {
    const started = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  return times.sort((a, b) => a - b);
}

function schemaProfile(): void {
  const body = listBody();
  const rows: [string, number[], boolean][] = [['JSON.parse alone', timeEach(() => JSON.parse(body)), false]];
  for (const [name, pattern] of [
    ['typical schema', undefined],
    ['with a pattern on each name', '^[A-Za-z0-9 ]+$'],
  ] as const) {
    const validate = specSchemas(listSpec(pattern)).validator('listItems')!;
    if (!validate(200, body).pass) throw new Error('schema: the body must pass');
    rows.push([name, timeEach(() => validate(200, body)), true]);
  }
  const doc = generatedSpec();
  const probeTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = process.hrtime.bigint();
    if (specProbes(doc).probes.length !== 500) throw new Error('specProbes: expected 500 operations');
    probeTimes.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  console.log(
    `\nThe schema assertion: ${SCHEMA_VALIDATIONS} validations of a ${(body.length / 1024).toFixed(1)} KB JSON list after ${SCHEMA_WARMUP} to warm up, JSON.parse included (target p99 < ${TARGET_SCHEMA_P99_US} µs)`,
  );
  console.log('| validation | p50 µs | p99 µs | max µs | verdict |');
  console.log('|---|---|---|---|---|');
  for (const [name, times, judged] of rows) {
    const p99 = percentile(times, 99);
    const verdict = judged ? (p99 < TARGET_SCHEMA_P99_US ? 'ok' : 'FAIL') : '';
    console.log(
      `| ${name} | ${fixed(percentile(times, 50), 1)} | ${fixed(p99, 1)} | ${fixed(times.at(-1)!, 1)} | ${verdict} |`,
    );
  }
  const slowest = Math.max(...probeTimes);
  console.log(
    `specProbes over 500 operations: first ${fixed(probeTimes[0]!, 1)} ms, slowest of 5 ${fixed(slowest, 1)} ms (target < ${TARGET_PROBES_MS} ms): ${slowest < TARGET_PROBES_MS ? 'ok' : 'FAIL'}`,
  );
}

const PROFILE = process.env.BENCH_PROFILE ?? 'default';
if (PROFILE === 'mixed') await (await import('./checks-mixed.js')).mixedProfile();
else if (PROFILE === 'schemas') schemaProfile();
else if (PROFILE === 'default') {
  await defaultProfile();
  schemaProfile();
} else throw new Error(`BENCH_PROFILE must be default, mixed or schemas, got "${PROFILE}"`);
