/**
 * `npm run bench:status-notices` (issue 48): how long writing a notice takes on a status page with no subscribers
 * and on one with 1,000 (900 confirmed emails and 100 webhooks, the most a page takes), on each engine. The
 * notice's request is timed (`POST /api/services/{s}/notices` through the real app); its transaction queues one
 * row of news whatever the subscribers, and the status news job tells them after it committed
 * (jobs/status-news.ts), timed apart from the answer until the job is idle, before the next write. Writes to the
 * two pages alternate so that the machine's drift falls on both alike. Target: the write on the page with 1,000
 * subscribers within 20 % of the one with none (p50). Settings: BENCH_NOTICES (writes per page, default 100),
 * BENCH_ENGINES.
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { buildApp } from '../../src/server/app.js';
import { closeContext, createContext } from '../../src/server/bootstrap.js';
import { startStatusNews } from '../../src/server/jobs/status-news.js';
import { freshDatabase, type TestEngine } from '../support/database.js';
import {
  benchConfig,
  DOMAIN,
  enginesToRun,
  positiveNumber,
  registerAndLogIn,
  seedTeamAndServices,
  settle,
} from './harness.js';

const NOTICES = positiveNumber(process.env.BENCH_NOTICES, 100, 'BENCH_NOTICES');
const EMAILS = 900;
const WEBHOOKS = 100;
const WARMUP = 5;

interface Figures {
  engine: TestEngine;
  quiet: number[];
  busy: number[];
  fanout: number[];
}

async function benchEngine(engine: TestEngine): Promise<Figures> {
  const database = await freshDatabase(engine);
  const ctx = await createContext(benchConfig(database.env), pino({ level: 'silent' }));
  const app = await buildApp(ctx);
  const news = startStatusNews(ctx, { pollMs: 60_000 });
  try {
    await app.ready();
    const host = `${DOMAIN}.localhost:8080`;
    const { token, workspaceId } = await registerAndLogIn(app, ctx, host);
    const headers = { host, authorization: `Bearer ${token}` };
    await seedTeamAndServices(ctx, workspaceId, 2, new Date().toISOString());
    for (const [handle, service] of [
      ['quiet', 'svc-0'],
      ['busy', 'svc-1'],
    ]) {
      const created = await app.inject({
        method: 'POST',
        url: '/api/status-pages',
        headers,
        payload: { handle, title: `${handle} page`, groups: [{ name: '', services: [service] }] },
      });
      if (created.statusCode !== 201) throw new Error(`page ${handle}: ${created.statusCode} ${created.body}`);
    }
    const busy = await ctx.database.db
      .selectFrom('status_pages')
      .select('id')
      .where('handle', '=', 'busy')
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const rows = Array.from({ length: EMAILS + WEBHOOKS }, (_, i) => ({
      id: randomUUID(),
      workspace_id: workspaceId,
      page_id: busy.id,
      email: i < EMAILS ? `fan-${i}@example.com` : null,
      webhook_url: i < EMAILS ? null : `https://hooks.example.com/beacon/${i}`,
      secret_sealed: i < EMAILS ? null : ctx.secretBox.seal(`whsec_${i}`),
      components: null,
      include_upstream: 0,
      confirmed_at: now,
      created_at: now,
    }));
    await ctx.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 200) {
        await trx
          .insertInto('status_subscriptions')
          .values(rows.slice(i, i + 200))
          .execute();
      }
    });
    await settle(ctx);
    const figures: Figures = { engine, quiet: [], busy: [], fanout: [] };
    const queued = async () => {
      const [mails, hooks] = await Promise.all([
        ctx.database.db
          .selectFrom('mail_outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
        ctx.database.db
          .selectFrom('webhook_outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return Number(mails.n) + Number(hooks.n);
    };
    for (let i = -WARMUP; i < NOTICES; i++) {
      for (const page of ['quiet', 'busy'] as const) {
        const before = await queued();
        const started = performance.now();
        const written = await app.inject({
          method: 'POST',
          url: `/api/services/${page === 'quiet' ? 'svc-0' : 'svc-1'}/notices`,
          headers,
          payload: { type: 'incident', title: `Notice ${i} on ${page}`, message: 'Looking into it' },
        });
        const answered = performance.now();
        if (written.statusCode !== 201) throw new Error(`notice: ${written.statusCode} ${written.body}`);
        // The fan-out, before the next write: it would otherwise share the process with it.
        news.wake();
        await news.idle();
        const fanout = performance.now() - answered;
        const told = (await queued()) - before;
        if (told !== (page === 'busy' ? EMAILS + WEBHOOKS : 0)) throw new Error(`${page}: ${told} messages queued`);
        if (i < 0) continue;
        figures[page].push(answered - started);
        if (page === 'busy') figures.fanout.push(fanout);
      }
    }
    return figures;
  } finally {
    await news.stop();
    await app.close();
    await closeContext(ctx);
    await database.drop();
  }
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const ms = (value: number) => value.toFixed(1);

console.log(
  `Beacon status notices bench: ${NOTICES} notices per page after ${WARMUP} to warm up, a page with no subscribers ` +
    `and one with ${EMAILS} emails and ${WEBHOOKS} webhooks; node ${process.version}`,
);
let failed = false;
for (const engine of enginesToRun()) {
  try {
    const { quiet, busy, fanout } = await benchEngine(engine);
    const ratio = quantile(busy, 0.5) / quantile(quiet, 0.5);
    console.log(`\n${engine}:`);
    for (const [name, values] of [
      ['write, 0 subscribers', quiet],
      ['write, 1,000 subscribers', busy],
      ['fan-out of 1,000, after the write', fanout],
    ] as const) {
      console.log(
        `  ${name.padEnd(34)} p50 ${ms(quantile(values, 0.5)).padStart(6)} ms  p95 ${ms(quantile(values, 0.95)).padStart(6)} ms` +
          `  max ${ms(Math.max(...values)).padStart(6)} ms`,
      );
    }
    console.log(`  write p50 ratio 1,000 / 0: ${ratio.toFixed(2)} (target <= 1.20: ${ratio <= 1.2 ? 'PASS' : 'FAIL'})`);
  } catch (error) {
    failed = true;
    console.error(`\n${engine}: benchmark could not run:`, error);
  }
}
if (failed) process.exitCode = 1;
