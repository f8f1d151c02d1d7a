/**
 * Per-minute and per-hour aggregates of health-check results (issue 18; docs/api.md#health-check-reports): probes,
 * failures and the latency of the successful probes as a histogram, so buckets merge exactly (a day is its hours
 * merged) and p50/p95 are read from the merged histogram. Latencies are kept exactly up to 100 ms and in bins 2 % wide
 * above that: a percentile is the upper bound of the bin it falls in, from raw results and aggregates alike.
 */

export type AggregateBucket = 'minute' | 'hour';
export type ReportBucket = AggregateBucket | 'day';

import { MS_PER_DAY } from './health.js';

const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 3_600_000;

export const BUCKET_MS: Record<ReportBucket, number> = { minute: MS_PER_MINUTE, hour: MS_PER_HOUR, day: MS_PER_DAY };

/**
 * How long each aggregate is kept: minutes 3 days (24 h and 48 h charts at any check frequency, a day past the
 * raw window), hours 90 days (the long ranges). Minutes for 90 days would be 1,440 rows a check a day: 13 billion
 * rows at 100,000 checks.
 */
export const AGGREGATE_RETENTION_DAYS: Record<AggregateBucket, number> = { minute: 3, hour: 90 };

export function bucketStart(at: number, bucket: ReportBucket): number {
  return Math.floor(at / BUCKET_MS[bucket]) * BUCKET_MS[bucket];
}

const EXACT_BELOW = 100;
const GROWTH = 1.02;
const LOG_GROWTH = Math.log(GROWTH);

/** The bin of a latency in ms: the value itself below 100 ms, then bins 2 % wide. */
export function latencyBin(ms: number): number {
  const value = Math.max(0, Math.round(ms));
  if (value < EXACT_BELOW) return value;
  return EXACT_BELOW + Math.floor(Math.log(value / EXACT_BELOW) / LOG_GROWTH + 1e-9);
}

/** The largest latency (ms) that falls in `bin`: what a percentile in that bin reads. */
export function binUpperBound(bin: number): number {
  if (bin < EXACT_BELOW) return bin;
  return Math.ceil(EXACT_BELOW * GROWTH ** (bin - EXACT_BELOW + 1)) - 1;
}

/** Bin → count. */
export type Histogram = Map<number, number>;

export function histogramOf(latencies: readonly number[]): Histogram {
  const histogram: Histogram = new Map();
  for (const ms of latencies) {
    const bin = latencyBin(ms);
    histogram.set(bin, (histogram.get(bin) ?? 0) + 1);
  }
  return histogram;
}

export function mergeHistograms(into: Histogram, from: Histogram): Histogram {
  for (const [bin, count] of from) into.set(bin, (into.get(bin) ?? 0) + count);
  return into;
}

/** The q-quantile (0 < q <= 1) by nearest rank, as its bin's upper bound; null when empty. */
export function histogramPercentile(histogram: Histogram, q: number): number | null {
  let total = 0;
  for (const count of histogram.values()) total += count;
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const bin of [...histogram.keys()].sort((a, b) => a - b)) {
    seen += histogram.get(bin)!;
    if (seen >= rank) return binUpperBound(bin);
  }
  return null;
}

/** Compact text for a database column: `bin:count` pairs, ascending. */
export function encodeHistogram(histogram: Histogram): string {
  return [...histogram.entries()]
    .sort(([a], [b]) => a - b)
    .map(([bin, count]) => `${bin}:${count}`)
    .join(',');
}

export function decodeHistogram(text: string): Histogram {
  const histogram: Histogram = new Map();
  if (!text) return histogram;
  for (const pair of text.split(',')) {
    const [bin, count] = pair.split(':');
    histogram.set(Number(bin), Number(count));
  }
  return histogram;
}

