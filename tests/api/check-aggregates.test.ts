import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthCheck } from '../../src/contract/health.js';
import {
  BUCKET_MS,
  type AggregatePoint,
  type ProbeOutcome,
  type ReportBucket,
} from '../../src/domain/check-aggregates.js';
import { healthCheckResultRow, insertHealthCheckResults } from '../../src/server/db/repositories/health.js';
import { pruneCheckResults } from '../../src/server/jobs/result-retention.js';
import { aggregatesOracle } from '../support/aggregates-oracle.js';
import { createService, seedWorkspace, workspaceIdOf } from '../support/fixtures.js';
import { atTime, callAs, json, startTestServer, type Member, type TestServer } from '../support/server.js';

/**
 * Issue 18: aggregates are written with the results and equal what the raw results say, whatever batches
 * the results come in; the aggregates report answers the same before and after the raw results expire.
 */
const HOUR = BUCKET_MS.hour;
const DAY = BUCKET_MS.day;
// In the past, so every clock the test sets stays before the real one (tokens stay valid).
const T0 = Math.floor((Date.now() - 100 * DAY) / DAY) * DAY;
const SPAN = 30 * HOUR;

let server: TestServer;
let alice: Member;
let checks = 0;

beforeAll(async () => {
  server = await startTestServer();
  ({ teamAdmin: alice } = await seedWorkspace(server, { domain: 'aggco' }));
  await createService(server, alice, 'payments', { name: 'Ledger', handle: 'ledger' });
});
afterAll(() => server.close());

async function newCheck(): Promise<HealthCheck> {
  const response = await callAs(server, alice, 'POST', '/api/services/ledger/health-checks', {
    name: `Check ${++checks}`,
    endpoint: 'https://ledger.example/health',
    paused: true,
  });
  expect(response.statusCode).toBe(201);
  return json<HealthCheck>(response);
}

/** Writes the results in the given batches, each in its own transaction, as the runners do. */
async function write(check: HealthCheck, results: ProbeOutcome[], cuts: number[]): Promise<void> {
  const workspaceId = await workspaceIdOf(server, 'aggco');
  const rows = results.map((result) => healthCheckResultRow({ id: check.id, workspace_id: workspaceId }, result));
  const edges = [0, ...cuts.map((cut) => Math.floor(cut * rows.length)).sort((a, b) => a - b), rows.length];
  for (let i = 1; i < edges.length; i++) {
    const batch = rows.slice(edges[i - 1], edges[i]);
    if (batch.length > 0)
      await server.ctx.database.db.transaction().execute((trx) => insertHealthCheckResults(trx, batch));
  }
}

async function report(check: HealthCheck, bucket: ReportBucket): Promise<AggregatePoint[]> {
  const range = `from=${new Date(T0).toISOString()}&to=${new Date(T0 + SPAN).toISOString()}`;
  const response = await callAs(
    server,
    alice,
    'GET',
    `/api/health-checks/${check.id}/reports/health-check-aggregates?${range}&bucket=${bucket}`,
  );
  expect(response.statusCode).toBe(200);
  return json<AggregatePoint[]>(response);
}

const stream = fc.array(
  fc.record({
    start: fc.integer({ min: T0, max: T0 + SPAN - 1 }),
    time: fc.oneof(fc.integer({ min: 0, max: 150 }), fc.integer({ min: 0, max: 30_000 })),
    success: fc.boolean(),
  }),
  { minLength: 30, maxLength: 200 },
);

describe('health-check aggregates', () => {
  it('equal what the raw results say, per minute, hour and day, whatever the batches', async () => {
    await fc.assert(
      fc.asyncProperty(
        stream,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
        async (raw, cuts) => {
          const check = await newCheck();
          const results = raw.map((result) => ({ ...result, checkId: check.id }));
          await write(check, results, cuts);
          for (const bucket of ['minute', 'hour', 'day'] as const)
            expect(await report(check, bucket)).toEqual(aggregatesOracle(results, bucket));
        },
      ),
      { numRuns: 12 },
    );
  });

  it('add up when two writers add to the same buckets at once (two transactions on PostgreSQL)', async () => {
    const check = await newCheck();
    const results = Array.from({ length: 240 }, (_, n) => ({
      checkId: check.id,
      start: T0 + (n % 60) * 60_000 + n,
      time: (n * 37) % 900,
      success: n % 7 !== 0,
    }));
    const workspaceId = await workspaceIdOf(server, 'aggco');
    const rows = results.map((result) => healthCheckResultRow({ id: check.id, workspace_id: workspaceId }, result));
    // Every bucket gets results from both writers.
    const writers = [rows.filter((_, i) => i % 2 === 0), rows.filter((_, i) => i % 2 === 1)];
    await Promise.all(
      writers.map((batch) =>
        server.ctx.database.db.transaction().execute((trx) => insertHealthCheckResults(trx, batch)),
      ),
    );
    for (const bucket of ['minute', 'hour', 'day'] as const)
      expect(await report(check, bucket)).toEqual(aggregatesOracle(results, bucket));
  });

  it('answer the same after the raw results expire; minutes go after 3 days, hours after 90', async () => {
    const check = await newCheck();
    const results = Array.from({ length: 120 }, (_, n) => ({
      checkId: check.id,
      start: T0 + n * 5 * 60_000,
      time: 20 + (n % 7) * 13,
      success: n % 9 !== 0,
    }));
    await write(check, results, [0.5]);
    const end = results.at(-1)!.start;
    const before = { minute: await report(check, 'minute'), hour: await report(check, 'hour') };
    expect(before.hour).toEqual(aggregatesOracle(results, 'hour'));
    const rawUrl = `/api/health-checks/${check.id}/reports/health-check-results?from=${new Date(T0).toISOString()}&to=${new Date(T0 + SPAN).toISOString()}`;
    expect(json<unknown[]>(await callAs(server, alice, 'GET', rawUrl)).length).toBe(120);

    const at = (ms: number) => atTime(server, ms, () => pruneCheckResults(server.ctx));
    // 48 hours after the last result: the raw results are gone, the aggregates answer as before.
    const pruned = await at(end + 49 * HOUR);
    expect(pruned.results).toBeGreaterThanOrEqual(120);
    expect(json<unknown[]>(await callAs(server, alice, 'GET', rawUrl))).toEqual([]);
    expect(await report(check, 'minute')).toEqual(before.minute);
    expect(await report(check, 'hour')).toEqual(before.hour);
    expect(await report(check, 'day')).toEqual(aggregatesOracle(results, 'day'));

    await at(end + 4 * DAY);
    expect(await report(check, 'minute')).toEqual([]);
    expect(await report(check, 'hour')).toEqual(before.hour);
    await at(end + 91 * DAY);
    expect(await report(check, 'hour')).toEqual([]);
  });

  it('are refused to those who cannot see the check, and check their query', async () => {
    const check = await newCheck();
    const url = `/api/health-checks/${check.id}/reports/health-check-aggregates`;
    expect((await callAs(server, alice, 'GET', `${url}?bucket=week`)).statusCode).toBe(400);
    expect(
      (await callAs(server, alice, 'GET', `${url}?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z`)).statusCode,
    ).toBe(400);
    const { outsider } = await seedWorkspace(server, { domain: 'aggco2', outsiderDomain: 'aggco3', team: null });
    expect((await callAs(server, outsider, 'GET', url)).statusCode).toBe(404);
  });
});
