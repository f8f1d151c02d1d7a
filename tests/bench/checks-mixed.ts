/**
 * `BENCH_PROFILE=mixed npm run bench:checks` (issue 26's speed figures): the shared runner with checks of every
 * probing kind and heartbeats, in one server process, on each engine, against local targets in a process of
 * their own (check-targets.ts). The mix: 60 % http with four assertions, 15 % tls, 10 % tcp, 10 % dns, 5 %
 * heartbeat. Measured per engine: results per second by kind against what the checks' frequency asks for, schedule
 * lag p50/p99/max, the process's CPU (one core = 100 %), peak RSS and RSS and heap per check. Then, once (no
 * database): TLS handshakes per second per core of a bare `tls.connect` loop and of the tls probe against the
 * same server, and the time of evaluate() per result over real observations of each kind (target p99 < 50 µs).
 *
 * Settings: BENCH_CHECKS (10000), BENCH_FREQUENCY (15), BENCH_CHECK_SECONDS (120), BENCH_ENGINES, as the default
 * profile; BENCH_PINGS=1 (the targets ping every heartbeat once per period through the server's HTTP API),
 * BENCH_TLS_SECONDS (10), BENCH_TLS_CONCURRENCY (20), BENCH_TLS_KEY (ec or rsa), BENCH_EVALUATIONS (20000). The
 * issue's profile: BENCH_PROFILE=mixed BENCH_CHECKS=100000 BENCH_FREQUENCY=60.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { connect as tlsConnect } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pino } from 'pino';
import { parseAssertions } from '../../src/domain/assertion-text.js';
import type { Assertion, CheckKind, Observation, ProbeSpec } from '../../src/domain/check-kinds.js';
import { compileAssertions, changedValues, evaluate } from '../../src/runner/assertions.js';
import { observe } from '../../src/runner/observe.js';
import { closeSharedAgents } from '../../src/runner/probe.js';
import { buildApp } from '../../src/server/app.js';
import { closeContext, createContext } from '../../src/server/bootstrap.js';
import { loadConfig } from '../../src/server/config.js';
import type { ServerContext } from '../../src/server/context.js';
import { startSharedRunner } from '../../src/server/jobs/shared-runner.js';
import { randomToken, sha256 } from '../../src/server/crypto/secrets.js';
import { freshDatabase, type TestEngine } from '../support/database.js';
import type { TargetMessage, TargetPorts, TargetRequest } from './check-targets.js';
import {
  DOMAIN,
  enginesToRun,
  insertInBatches,
  positiveNumber,
  profiled,
  registerAndLogIn,
  seedTeamAndServices,
  type ProfileNode,
} from './harness.js';

const CHECKS = positiveNumber(process.env.BENCH_CHECKS, 10_000, 'BENCH_CHECKS');
const SECONDS = positiveNumber(process.env.BENCH_CHECK_SECONDS, 120, 'BENCH_CHECK_SECONDS');
const FREQUENCY = positiveNumber(process.env.BENCH_FREQUENCY, 15, 'BENCH_FREQUENCY');
const PINGS = process.env.BENCH_PINGS === '1';
const CPU_PROFILE = process.env.BENCH_CPU_PROFILE === '1';
const TLS_SECONDS = positiveNumber(process.env.BENCH_TLS_SECONDS, 10, 'BENCH_TLS_SECONDS');
const TLS_CONCURRENCY = positiveNumber(process.env.BENCH_TLS_CONCURRENCY, 20, 'BENCH_TLS_CONCURRENCY');
const EVALUATIONS = positiveNumber(process.env.BENCH_EVALUATIONS, 20_000, 'BENCH_EVALUATIONS');
const SERVICES = 100;
const TIMEOUT_SECONDS = 5;
/** A heartbeat is looked at this often at most (shared-runner.ts HEARTBEAT_LOOK_SECONDS). */
const HEARTBEAT_LOOK_SECONDS = 60;
/** Without pings a heartbeat stays on time this long after the seeded ping (no result is written meanwhile). */
const QUIET_GRACE_SECONDS = 86_400;
/** With pings, the grace a heartbeat has: a ping late by more shows as a failed result. */
const PINGED_GRACE_SECONDS = 60;