/** One bucket of one check. */
export interface CheckAggregate {
  checkId: string;
  bucket: AggregateBucket;
  start: number;
  probes: number;
  failures: number;
  /** The slowest successful probe, ms; null when none succeeded. */
  max: number | null;
  histogram: Histogram;
}

export interface ProbeOutcome {
  checkId: string;
  start: number;
  time: number;
  success: boolean;
}

export function aggregateKey(checkId: string, bucket: AggregateBucket, start: number): string {
  return `${checkId}|${bucket}|${start}`;
}

/** Folds results into their minute and hour buckets (latencies of successful probes only: a timeout is no speed). */
export function aggregateResults(results: readonly ProbeOutcome[]): Map<string, CheckAggregate> {
  const aggregates = new Map<string, CheckAggregate>();
  for (const result of results) {
    for (const bucket of ['minute', 'hour'] as const) {
      const start = bucketStart(result.start, bucket);
      const key = aggregateKey(result.checkId, bucket, start);
      let aggregate = aggregates.get(key);
      if (!aggregate) {
        aggregate = { checkId: result.checkId, bucket, start, probes: 0, failures: 0, max: null, histogram: new Map() };
        aggregates.set(key, aggregate);
      }
      aggregate.probes += 1;
      if (!result.success) aggregate.failures += 1;
      else {
        aggregate.max = Math.max(aggregate.max ?? 0, Math.round(result.time));
        const bin = latencyBin(result.time);
        aggregate.histogram.set(bin, (aggregate.histogram.get(bin) ?? 0) + 1);
      }
    }
  }
  return aggregates;
}

/** Adds `more` (same check and bucket) into `into`. */
export function mergeAggregate<T extends Pick<CheckAggregate, 'probes' | 'failures' | 'max' | 'histogram'>>(
  into: T,
  more: Pick<CheckAggregate, 'probes' | 'failures' | 'max' | 'histogram'>,
): T {
  into.probes += more.probes;
  into.failures += more.failures;
  into.max = into.max === null ? more.max : more.max === null ? into.max : Math.max(into.max, more.max);
  mergeHistograms(into.histogram, more.histogram);
  return into;
}

/**
 * One point of the aggregates report (docs/api.md#health-check-reports): `{ time, probes, failures, p50, p95, max }`.
 */
export interface AggregatePoint {
  /** The bucket's start, ISO-8601. */
  time: string;
  probes: number;
  failures: number;
  p50: number | null;
  p95: number | null;
  max: number | null;
}

/**
 * Report points for `bucket` from stored buckets (minute rows for minutes, hour rows for hours and days), oldest
 * first; a day is its hours merged.
 */
export function reportPoints(
  stored: ReadonlyArray<Pick<CheckAggregate, 'start' | 'probes' | 'failures' | 'max' | 'histogram'>>,
  bucket: ReportBucket,
): AggregatePoint[] {
  const merged = new Map<number, Pick<CheckAggregate, 'probes' | 'failures' | 'max' | 'histogram'>>();
  for (const row of stored) {
    const start = bucketStart(row.start, bucket);
    const into = merged.get(start) ?? { probes: 0, failures: 0, max: null, histogram: new Map() };
    merged.set(start, mergeAggregate(into, { ...row, histogram: new Map(row.histogram) }));
  }
  return [...merged.entries()]
    .sort(([a], [b]) => a - b)
    .map(([start, row]) => ({
      time: new Date(start).toISOString(),
      probes: row.probes,
      failures: row.failures,
      p50: histogramPercentile(row.histogram, 0.5),
      p95: histogramPercentile(row.histogram, 0.95),
      max: row.max,
    }));
}

/** Uptime share (0-1) over points; null when nothing was probed. */
export function uptimeOf(points: ReadonlyArray<Pick<AggregatePoint, 'probes' | 'failures'>>): number | null {
  let probes = 0;
  let failures = 0;
  for (const point of points) {
    probes += point.probes;
    failures += point.failures;
  }
  return probes === 0 ? null : (probes - failures) / probes;
}
