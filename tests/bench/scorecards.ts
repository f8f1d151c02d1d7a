/**
 * `npm run bench:scorecards` (issue 28): 10,000 services with a year of health history, a check each (a TLS one
 * for every tenth) with a result, SLOs on a third of them, and 3 scorecards of 12 rules (every evaluator). On each
 * engine: a full evaluation (every scorecard, every service), one service's results after an event that changes
 * them (the edit's event, the 10 ms gathering of the refresh, the evaluation), and the matrix's first page against a
 * bare route. Targets: a full evaluation under 10 s; one service fresh under 100 ms after its event; the first page
 * p99 under 50 ms.
 */
import { randomUUID } from 'node:crypto';
import type { ServerContext } from '../../src/server/context.js';
import { startScorecardRefresh, sweepScorecards } from '../../src/server/jobs/scorecard-sweep.js';
import { updateService } from '../../src/server/db/repositories/services.js';
import { recordEvent } from '../../src/server/services/events/record-event.js';
import { random } from '../support/random.js';
import { insertInBatches, positiveNumber, runBench, seedTeamAndServices, settle } from './harness.js';

const SERVICES = positiveNumber(process.env.BENCH_SERVICES, 10_000, 'BENCH_SERVICES');
const DAY_MS = 86_400_000;

const RULES = [
  { key: 'slo', evaluator: 'slo_met', params: {} },
  { key: 'stable', evaluator: 'no_failing_checks', params: { minutes: 30 } },
  { key: 'cert', evaluator: 'cert_days_left', params: { min: 14 } },
  { key: 'incident', evaluator: 'no_open_incident', params: { min_severity: 'error' } },
  { key: 'runbook', evaluator: 'has_link', params: { kind: 'runbook' } },
  { key: 'spec', evaluator: 'has_published_spec', params: {} },
  { key: 'team', evaluator: 'team_size', params: { min: 2 } },
  { key: 'channel', evaluator: 'has_channel', params: {} },
  { key: 'eol', evaluator: 'no_eol_dependency', params: {} },
  { key: 'checked', evaluator: 'live_has_check', params: {} },
  { key: 'described', evaluator: 'field_set', params: { field: 'description' } },
  { key: 'drift', evaluator: 'no_api_drift', params: {} },
];
const LEVELS = [
  { key: 'bronze', name: 'Bronze' },
  { key: 'silver', name: 'Silver' },
  { key: 'gold', name: 'Gold' },
];

let benchCtx: ServerContext | undefined;
let workspace = '';
let serviceIds: string[] = [];

