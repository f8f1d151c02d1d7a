import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregatesOracle as oracle } from '../../support/aggregates-oracle.js';
import {
  aggregateResults,
  binUpperBound,
  BUCKET_MS,
  decodeHistogram,
  encodeHistogram,
  histogramOf,
  histogramPercentile,
  latencyBin,
  mergeAggregate,
  reportPoints,
  type CheckAggregate,
  type ProbeOutcome,
} from '../../../src/domain/check-aggregates.js';

const HOUR = BUCKET_MS.hour;
const T0 = Date.UTC(2026, 10, 20);
const outcomes = fc.array(
  fc.record({
    checkId: fc.constantFrom('a', 'b'),
    start: fc.integer({ min: T0, max: T0 + 3 * 24 * HOUR }),
    time: fc.oneof(fc.integer({ min: 0, max: 150 }), fc.integer({ min: 0, max: 30_000 })),
    success: fc.boolean(),
  }),
  { maxLength: 300 },
);

/** Aggregates the stream in the given batches, merging each batch into what is stored, as the database does. */
function storeInBatches(results: ProbeOutcome[], cuts: number[]): Map<string, CheckAggregate> {
  const stored = new Map<string, CheckAggregate>();
  const edges = [0, ...cuts.map((cut) => Math.floor(cut * results.length)).sort((a, b) => a - b), results.length];
  for (let i = 1; i < edges.length; i++) {
    for (const [key, fresh] of aggregateResults(results.slice(edges[i - 1], edges[i]))) {
      const before = stored.get(key);
      // Through the column's text, as the database keeps it.
      const roundTripped = { ...fresh, histogram: decodeHistogram(encodeHistogram(fresh.histogram)) };
      stored.set(key, before ? mergeAggregate(before, roundTripped) : roundTripped);
    }
  }
  return stored;
}

describe('latency bins', () => {
  it('are exact below 100 ms and at most 2 % wide above', () => {
    expect(latencyBin(42)).toBe(42);
    expect(binUpperBound(latencyBin(42))).toBe(42);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 600_000 }), (ms) => {
        const upper = binUpperBound(latencyBin(ms));
        expect(upper).toBeGreaterThanOrEqual(ms);
        expect(upper).toBeLessThanOrEqual(Math.max(ms, Math.ceil(ms * 1.02)));
        // Monotone: a slower probe never lands in an earlier bin.
        expect(latencyBin(ms + 1)).toBeGreaterThanOrEqual(latencyBin(ms));
      }),
    );
  });

  it('read percentiles by nearest rank', () => {
    const histogram = histogramOf([10, 20, 30, 40]);
    expect(histogramPercentile(histogram, 0.5)).toBe(20);
    expect(histogramPercentile(histogram, 0.95)).toBe(40);
    expect(histogramPercentile(new Map(), 0.5)).toBeNull();
  });
});

describe('aggregates', () => {
  it('equal what the raw results say, however the results arrive in batches, per minute, hour and day', () => {
    fc.assert(
      fc.property(outcomes, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 }), (results, cuts) => {
        const stored = [...storeInBatches(results, cuts).values()];
        for (const checkId of ['a', 'b']) {
          const own = results.filter((result) => result.checkId === checkId);
          const rows = stored.filter((row) => row.checkId === checkId);
          expect(
            reportPoints(
              rows.filter((row) => row.bucket === 'minute'),
              'minute',
            ),
          ).toEqual(oracle(own, 'minute'));
          const hours = rows.filter((row) => row.bucket === 'hour');
          expect(reportPoints(hours, 'hour')).toEqual(oracle(own, 'hour'));
          expect(reportPoints(hours, 'day')).toEqual(oracle(own, 'day'));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('leave latency to the successful probes: a bucket of failures has none', () => {
    const [minute] = reportPoints(
      [...aggregateResults([{ checkId: 'a', start: T0, time: 30_000, success: false }]).values()].filter(
        (row) => row.bucket === 'minute',
      ),
      'minute',
    );
    expect(minute).toEqual({
      time: new Date(T0).toISOString(),
      probes: 1,
      failures: 1,
      p50: null,
      p95: null,
      max: null,
    });
  });
});
