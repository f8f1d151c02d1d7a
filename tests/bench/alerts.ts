/**
 * `npm run bench:alerts` (issue 50): 10,000 services in 100 teams, each team with a webhook channel and a policy
 * (every severity to its channel; an escalation telling the channel again BENCH_ESCALATE_S after opening), and 9,000
 * alerts already open, so 10,000 are open once the wave is in. Then a wave of BENCH_WAVE (1,000) services failing
 * within 10 s, each as the shared runner fails one (its health change's transaction, which opens the alert and
 * queues its first messages; through the jobs' share of the database, as the runner's). Measured, on each engine:
 * - the health change's transaction (the alert open and its messages queued) p50/p99/max: target < 2 s;
 * - every message of the wave delivered; then 10,000 deliveries queued at once: the alert outbox's pace to a receiver
 *   in its own process, per minute: target >= 10,000;
 * - how late each escalation step fires after its time, p50/p99/max: target < 5 s;
 * - GET /api/alerts?state=open through the real app meanwhile, p50/p99: target p99 < 100 ms.
 * Settings: BENCH_SERVICES (10000), BENCH_WAVE (1000), BENCH_ESCALATE_S (5), BENCH_ENGINES,
 * BEACON_TEST_DATABASE_URL (see README.md here).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { buildApp } from '../../src/server/app.js';
import { closeContext, createContext } from '../../src/server/bootstrap.js';
import { loadConfig } from '../../src/server/config.js';
import type { ServerContext } from '../../src/server/context.js';
import { startAlertEscalation } from '../../src/server/jobs/alert-escalation.js';
import { startAlertOutbox } from '../../src/server/jobs/alert-outbox.js';
import { policyColumns } from '../../src/server/services/alerting/policy.js';
import { setServiceHealth } from '../../src/server/services/catalogue/service-health.js';
import { SHARED_RUNNER_AGENT } from '../../src/server/services/accounts/agents.js';
import { freshDatabase, type TestEngine } from '../support/database.js';
import {
  DOMAIN,
  enginesToRun,
  insertInBatches,
  positiveNumber,
  registerAndLogIn,
  serviceRows,
  settle,
  teamRows,
} from './harness.js';

const SERVICES = positiveNumber(process.env.BENCH_SERVICES, 10_000, 'BENCH_SERVICES');
const WAVE = positiveNumber(process.env.BENCH_WAVE, 1000, 'BENCH_WAVE');
const ESCALATE_S = positiveNumber(process.env.BENCH_ESCALATE_S, 5, 'BENCH_ESCALATE_S');
const TEAMS = 100;
const OPEN_BEFORE = Math.max(0, Math.min(SERVICES, 10_000) - WAVE);
const WAVE_SECONDS = 10;
const TARGETS = { openP99Ms: 2000, perMinute: 10_000, lateP99Ms: 5000, listP99Ms: 100 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** A receiver in its own process (its work is not Beacon's), answering 202 to every POST. */
async function startReceiver(): Promise<{ port: number; child: ChildProcess }> {
  const code = `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => { s.statusCode = 202; s.end('{}'); }); })
    .listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) =>
    child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
  );
  return { port, child };
}

async function seed(ctx: ServerContext, workspaceId: string, receiverPort: number) {
  const now = new Date().toISOString();
  const teams = teamRows(workspaceId, TEAMS, now);
  await insertInBatches(ctx, 'teams', teams);
  const services = serviceRows(
    workspaceId,
    SERVICES,
    teams.map((team) => team.id),
    { now },
  );
  await insertInBatches(ctx, 'services', services);
  const db = ctx.database.db;
  const channels = teams.map((team) => ({
    id: randomUUID(),
    workspace_id: workspaceId,
    team_id: team.id,
    name: `${team.name} hook`,
    kind: 'webhook' as const,
    config: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/hooks/${team.handle}` }),
    secrets: null,
    failing: 0,
    failures_in_row: 0,
    created_at: now,
    updated_at: now,
  }));
  await db.insertInto('alert_channels').values(channels).execute();
  await db
    .insertInto('alert_policies')
    .values(
      teams.map((team, i) => ({
        workspace_id: workspaceId,
        team_key: team.id,
        ...policyColumns({
          rules: [{ severities: ['warning', 'error', 'critical'], channels: [channels[i]!.id] }],
          escalation: [{ afterSeconds: ESCALATE_S, targets: [{ channel: channels[i]!.id }] }],
          repeat: 0,
          notifyWhenImpacted: true,
        }),
        updated_at: now,
      })),
    )
    .execute();
  // The alerts already open (their escalation done): the table the wave's steps and reads go through.
  const open = services.slice(WAVE, WAVE + OPEN_BEFORE).map((service) => ({
    id: randomUUID(),
    workspace_id: workspaceId,
    service_id: service.id,
    source: 'health' as const,
    severity: 'error' as const,
    state: 'open' as const,
    summary: 'Health went from Good to Error',
    opened_at: now,
    acknowledged_at: null,
    acknowledged_by: null,
    resolved_at: null,
    resolved_by: null,
    reason: null,
    escalation_round: 0,
    escalation_level: 0,
    next_escalation_at: null,
  }));
  for (let i = 0; i < open.length; i += 500)
    await db
      .insertInto('alerts')
      .values(open.slice(i, i + 500))
      .execute();
  return services.slice(0, WAVE);
}

