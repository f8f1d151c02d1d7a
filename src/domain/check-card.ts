/**
 * What a health check's card says of it (issue 11 item 5): its state with why it last failed, its uptime over
 * 24 hours, 7 days and 30 days from the aggregates report, and the ranges its response-time chart can show.
 * Pure: the app renders it, the unit tests pin it.
 *
 * State rule: a check is down when it is failing as DESIGN.md 5 has it: more than its `allowed_failures` newest
 * results failed in a row. That is the rule that raises its service's health, so the card and the service never
 * disagree. A newest failure still within the allowance keeps the check up, and the card says so ('1 failure in
 * a row, 1 allowed') with the error, so nobody has to wonder why an "up" check shows one.
 */
import { BUCKET_MS, uptimeOf, type AggregatePoint, type ReportBucket } from './check-aggregates.js';
import {
  checkStatusOf,
  consecutiveFailures,
  MS_PER_DAY,
  summariseCheckResults,
  type CheckResultsSummary,
  type CheckState,
  type CheckStatus,
} from './health.js';

const MS_PER_HOUR = 3_600_000;

/** The word on a check's state tag. */
export const CHECK_STATE_LABELS: Record<CheckState, string> = {
  up: 'Up',
  down: 'Down',
  paused: 'Paused',
  disabled: 'Disabled',
  unknown: 'No results yet',
};

export interface CheckCardStatus extends CheckStatus {
  /** How many of the newest results failed in a row (0 when the newest succeeded). */
  failuresInARow: number;
  allowedFailures: number;
}

/** `checkStatusOf` (state, last error) with the run of failures the state was judged on. */
export function checkCardStatus(
  check: { paused: boolean; disabled: boolean; allowed_failures: number },
  results: ReadonlyArray<{ start: string; success: boolean; status?: number | undefined; error?: string | undefined }>,
): CheckCardStatus {
  const failuresInARow = consecutiveFailures(results.map((result) => result.success).reverse());
  return { ...checkStatusOf(check, results), failuresInARow, allowedFailures: check.allowed_failures };
}

/**
 * '3 failures in a row, 1 allowed' while the newest results fail and the check runs; null otherwise (a paused
 * or disabled check is not judged, and a passing one has no run of failures).
 */
export function failureRunText({ state, failuresInARow, allowedFailures }: CheckCardStatus): string | null {
  if (failuresInARow === 0 || (state !== 'up' && state !== 'down')) return null;
  const failures = `${failuresInARow} ${failuresInARow === 1 ? 'failure' : 'failures'} in a row`;
  return `${failures}, ${allowedFailures} allowed`;
}

/**
 * An uptime share (0-1) as shown: percent with two decimals, rounded down so any failure keeps it under
 * '100.00 %' (0.99999 → '99.99 %'); '—' when nothing was probed.
 */
export function formatUptimeShare(share: number | null): string {
  if (share === null || !Number.isFinite(share)) return '—';
  const hundredths = Math.floor(Math.min(1, Math.max(0, share)) * 10_000 + 1e-6);
  return `${(hundredths / 100).toFixed(2)} %`;
}

/** The uptime windows of a card, newest-first reading order. */
export const UPTIME_WINDOWS = [
  { label: '24 h', ms: MS_PER_DAY },
  { label: '7 d', ms: 7 * MS_PER_DAY },
  { label: '30 d', ms: 30 * MS_PER_DAY },
] as const;

/** The longest uptime window: how far back the card's aggregates are read. */
export const UPTIME_SPAN_MS = 30 * MS_PER_DAY;

/**
 * Report points whose bucket overlaps [from, ∞): a bucket that started before `from` but ends after it counts
 * whole (buckets are the finest figures there are; at hour buckets a 24 h window reads at most 25 of them).
 */
export function pointsSince<T extends Pick<AggregatePoint, 'time'>>(
  points: readonly T[],
  from: number,
  bucket: ReportBucket,
): T[] {
  return points.filter((point) => Date.parse(point.time) + BUCKET_MS[bucket] > from);
}