const TARGET_LAG_P99_MS = 1000;
const TARGET_CPU = 100;
const TARGET_EVALUATION_P99_US = 50;
/** Results of each probing kind per second must reach this share of what the frequency asks for. */
const TARGET_RATE_SHARE = 0.97;

type MixKind = Extract<CheckKind, 'http' | 'tls' | 'tcp' | 'dns' | 'heartbeat'>;
type ProbedKind = Exclude<MixKind, 'heartbeat'>;

/** Kinds by check index modulo 20: 12 http, 3 tls, 2 tcp, 2 dns, 1 heartbeat (60/15/10/10/5 %). */
const MIX: readonly MixKind[] = [
  ...Array<MixKind>(12).fill('http'),
  ...Array<MixKind>(3).fill('tls'),
  ...Array<MixKind>(2).fill('tcp'),
  ...Array<MixKind>(2).fill('dns'),
  'heartbeat',
];
const KINDS: readonly MixKind[] = ['http', 'tls', 'tcp', 'dns', 'heartbeat'];
const PROBED: readonly ProbedKind[] = ['http', 'tls', 'tcp', 'dns'];

/** Each probing kind's assertions, as someone types them in the check dialog. */
const ASSERTION_TEXT: Record<ProbedKind, string> = {
  http: ['status in 200..299', 'latency_ms < 1000 warning', 'header:x-version exists', 'json:$.status == "UP"'].join(
    '\n',
  ),
  // The certificate is self-signed (cert.valid is false): days left and drift are what is asserted.
  tls: ['connected == true', 'cert.days_left >= 14', 'cert.fingerprint changed'].join('\n'),
  tcp: 'body contains "220"',
  dns: ['dns.rcode == NOERROR', 'dns.answers contains "127.0.0.1"'].join('\n'),
};