async function runEngine(engine: TestEngine) {
  const receiver = await startReceiver();
  const database = await freshDatabase(engine);
  const config = loadConfig({ ...database.env, PORT: '8080', LOG_LEVEL: 'silent', BEACON_ALLOW_PRIVATE_TARGETS: '1' });
  const ctx = await createContext(config, pino({ level: 'silent' }));
  const app = await buildApp(ctx);
  await app.ready();
  const host = `${DOMAIN}.localhost:8080`;
  try {
    const { token, workspaceId } = await registerAndLogIn(app, ctx, host);
    console.log(`\n${engine}: seeding ${SERVICES} services, ${TEAMS} teams, ${OPEN_BEFORE} open alerts...`);
    const wave = await seed(ctx, workspaceId, receiver.port);
    await settle(ctx);
    const outbox = startAlertOutbox(ctx, { pollMs: 1000 });
    const escalation = startAlertEscalation(ctx, { pollMs: 1000 });

    const readAlerts = async () => {
      const started = performance.now();
      const response = await app.inject({
        method: 'GET',
        url: '/api/alerts?state=open&limit=50',
        headers: { host, authorization: `Bearer ${token}` },
      });
      if (response.statusCode !== 200) throw new Error(`GET /api/alerts: ${response.statusCode}`);
      return performance.now() - started;
    };
    // The bare figure: the same read with nothing else running.
    const idleReads: number[] = [];
    for (let i = 0; i < 100; i++) idleReads.push(await readAlerts());

    // /alerts, read one after another through the app while everything else runs.
    let reading = true;
    const reads: number[] = [];
    const reader = (async () => {
      while (reading) {
        reads.push(await readAlerts());
        await sleep(20);
      }
    })();

    console.log(`  the wave: ${WAVE} services failing over ${WAVE_SECONDS} s...`);
    const opens: number[] = [];
    const began = Date.now();
    const failures = wave.map(async (service, i) => {
      await sleep((i / WAVE) * WAVE_SECONDS * 1000);
      const started = performance.now();
      await ctx.database.jobs.transaction().execute((trx) =>
        setServiceHealth(trx, {
          workspaceId,
          serviceId: service.id,
          health: 'critical',
          at: new Date(),
          source: 'check',
          agent: SHARED_RUNNER_AGENT,
        }),
      );
      opens.push(performance.now() - started);
    });
    await Promise.all(failures);
    console.log(`  the wave's last transaction ended ${((Date.now() - began) / 1000).toFixed(1)} s after it began`);
    ctx.wakeAlerts?.();

    // Every opening's message and every escalation's, delivered.
    const expected = WAVE * 2;
    const db = ctx.database.db;
    const sent = async () =>
      Number(
        (
          await db
            .selectFrom('alert_deliveries')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('status', '=', 'sent')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const deadline = Date.now() + 300_000;
    while ((await sent()) < expected && Date.now() < deadline) await sleep(250);
    const delivered = await sent();
    reading = false;
    await reader;

    // The outbox's own pace: 10,000 deliveries queued at once, sent as fast as it can.
    console.log('  the outbox: 10,000 deliveries queued at once...');
    const channels = await db.selectFrom('alert_channels').select(['id', 'workspace_id']).execute();
    const at = new Date().toISOString();
    const burst = Array.from({ length: 10_000 }, (_, i) => ({
      id: randomUUID(),
      workspace_id: channels[i % channels.length]!.workspace_id,
      channel_id: channels[i % channels.length]!.id,
      alert_id: null,
      action: 'test' as const,
      message: JSON.stringify({ severity: 'critical', state: 'open', at, by: 'bench' }),
      status: 'pending' as const,
      attempts: 0,
      next_attempt_at: at,
      lease_owner: null,
      lease_until: null,
      last_error: null,
      code: null,
      attempted_at: null,
      created_at: at,
      sent_at: null,
    }));
    const burstStarted = Date.now();
    for (let i = 0; i < burst.length; i += 500)
      await db
        .insertInto('alert_deliveries')
        .values(burst.slice(i, i + 500))
        .execute();
    ctx.wakeAlerts?.();
    // Counted by what is left to send (the wave queued no tests): a channel's log keeps its last 100 attempts, so
    // sent rows of the wave go, and a count of sent rows would never reach the burst's size.
    const unsent = async () =>
      Number(
        (
          await db
            .selectFrom('alert_deliveries')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('action', '=', 'test')
            .where('status', '<>', 'sent')
            .executeTakeFirstOrThrow()
        ).n,
      );
    let left = burst.length;
    while ((left = await unsent()) > 0 && Date.now() < deadline + 300_000) await sleep(250);
    const minutes = (Date.now() - burstStarted) / 60_000;
    const burstSent = burst.length - left;
    const steps = await db
      .selectFrom('alert_timeline')
      .innerJoin('alerts', 'alerts.id', 'alert_timeline.alert_id')
      .select(['alert_timeline.at', 'alerts.opened_at'])
      .where('alert_timeline.kind', '=', 'escalated')
      .execute();
    const late = steps.map((step) => Date.parse(step.at) - (Date.parse(step.opened_at) + ESCALATE_S * 1000));
    await escalation.stop();
    await outbox.stop();
    return {
      engine,
      opens,
      delivered,
      expected,
      perMinute: burstSent / minutes,
      late,
      steps: steps.length,
      reads,
      idleReads,
      seconds: (Date.now() - began) / 1000,
    };
  } finally {
    await app.close();
    await closeContext(ctx);
    await database.drop();
    receiver.child.kill();
  }
}

const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');
const ms = (value: number) => value.toFixed(1);

console.log(
  `Beacon alerts bench: ${SERVICES} services in ${TEAMS} teams with policies, ${OPEN_BEFORE} alerts open, a wave of ` +
    `${WAVE} failing over ${WAVE_SECONDS} s, escalation after ${ESCALATE_S} s; node ${process.version}`,
);
const results = [];
for (const engine of enginesToRun()) results.push(await runEngine(engine));
console.log(
  '\n| engine | open + queue p50 / p99 / max ms | delivered | per minute | escalation late p50 / p99 / max ms | /alerts p50 / p99 ms | idle /alerts p50 / p99 ms | verdict |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const openP99 = percentile(r.opens, 99);
  const lateP99 = percentile(r.late, 99);
  const listP99 = percentile(r.reads, 99);
  const ok =
    openP99 < TARGETS.openP99Ms &&
    r.delivered >= r.expected &&
    r.perMinute >= TARGETS.perMinute &&
    r.steps >= WAVE &&
    lateP99 < TARGETS.lateP99Ms &&
    listP99 < TARGETS.listP99Ms;
  console.log(
    `| ${r.engine} | ${ms(percentile(r.opens, 50))} / ${ms(openP99)} / ${ms(Math.max(...r.opens))} | ` +
      `${r.delivered} of ${r.expected} | ${Math.round(r.perMinute)} | ` +
      `${ms(percentile(r.late, 50))} / ${ms(lateP99)} / ${ms(Math.max(...r.late))} (${r.steps} steps) | ` +
      `${ms(percentile(r.reads, 50))} / ${ms(listP99)} (${r.reads.length} reads) | ` +
      `${ms(percentile(r.idleReads, 50))} / ${ms(percentile(r.idleReads, 99))} | ${verdict(ok)} |`,
  );
}
console.log(
  `Targets: open + queue p99 < ${TARGETS.openP99Ms} ms, >= ${TARGETS.perMinute} deliveries a minute, escalation ` +
    `late p99 < ${TARGETS.lateP99Ms} ms, /alerts p99 < ${TARGETS.listP99Ms} ms`,
);
process.exit(0);