async function seed(ctx: ServerContext, workspaceId: string): Promise<void> {
  const yearAgo = Date.now() - 365 * DAY_MS;
  const services = await seedTeamAndServices(ctx, workspaceId, SERVICES, new Date(yearAgo).toISOString());
  serviceIds = services.map((s) => s.id);
  const next = random(28);
  const transitions: object[] = [];
  for (const service of services) {
    // A problem about every thirty days, minutes to hours long.
    for (let at = yearAgo + next() * 30 * DAY_MS; at < Date.now() - DAY_MS; at += next() * 60 * DAY_MS) {
      const back = at + 60_000 + next() * 4 * 3_600_000;
      transitions.push(
        { workspace_id: workspaceId, service_id: service.id, at: Math.round(at), health: 'error', source: 'check' },
        { workspace_id: workspaceId, service_id: service.id, at: Math.round(back), health: 'good', source: 'check' },
      );
    }
  }
  await insertInBatches(ctx, 'health_transitions', transitions);
  const now = new Date().toISOString();
  const checks = services.map((service, i) => ({
    id: randomUUID(),
    workspace_id: workspaceId,
    service_id: service.id,
    name: `Check ${i}`,
    endpoint: i % 10 === 0 ? `svc-${i}.example.com:443` : `https://svc-${i}.example.com/health`,
    kind: i % 10 === 0 ? 'tls' : 'http',
    runner_id: null,
    frequency: 60,
    timeout: 5,
    allowed_failures: 0,
    importance: 'warning',
    disabled: 0,
    paused: 0,
    created_at: now,
    updated_at: now,
  }));
  await insertInBatches(ctx, 'health_checks', checks);
  const results = checks.map((check, i) => ({
    check_id: check.id,
    workspace_id: workspaceId,
    start: Date.now() - 30_000,
    time: 40,
    success: i % 50 === 0 ? 0 : 1,
    status: 200,
    error: null,
    error_class: null,
    assertions: null,
    cert:
      check.kind === 'tls'
        ? JSON.stringify({
            days_left: 30,
            not_after: new Date(Date.now() + 30 * DAY_MS).toISOString(),
            subject: 'x',
            issuer: 'y',
          })
        : null,
    severity: null,
  }));
  await ctx.database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < results.length; i += 200) {
      await trx
        .insertInto('health_check_results')
        .values(results.slice(i, i + 200))
        .execute();
    }
  });
  const slos = services
    .filter((_, i) => i % 3 === 0)
    .map((service) => ({
      service_id: service.id,
      workspace_id: workspaceId,
      target_thousandths: 99_900,
      window_days: 30,
      fast_firing: 0,
      slow_firing: 0,
      created_at: now,
      updated_at: now,
    }));
  await ctx.database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < slos.length; i += 200) {
      await trx
        .insertInto('service_slos')
        .values(slos.slice(i, i + 200))
        .execute();
    }
  });
  for (let card = 0; card < 3; card++) {
    await ctx.database.db
      .insertInto('scorecards')
      .values({
        id: randomUUID(),
        workspace_id: workspaceId,
        handle: `card-${card}`,
        name: `Scorecard ${card}`,
        description: '',
        applies_to: '{}',
        levels: JSON.stringify(LEVELS),
        rules: JSON.stringify(
          RULES.map((rule, i) => ({
            ...rule,
            name: rule.key,
            level: LEVELS[i % 3]!.key,
            weight: 1 + ((i + card) % 3),
          })),
        ),
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}

const ms = (from: number) => performance.now() - from;

await runBench(
  `Beacon scorecards bench (${SERVICES} services, a year of history, 3 scorecards of 12 rules)`,
  async (ctx, workspaceId) => {
    await seed(ctx, workspaceId);
    // As on a running database (harness.ts settle): without statistics, PostgreSQL read the SLO logs by plans that
    // took 2-3 s of the evaluation, where 0.3 s is what they cost once the tables are analysed.
    await settle(ctx);
    benchCtx = ctx;
    workspace = workspaceId;
    // The full evaluation: the first (every result new) and a second (what changed only).
    let started = performance.now();
    const written = await sweepScorecards(ctx);
    const first = ms(started);
    started = performance.now();
    await sweepScorecards(ctx);
    const second = ms(started);
    console.log(
      `  full evaluation: ${first.toFixed(0)} ms for ${written} new results, again ${second.toFixed(0)} ms ` +
        `(target < 10,000 ms: ${Math.max(first, second) < 10_000 ? 'PASS' : 'FAIL'})`,
    );
    // Issue 28 names the page's p99, not a ratio to the bare route: the ratio is printed, not judged.
    return [{ name: 'scorecard results, first page', path: '/api/scorecards/card-0/results?limit=25', targetRatio: 0 }];
  },
  async (engine) => {
    const ctx = benchCtx!;
    const refresh = startScorecardRefresh(ctx);
    const timings: number[] = [];
    try {
      // One edit first, not timed: as every run of the harness has its warm-up (the refresh's reads, on a server
      // that has just served the load above).
      for (let i = -1; i < 20; i++) {
        const id = serviceIds[(i + 1) * 7]!;
        const started = performance.now();
        // An edit as the API makes it: the change and its event in one transaction.
        await ctx.database.db.transaction().execute(async (trx) => {
          await updateService(trx, workspace, id, {
            description: `Described ${i}`,
            updated_at: new Date().toISOString(),
          });
          await recordEvent(trx, {
            workspace_id: workspace,
            profile_type: 'service',
            profile_id: id,
            type: 'service.updated',
            actor_id: null,
            agent_name: 'bench',
            data: { fields: ['description'] },
            created_at: new Date().toISOString(),
          });
        });
        await refresh.settled();
        if (i >= 0) timings.push(ms(started));
        const row = await ctx.database.db
          .selectFrom('scorecard_results')
          .select('rules')
          .where('workspace_id', '=', workspace)
          .where('service_id', '=', id)
          .executeTakeFirstOrThrow();
        if (!row.rules.includes('"Description set"')) throw new Error('the result did not follow the edit');
      }
    } finally {
      refresh.stop();
    }
    console.log(`  ${engine}: each, in order (ms): ${timings.map((t) => t.toFixed(0)).join(' ')}`);
    timings.sort((a, b) => a - b);
    const p50 = timings[Math.floor(timings.length / 2)]!;
    const max = timings.at(-1)!;
    console.log(
      `  ${engine}: one service's results after its event (incl. the 10 ms gathering): p50 ${p50.toFixed(1)} ms, ` +
        `max ${max.toFixed(1)} ms (target < 100 ms: ${max < 100 ? 'PASS' : 'FAIL'})`,
    );
  },
);