/** Uptime share (or null) for each of `UPTIME_WINDOWS` ending at `now`, from one report of `bucket` points. */
export function uptimeOverWindows(
  points: ReadonlyArray<Pick<AggregatePoint, 'time' | 'probes' | 'failures'>>,
  bucket: ReportBucket,
  now: number,
): Array<{ label: string; share: number | null }> {
  return UPTIME_WINDOWS.map(({ label, ms }) => ({ label, share: uptimeOf(pointsSince(points, now - ms, bucket)) }));
}

/**
 * The ranges of the response-time chart. Short ones read the raw results (kept 48 h; the 24 h report the card
 * already holds, the last hour cut from it); long ones read the hourly aggregates the uptime figures come from.
 */
export const CHART_RANGES = [
  { id: '1h', label: '1 h', caption: 'Last hour', ms: MS_PER_HOUR, source: 'results' },
  { id: '24h', label: '24 h', caption: 'Last 24 hours', ms: MS_PER_DAY, source: 'results' },
  { id: '7d', label: '7 d', caption: 'Last 7 days', ms: 7 * MS_PER_DAY, source: 'aggregates' },
  { id: '30d', label: '30 d', caption: 'Last 30 days', ms: 30 * MS_PER_DAY, source: 'aggregates' },
] as const;
export type ChartRange = (typeof CHART_RANGES)[number];
export type ChartRangeId = ChartRange['id'];

export function chartRange(id: ChartRangeId): ChartRange {
  return CHART_RANGES.find((range) => range.id === id)!;
}

/** Results (oldest first) that started at or after `from` (epoch ms). */
export function resultsSince<T extends { start: string }>(results: readonly T[], from: number): T[] {
  return results.filter((result) => Date.parse(result.start) >= from);
}

/**
 * Results counted with their failures, the mean response time of the successful ones only (a failure's time is
 * how long it took to fail, not a response time); null when none succeeded.
 */
export function summariseResponseTimes(
  results: ReadonlyArray<{ time: number; success: boolean }>,
): CheckResultsSummary {
  const succeeded = summariseCheckResults(results.filter((result) => result.success));
  return { ...summariseCheckResults(results), meanMs: succeeded.meanMs };
}

/** What a run of aggregate points adds up to. */
export interface AggregatesSummary {
  probes: number;
  failures: number;
  /** Buckets with at least one failure. */
  failedBuckets: number;
  /** The highest p95 of a bucket, ms; null when no probe succeeded. */
  worstP95: number | null;
}

export function summariseAggregates(
  points: ReadonlyArray<Pick<AggregatePoint, 'probes' | 'failures' | 'p95'>>,
): AggregatesSummary {
  let probes = 0;
  let failures = 0;
  let failedBuckets = 0;
  let worstP95: number | null = null;
  for (const point of points) {
    probes += point.probes;
    failures += point.failures;
    if (point.failures > 0) failedBuckets++;
    if (point.p95 !== null) worstP95 = Math.max(worstP95 ?? 0, point.p95);
  }
  return { probes, failures, failedBuckets, worstP95 };
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/**
 * The sentence under an aggregates chart, also its accessible name: 'Last 7 days: 1200 probes, 3 failed in 2
 * hours, highest p95 120 ms'.
 */
export function aggregatesSummaryText(caption: string, summary: AggregatesSummary, bucket: ReportBucket): string {
  const failed =
    summary.failures === 0 ? '0 failed' : `${summary.failures} failed in ${plural(summary.failedBuckets, bucket)}`;
  const p95 = summary.worstP95 === null ? '' : `, highest p95 ${summary.worstP95} ms`;
  return `${caption}: ${plural(summary.probes, 'probe')}, ${failed}${p95}`;
}

/** A failed bucket's tooltip: '2 of 240 probes failed'. */
export function bucketFailureText(point: Pick<AggregatePoint, 'probes' | 'failures'>): string {
  return `${point.failures} of ${plural(point.probes, 'probe')} failed`;
}