function typedAssertions(kind: ProbedKind): Assertion[] {
  const parsed = parseAssertions(ASSERTION_TEXT[kind]);
  if (parsed.errors.length > 0) throw new Error(`${kind} assertions: ${JSON.stringify(parsed.errors)}`);
  return parsed.assertions;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The garbage collector, for heap figures that hold only what is kept (`--expose-gc` set at run time). */
const gc = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** RssAnon of /proc/self/status in bytes; NaN where there is none. */
function anonymousRss(): number {
  try {
    const match = /^RssAnon:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

const loadAverage = () => os.loadavg().map((load) => load.toFixed(2));

/** Self time by module: a file of src/, a package, Node's own code, or V8's (GC, idle, program). */
function printModules(label: string, profile: { nodes: ProfileNode[] }): void {
  const byModule = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    total += hits;
    const { url, functionName } = node.callFrame;
    const module = !url
      ? functionName || '(anonymous)'
      : url.includes('/node_modules/')
        ? url.replace(/^.*\/node_modules\/((@[^/]+\/)?[^/]+).*$/, '$1')
        : url.startsWith('node:')
          ? 'node:' + url.slice(5).split('/')[0]
          : url.replace(/^file:\/\/.*?\/(src|tests)\//, '$1/');
    byModule.set(module, (byModule.get(module) ?? 0) + hits);
  }
  const top = [...byModule.entries()].sort(([, a], [, b]) => b - a).slice(0, 20);
  console.log(`  profile of ${label} (self time by module, top 20):`);
  for (const [module, hits] of top) console.log(`    ${((hits / total) * 100).toFixed(1).padStart(5)} %  ${module}`);
}

// ---------------------------------------------------------------------------------------------------------------
// The targets' process

interface Targets {
  ports: TargetPorts;
  child: ChildProcess;
  ask<T extends TargetMessage['type']>(request: TargetRequest, answer: T): Promise<Extract<TargetMessage, { type: T }>>;
  /** The targets' CPU time so far, µs. */
  cpu(): Promise<number>;
}

async function startTargets(): Promise<Targets> {
  const script = fileURLToPath(new URL('./check-targets.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, BEACON_BENCH_TARGETS: '1' },
  });
  const next = <T extends TargetMessage['type']>(type: T) =>
    new Promise<Extract<TargetMessage, { type: T }>>((resolve, reject) => {
      const onMessage = (message: TargetMessage) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as Extract<TargetMessage, { type: T }>);
      };
      const onExit = (code: number | null) => reject(new Error(`the targets' process ended (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const { ports } = await next('ports');
  const ask: Targets['ask'] = (request, answer) => {
    const reply = next(answer);
    child.send(request);
    return reply;
  };
  return { ports, child, ask, cpu: async () => (await ask({ type: 'cpu' }, 'cpu')).micros };
}

// ---------------------------------------------------------------------------------------------------------------
// Seeding

/** The heartbeats' secrets, for the targets to ping with (BENCH_PINGS=1). */
async function seedChecks(ctx: ServerContext, workspaceId: string, ports: TargetPorts): Promise<string[]> {
  const now = new Date().toISOString();
  const services = await seedTeamAndServices(ctx, workspaceId, SERVICES, now);
  const assertions = Object.fromEntries(PROBED.map((kind) => [kind, JSON.stringify(typedAssertions(kind))]));
  const tokens: string[] = [];
  const checks = Array.from({ length: CHECKS }, (_, i) => {
    const kind = MIX[i % MIX.length]!;
    const common = {
      id: randomUUID(),
      workspace_id: workspaceId,
      service_id: services[i % SERVICES]!.id,
      name: `Check ${i} (${kind})`,
      runner_id: null,
      frequency: FREQUENCY,
      timeout: TIMEOUT_SECONDS,
      allowed_failures: 0,
      importance: 'warning' as const,
      disabled: 0,
      paused: 0,
      created_at: now,
      updated_at: now,
      kind,
      request: null,
      starttls: null,
      record: kind === 'dns' ? ('A' as const) : null,
      assertions: kind === 'heartbeat' ? null : assertions[kind]!,
      grace: null as number | null,
      schedule: null,
      time_zone: null,
      ping_token_hash: null as string | null,
      ping_token_sealed: null as string | null,
      last_ping_at: null as number | null,
      last_ping_kind: null as 'success' | null,
    };
    switch (kind) {
      case 'http':
        return { ...common, endpoint: `http://127.0.0.1:${ports.http}/health/${i}` };
      case 'tls':
        return { ...common, endpoint: `127.0.0.1:${ports.tls}` };
      case 'tcp':
        return { ...common, endpoint: `127.0.0.1:${ports.tcp}` };
      case 'dns':
        return { ...common, endpoint: `svc-${i}.bench.test` };
      case 'heartbeat': {
        const token = randomToken();
        tokens.push(token);
        // Pinged at seeding: on time from the start, and, without pings, for the grace after.
        return {
          ...common,
          endpoint: '',
          grace: PINGS ? PINGED_GRACE_SECONDS : QUIET_GRACE_SECONDS,
          ping_token_hash: sha256(token),
          ping_token_sealed: ctx.secretBox.seal(token),
          last_ping_at: Date.now(),
          last_ping_kind: 'success' as const,
        };
      }
    }
  });
  await insertInBatches(ctx, 'health_checks', checks);
  return tokens;
}

// ---------------------------------------------------------------------------------------------------------------
// The runner

interface KindFigures {
  kind: MixKind;
  checks: number;
  /** Results written per second during the measured window (a heartbeat on time writes none: only pings do). */
  resultsPerSecond: number;
  /** What the checks' frequency asks for: checks / frequency (heartbeats: pings, or none without them). */
  expectedPerSecond: number;
  failed: number;
  /** Failed results by error class, and one message of each. */
  errors: { errorClass: string; count: number; message: string }[];
}

interface RunnerFigures {
  kinds: KindFigures[];
  /** Runs started per second: probes, and heartbeat looks (one a check per min(frequency, 60 s)). */
  runsPerSecond: number;
  expectedRunsPerSecond: number;
  lag: { p50: number; p99: number; max: number };
  cpuPercent: number;
  targetsCpuPercent: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  /** Anonymous RSS (Linux): RSS without file pages, such as SQLite's memory-mapped database. */
  anonBeforeMb: number;
  anonPeakMb: number;
  anonPerCheckKb: number;
  /** Peak RSS over the RSS before the runner started, per check. */
  rssPerCheckKb: number;
  /** Heap kept (after a full GC) while the runner holds every check, over the heap before it, per check. */
  heapPerCheckKb: number;
  loadAtStart: string[];
  loadAtEnd: string[];
  pings?: { sent: number; failed: number };
}

const countOf = (n: unknown) => Number(n ?? 0);

async function resultsByKind(ctx: ServerContext, from: number, to: number) {
  const db = ctx.database.db;
  const totals = await db
    .selectFrom('health_check_results as r')
    .innerJoin('health_checks as c', 'c.id', 'r.check_id')
    .select((eb) => [
      'c.kind as kind',
      eb.fn.countAll<string>().as('n'),
      eb.fn.sum<string>(eb.case().when('r.success', '=', 0).then(1).else(0).end()).as('failed'),
    ])
    .where('r.start', '>=', from)
    .where('r.start', '<', to)
    .groupBy('c.kind')
    .execute();
  const errors = await db
    .selectFrom('health_check_results as r')
    .innerJoin('health_checks as c', 'c.id', 'r.check_id')
    .select((eb) => [
      'c.kind as kind',
      'r.error_class as error_class',
      eb.fn.countAll<string>().as('n'),
      eb.fn.max('r.error').as('message'),
    ])
    .where('r.start', '>=', from)
    .where('r.start', '<', to)
    .where('r.success', '=', 0)
    .groupBy(['c.kind', 'r.error_class'])
    .execute();
  return { totals, errors };
}

async function measureRunner(
  ctx: ServerContext,
  targets: Targets,
  pingTarget: { port: number; tokens: string[] } | undefined,
): Promise<RunnerFigures> {
  gc();
  const before = process.memoryUsage();
  const anonBefore = anonymousRss();
  let measuring = false;
  let started = 0;
  const lags: number[] = [];
  const runner = startSharedRunner(ctx, {
    onStart: (lag) => {
      if (!measuring) return;
      started++;
      lags.push(lag);
    },
  });
  if (pingTarget) {
    targets.child.send({
      type: 'pings',
      port: pingTarget.port,
      host: `${DOMAIN}.localhost`,
      tokens: pingTarget.tokens,
      periodSeconds: FREQUENCY,
    } satisfies TargetRequest);
  }
  // The first interval spreads the first runs of every check over its slots; measure the steady state after.
  const warmUp = FREQUENCY + 5;
  console.log(`  warming up for ${warmUp} s...`);
  await sleep(warmUp * 1000);
  measuring = true;
  const loadAtStart = loadAverage();
  const cpuBefore = process.cpuUsage();
  const targetsBefore = await targets.cpu();
  const since = Date.now();
  let rss = process.memoryUsage().rss;
  let anon = anonymousRss();
  console.log(`  measuring for ${SECONDS} s (load average ${loadAtStart.join(' ')})...`);
  await profiled(
    'the shared runner',
    async () => {
      while (Date.now() - since < SECONDS * 1000) {
        await sleep(1000);
        rss = Math.max(rss, process.memoryUsage().rss);
        anon = Math.max(anon, anonymousRss());
      }
    },
    // BENCH_CPU_PROFILE=1: the main thread over the window, by function and by module.
    { enabled: CPU_PROFILE, intervalUs: 500, also: printModules },
  );
  measuring = false;
  const end = Date.now();
  const elapsed = (end - since) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const targetsCpu = (await targets.cpu()) - targetsBefore;
  const loadAtEnd = loadAverage();
  gc();
  const heldHeap = process.memoryUsage().heapUsed;
  const pings = pingTarget ? await targets.ask({ type: 'stop-pings' }, 'pings') : undefined;
  await runner.stop();
  const { totals, errors } = await resultsByKind(ctx, since, end);

  const checksOf = (kind: MixKind) =>
    Math.floor(CHECKS / MIX.length) * MIX.filter((k) => k === kind).length +
    MIX.slice(0, CHECKS % MIX.length).filter((k) => k === kind).length;
  const kinds = KINDS.map((kind): KindFigures => {
    const total = totals.find((row) => row.kind === kind);
    const checks = checksOf(kind);
    return {
      kind,
      checks,
      resultsPerSecond: countOf(total?.n) / elapsed,
      expectedPerSecond: kind === 'heartbeat' ? (pingTarget ? checks / FREQUENCY : 0) : checks / FREQUENCY,
      failed: countOf(total?.failed),
      errors: errors
        .filter((row) => row.kind === kind)
        .map((row) => ({
          errorClass: row.error_class ?? 'none',
          count: countOf(row.n),
          message: String(row.message ?? ''),
        })),
    };
  });
  lags.sort((a, b) => a - b);
  const heartbeats = checksOf('heartbeat');
  return {
    kinds,
    runsPerSecond: started / elapsed,
    expectedRunsPerSecond: (CHECKS - heartbeats) / FREQUENCY + heartbeats / Math.min(FREQUENCY, HEARTBEAT_LOOK_SECONDS),
    lag: { p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags.at(-1) ?? NaN },
    cpuPercent: ((cpu.user + cpu.system) / 1000 / (elapsed * 1000)) * 100,
    targetsCpuPercent: (targetsCpu / 1000 / (elapsed * 1000)) * 100,
    rssBeforeMb: before.rss / 1024 / 1024,
    rssPeakMb: rss / 1024 / 1024,
    rssPerCheckKb: (rss - before.rss) / 1024 / CHECKS,
    anonBeforeMb: anonBefore / 1024 / 1024,
    anonPeakMb: anon / 1024 / 1024,
    anonPerCheckKb: (anon - anonBefore) / 1024 / CHECKS,
    heapPerCheckKb: (heldHeap - before.heapUsed) / 1024 / CHECKS,
    loadAtStart,
    loadAtEnd,
    ...(pings && { pings: { sent: pings.sent, failed: pings.failed } }),
  };
}

async function benchEngine(engine: TestEngine, targets: Targets) {
  console.log(`\n${engine}: seeding ${CHECKS} checks (mixed)...`);
  const database = await freshDatabase(engine);
  let ctx: ServerContext | undefined;
  try {
    const config = loadConfig({
      ...database.env,
      PORT: '8080',
      LOG_LEVEL: 'silent',
      BEACON_ALLOW_PRIVATE_TARGETS: '1',
      BEACON_DNS_RESOLVERS: `127.0.0.1:${targets.ports.dns}`,
    });
    ctx = await createContext(config, pino({ level: 'silent' }));
    const app = await buildApp(ctx);
    await app.ready();
    const { workspaceId } = await registerAndLogIn(app, ctx, `${DOMAIN}.localhost`);
    const tokens = await seedChecks(ctx, workspaceId, targets.ports);
    let pingTarget: { port: number; tokens: string[] } | undefined;
    if (PINGS) {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('the server has no port');
      pingTarget = { port: address.port, tokens };
    }
    const runner = await measureRunner(ctx, targets, pingTarget);
    await app.close();
    return { engine, runner };
  } finally {
    await closeSharedAgents();
    if (ctx) await closeContext(ctx);
    await database.drop();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// TLS handshakes per core

interface HandshakeFigures {
  handshakes: number;
  errors: number;
  perSecond: number;
  cpuPercent: number;
  /** Handshakes per second of this process's CPU: what one core would do. */
  perCore: number;
  targetsCpuPercent: number;
}

/** `once` run TLS_CONCURRENCY at a time for TLS_SECONDS; each call is one handshake or a failure (false). */
async function handshakeLoop(targets: Targets, once: () => Promise<boolean>): Promise<HandshakeFigures> {
  // Warm up (the JIT, the certificate parsing), then measure.
  await Promise.all(Array.from({ length: TLS_CONCURRENCY }, () => once()));
  let handshakes = 0;
  let errors = 0;
  const cpuBefore = process.cpuUsage();
  const targetsBefore = await targets.cpu();
  const since = Date.now();
  const until = since + TLS_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: TLS_CONCURRENCY }, async () => {
      while (Date.now() < until) {
        if (await once().catch(() => false)) handshakes++;
        else errors++;
      }
    }),
  );
  const elapsed = (Date.now() - since) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const targetsCpu = (await targets.cpu()) - targetsBefore;
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return {
    handshakes,
    errors,
    perSecond: handshakes / elapsed,
    cpuPercent: (cpuSeconds / elapsed) * 100,
    perCore: handshakes / cpuSeconds,
    targetsCpuPercent: (targetsCpu / 1e6 / elapsed) * 100,
  };
}

async function measureHandshakes(targets: Targets) {
  const port = targets.ports.tls;
  const bare = () =>
    new Promise<boolean>((resolve) => {
      const socket = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  const spec: ProbeSpec = { kind: 'tls', endpoint: `127.0.0.1:${port}`, timeoutSeconds: TIMEOUT_SECONDS };
  const probe = async () => {
    const observation = await observe(spec, { allowPrivate: true });
    return observation.connected && !observation.error;
  };
  console.log(`\nTLS handshakes, ${TLS_CONCURRENCY} at a time for ${TLS_SECONDS} s each: a bare tls.connect loop...`);
  const bareFigures = await handshakeLoop(targets, bare);
  console.log('  ...and the tls probe (observe)');
  const probeFigures = await handshakeLoop(targets, probe);
  return { bare: bareFigures, probe: probeFigures, load: loadAverage() };
}

// ---------------------------------------------------------------------------------------------------------------
// Assertion evaluation per result

interface EvaluationFigures {
  kind: ProbedKind | 'all';
  results: number;
  assertions: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
  /** The process's CPU time around each call (getrusage, µs resolution): what preemption by others does not add. */
  cpuP50: number;
  cpuP99: number;
  cpuMean: number;
  failing: number;
}

/**
 * What compiling a check's assertions costs (the runner does it once per check version and keeps the result):
 * heap kept per check after a full GC, and time per check, over COMPILED copies of each kind's assertions.
 */
function measureCompiling() {
  const COMPILED = 2000;
  const kept: unknown[] = [];
  return PROBED.map((kind) => {
    const list = typedAssertions(kind);
    gc();
    const before = process.memoryUsage().heapUsed;
    const started = process.hrtime.bigint();
    const copies = Array.from({ length: COMPILED }, () => compileAssertions(structuredClone(list)));
    const micros = Number(process.hrtime.bigint() - started) / 1000 / COMPILED;
    gc();
    const heapKb = (process.memoryUsage().heapUsed - before) / 1024 / COMPILED;
    kept.push(copies);
    return { kind, heapKb, micros };
  });
}

/** Real observations of each probing kind (from the targets), then evaluate() timed on each, in the mix. */
async function measureEvaluation(targets: Targets) {
  const { ports } = targets;
  const options = { allowPrivate: true, dnsResolvers: [`127.0.0.1:${ports.dns}`] };
  const specs: Record<ProbedKind, ProbeSpec> = {
    http: { kind: 'http', endpoint: `http://127.0.0.1:${ports.http}/health/0`, timeoutSeconds: TIMEOUT_SECONDS },
    tls: { kind: 'tls', endpoint: `127.0.0.1:${ports.tls}`, timeoutSeconds: TIMEOUT_SECONDS },
    tcp: { kind: 'tcp', endpoint: `127.0.0.1:${ports.tcp}`, timeoutSeconds: TIMEOUT_SECONDS },
    dns: { kind: 'dns', endpoint: 'svc-0.bench.test', record: 'A', timeoutSeconds: TIMEOUT_SECONDS },
  };
  const SAMPLES = 20;
  const observations = {} as Record<ProbedKind, Observation[]>;
  for (const kind of PROBED) {
    observations[kind] = [];
    for (let i = 0; i < SAMPLES; i++) observations[kind].push(await observe(specs[kind], options));
  }
  await closeSharedAgents();
  const compiled = Object.fromEntries(PROBED.map((kind) => [kind, compileAssertions(typedAssertions(kind))])) as Record<
    ProbedKind,
    ReturnType<typeof compileAssertions>
  >;
  // The probing kinds in their shares of the mix (heartbeats have no assertions to evaluate).
  const order = MIX.filter((kind): kind is ProbedKind => kind !== 'heartbeat');
  const previous: Partial<Record<ProbedKind, Record<string, string | null>>> = {};
  const times: Record<ProbedKind, number[]> = { http: [], tls: [], tcp: [], dns: [] };
  const cpuTimes: Record<ProbedKind, number[]> = { http: [], tls: [], tcp: [], dns: [] };
  const failing: Record<ProbedKind, number> = { http: 0, tls: 0, tcp: 0, dns: 0 };
  const warmUp = Math.min(2000, EVALUATIONS);
  for (let i = 0; i < warmUp + EVALUATIONS; i++) {
    const kind = order[i % order.length]!;
    const observation = observations[kind][i % SAMPLES]!;
    const last = previous[kind];
    const cpuBefore = process.cpuUsage();
    const started = process.hrtime.bigint();
    const results = await evaluate(compiled[kind], observation, {
      importance: 'warning',
      ...(last ? { previous: last } : {}),
    });
    const micros = Number(process.hrtime.bigint() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    previous[kind] = changedValues(results, last);
    if (i < warmUp) continue;
    times[kind].push(micros);
    cpuTimes[kind].push(cpu.user + cpu.system);
    if (results.some((result) => !result.pass)) failing[kind]++;
  }
  const figures = (kind: ProbedKind | 'all', list: number[], cpuList: number[], failed: number): EvaluationFigures => {
    const sorted = [...list].sort((a, b) => a - b);
    const cpuSorted = [...cpuList].sort((a, b) => a - b);
    return {
      kind,
      results: list.length,
      assertions: kind === 'all' ? NaN : compiled[kind].assertions.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? NaN,
      mean: list.reduce((sum, value) => sum + value, 0) / Math.max(1, list.length),
      cpuP50: percentile(cpuSorted, 50),
      cpuP99: percentile(cpuSorted, 99),
      cpuMean: cpuList.reduce((sum, value) => sum + value, 0) / Math.max(1, cpuList.length),
      failing: failed,
    };
  };
  const rows = PROBED.map((kind) => figures(kind, times[kind], cpuTimes[kind], failing[kind]));
  rows.push(
    figures(
      'all',
      PROBED.flatMap((kind) => times[kind]),
      PROBED.flatMap((kind) => cpuTimes[kind]),
      PROBED.reduce((sum, kind) => sum + failing[kind], 0),
    ),
  );
  const failedObservations = PROBED.flatMap((kind) =>
    observations[kind].filter((o) => o.error).map((o) => `${kind}: ${o.error!.class} ${o.error!.message}`),
  );
  return { rows, failedObservations, compiling: measureCompiling(), load: loadAverage() };
}

// ---------------------------------------------------------------------------------------------------------------

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

export async function mixedProfile(): Promise<void> {
  const targets = await startTargets();
  try {
    const results = [];
    for (const engine of enginesToRun()) results.push(await benchEngine(engine, targets));
    const handshakes = await measureHandshakes(targets);
    const evaluation = await measureEvaluation(targets);

    const heartbeatNote = PINGS
      ? `pinged once per ${FREQUENCY} s each by the targets' process through the server's API`
      : `not pinged (on time: seeded with a ping and ${QUIET_GRACE_SECONDS / 3600} h grace; looked at, no result written)`;
    console.log(
      `\nShared runner, mixed profile: ${CHECKS} checks every ${FREQUENCY} s (60 % http with 4 assertions, 15 % tls, 10 % tcp, 10 % dns, 5 % heartbeat, ${heartbeatNote}), ${SECONDS} s measured on ${os.cpus().length} cores (targets: lag p99 < ${TARGET_LAG_P99_MS} ms, CPU < ${TARGET_CPU} % of one core, every probing kind's results >= ${TARGET_RATE_SHARE * 100} % of its rate, none failed)`,
    );
    console.log(
      '| engine | runs started/s (expected) | lag p50 ms | lag p99 ms | lag max ms | CPU % of a core | targets CPU % | RSS before MB | peak RSS MB | RSS KB/check | anon RSS before/peak MB | anon RSS KB/check | heap KB/check | load avg 1/5/15 (start; end) | verdict |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const { engine, runner } of results) {
      const misses: string[] = [];
      if (!(runner.lag.p99 < TARGET_LAG_P99_MS)) misses.push('lag');
      if (!(runner.cpuPercent < TARGET_CPU)) misses.push('CPU');
      for (const kind of runner.kinds) {
        if (kind.expectedPerSecond > 0 && kind.resultsPerSecond < TARGET_RATE_SHARE * kind.expectedPerSecond)
          misses.push(`${kind.kind} rate`);
        if (kind.failed > 0) misses.push(`${kind.kind} failed`);
      }
      console.log(
        `| ${engine} | ${fixed(runner.runsPerSecond)} (${fixed(runner.expectedRunsPerSecond)}) | ${fixed(runner.lag.p50)} | ${fixed(runner.lag.p99)} | ${fixed(runner.lag.max)} | ${fixed(runner.cpuPercent)} | ${fixed(runner.targetsCpuPercent)} | ${fixed(runner.rssBeforeMb)} | ${fixed(runner.rssPeakMb)} | ${fixed(runner.rssPerCheckKb, 2)} | ${fixed(runner.anonBeforeMb)}/${fixed(runner.anonPeakMb)} | ${fixed(runner.anonPerCheckKb, 2)} | ${fixed(runner.heapPerCheckKb, 2)} | ${runner.loadAtStart.join(' ')}; ${runner.loadAtEnd.join(' ')} | ${misses.length === 0 ? 'PASS' : `FAIL (${misses.join(', ')})`} |`,
      );
    }
    console.log('\nResults by kind during the measured window');
    console.log('| engine | kind | checks | results/s | expected/s | failed | errors (class: count, one message) |');
    console.log('|---|---|---|---|---|---|---|');
    for (const { engine, runner } of results) {
      for (const kind of runner.kinds) {
        const errors = kind.errors.map((e) => `${e.errorClass}: ${e.count}, "${e.message.slice(0, 80)}"`).join('; ');
        console.log(
          `| ${engine} | ${kind.kind} | ${kind.checks} | ${fixed(kind.resultsPerSecond, 1)} | ${fixed(kind.expectedPerSecond, 1)} | ${kind.failed} | ${errors || '-'} |`,
        );
      }
      if (runner.pings)
        console.log(`| ${engine} | (pings sent) | | | | ${runner.pings.failed} | ${runner.pings.sent} answered 200 |`);
    }

    const { bare, probe } = handshakes;
    console.log(
      `\nTLS handshakes against the targets' TLS server (${process.env.BENCH_TLS_KEY === 'rsa' ? 'RSA-2048' : 'EC P-256'} certificate, TLS 1.3, no resumption), ${TLS_CONCURRENCY} at a time, ${TLS_SECONDS} s each; per core = handshakes per second of this process's CPU; load average ${handshakes.load.join(' ')}`,
    );
    console.log(
      '| loop | handshakes/s | errors | CPU % of a core | handshakes/s per core | targets CPU % | share of bare |',
    );
    console.log('|---|---|---|---|---|---|---|');
    for (const [name, row] of [
      ['bare tls.connect', bare],
      ['tls probe (observe)', probe],
    ] as const) {
      console.log(
        `| ${name} | ${fixed(row.perSecond)} | ${row.errors} | ${fixed(row.cpuPercent)} | ${fixed(row.perCore)} | ${fixed(row.targetsCpuPercent)} | ${fixed((row.perCore / bare.perCore) * 100)} % |`,
      );
    }

    console.log(
      `\nAssertion evaluation (evaluate() on real observations, ${EVALUATIONS} results in the mix's shares after a warm-up, one at a time, the process otherwise idle; target p99 < ${TARGET_EVALUATION_P99_US} µs); load average ${evaluation.load.join(' ')}`,
    );
    console.log(
      '| kind | assertions | results | p50 µs | p99 µs | max µs | mean µs | CPU p50 µs | CPU p99 µs | CPU mean µs | results failing | verdict (p99) |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const row of evaluation.rows) {
      console.log(
        `| ${row.kind} | ${fixed(row.assertions)} | ${row.results} | ${fixed(row.p50, 1)} | ${fixed(row.p99, 1)} | ${fixed(row.max)} | ${fixed(row.mean, 1)} | ${fixed(row.cpuP50)} | ${fixed(row.cpuP99)} | ${fixed(row.cpuMean, 1)} | ${row.failing} | ${row.p99 < TARGET_EVALUATION_P99_US ? 'ok' : 'FAIL'} |`,
      );
    }
    console.log(
      `\nCompiled assertions kept per check (the runner keeps one per check version): ${evaluation.compiling
        .map((row) => `${row.kind} ${fixed(row.heapKb, 1)} KB heap, ${fixed(row.micros)} µs to compile`)
        .join('; ')}`,
    );
    if (evaluation.failedObservations.length > 0)
      console.log(`Observations with an error: ${evaluation.failedObservations.slice(0, 5).join('; ')}`);
  } finally {
    targets.child.kill();
  }
}
