/**
 * What a health check's card says of it (issue 11 item 5): its state with why it last failed, its uptime over
 * 24 hours, 7 days and 30 days from the aggregates report, and the ranges its response-time chart can show.
 * Pure: the app renders it, the unit tests pin it.
 *
 * State rule: a check is down when it is failing as docs/decisions.md#health-maths has it: more than its
 * `allowed_failures` newest results failed in a row. That is the rule that raises its service's health, so the card and
 * the service never disagree. A newest failure still within the allowance keeps the check up, and the card says so ('1
 * failure in a row, 1 allowed') with the error, so nobody has to wonder why an "up" check shows one. Once failing, it
 * needs `recover_after` successes in a row to be up again (docs/decisions.md#checks).
 *
 * Why (issue 26 item 3): the newest result's error class and message, each failing assertion's expected and
 * actual value ('missing' when nothing was seen), the latency, the certificate's days left and a domain's unknown
 * expiry (a TLD without RDAP, issue 48: said, never failing). Results cached
 * before errors had a class (a string) still read.
 */
import { BUCKET_MS, uptimeOf, type AggregatePoint, type ReportBucket } from './check-aggregates.js';
import { notJudgedReason, type AssertionResult, type CheckKind, type ErrorClass } from './check-kinds.js';
import {
  afterRun,
  checkStatusOf,
  consecutiveFailures,
  MS_PER_DAY,
  summariseCheckResults,
  type CheckResultsSummary,
  type CheckState,
  type CheckStatus,
  type FailingState,
  type Importance,
} from './health.js';
import { plural } from './words.js';

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
  /** Successes in a row since it failed, while it still needs more to recover (docs/decisions.md#checks). */
  recovering: number;
  recoverAfter: number;
  /** The class of the newest failure's error (null: none, or one stored before classes). */
  lastErrorClass: ErrorClass | null;
}

/** Why a result failed as results say it; a result stored before check kinds (cached offline) has a string. */
export type ResultError = { class: ErrorClass; message: string } | string;

/** A result as the card reads it (the contract's result, or one cached before the error became an object). */
export interface CardResult {
  start: string;
  success: boolean;
  status?: number | undefined;
  error?: ResultError | undefined;
  latency_ms?: number | undefined;
  time?: number | undefined;
  assertions?: AssertionResult[] | undefined;
  cert?: { days_left: number; not_after: string; subject: string; issuer: string } | undefined;
  severity?: Importance | undefined;
}

/** The error of a result as `{ class, message }` (an old string error has no class); null when none. */
export function resultErrorOf(result: Pick<CardResult, 'error'>): { class: ErrorClass | null; message: string } | null {
  const { error } = result;
  if (error === undefined || error === null) return null;
  return typeof error === 'string' ? { class: null, message: error } : { class: error.class, message: error.message };
}

/** Why a failed result failed in words: its error's message, else its HTTP status, else 'Failed'. */
export function failureText(result: Pick<CardResult, 'error' | 'status'>): string {
  return resultErrorOf(result)?.message ?? (result.status ? `HTTP ${result.status}` : 'Failed');
}

/**
 * `checkStatusOf` (state, last error) with the run of failures the state was judged on. Once failing, a check
 * needs `recover_after` successes in a row (default 1) before it is up again: the rule of the runners, replayed
 * over the results the card holds (from a passing start: the card cannot see further back).
 */
export function checkCardStatus(
  check: { paused: boolean; disabled: boolean; allowed_failures: number; recover_after?: number | undefined },
  results: ReadonlyArray<CardResult>,
): CheckCardStatus {
  const recoverAfter = Math.max(1, check.recover_after ?? 1);
  const failuresInARow = consecutiveFailures(results.map((result) => result.success).reverse());
  let failing: FailingState = { consecutiveFailures: 0, recovering: 0, failing: false };
  for (const result of results) failing = afterRun(failing, result.success, check.allowed_failures, recoverAfter);
  const base = checkStatusOf(
    check,
    results.map((result) => ({ start: result.start, success: result.success, error: failureText(result) })),
  );
  const state = base.state === 'up' || base.state === 'down' ? (failing.failing ? 'down' : 'up') : base.state;
  const lastFailed = results.findLast((result) => !result.success);
  return {
    ...base,
    lastErrorClass: lastFailed ? (resultErrorOf(lastFailed)?.class ?? null) : null,
    state,
    failuresInARow,
    allowedFailures: check.allowed_failures,
    recovering: failing.recovering,
    recoverAfter,
  };
}

/** '1 of 3 successes to recover' while a failing check passes again but is not yet up; null otherwise. */
export function recoveryText({ state, recovering, recoverAfter }: CheckCardStatus): string | null {
  if (state !== 'down' || recovering === 0) return null;
  return `${recovering} of ${recoverAfter} successes to recover`;
}

/** The words for each check kind (the kind picker and the card's tag). */
export const CHECK_KIND_LABELS: Record<CheckKind, string> = {
  http: 'HTTP',
  tcp: 'TCP',
  tls: 'TLS',
  dns: 'DNS',
  domain: 'Domain expiry',
  heartbeat: 'Heartbeat',
};

/** The words for each error class: why a probe failed. */
export const ERROR_CLASS_LABELS: Record<ErrorClass, string> = {
  dns: 'DNS',
  refused: 'Refused',
  timeout: 'Timeout',
  tls: 'TLS',
  assertion: 'Assertion',
  protocol: 'Protocol',
};

/** An assertion's actual value as shown: null is 'missing', never a blank or a 0. */
export const actualText = (actual: string | null): string => actual ?? 'missing';

/** 'Certificate: 10 days left', '1 day left', 'expired 3 days ago', 'expires today'. */
export function certDaysLeftText(daysLeft: number): string {
  const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;
  if (daysLeft > 0) return `Certificate: ${days(daysLeft)} left`;
  if (daysLeft === 0) return 'Certificate: expires today';
  return `Certificate: expired ${days(-daysLeft)} ago`;
}

/** 'Domain expiry: unknown (.de has no RDAP service)'. */
export const expiryUnknownText = (reason: string) => `Domain expiry: unknown (${reason})`;

/** A heartbeat's rhythm in words: 'Every 5 min, 1 min grace' or 'On 0 3 * * * (Europe/Berlin), 1 min grace'. */
export function heartbeatText(check: {
  frequency: number;
  grace: number | null;
  schedule: string | null;
  time_zone: string | null;
}): string {
  const when = check.schedule
    ? `On ${check.schedule} (${check.time_zone ?? 'UTC'})`
    : `Every ${secondsText(check.frequency)}`;
  return `${when}, ${secondsText(check.grace ?? 0)} grace`;
}

/** '45 s', '5 min', '1 h 30 min', '2 d': a span people set in seconds. */
export function secondsText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const units: Array<[string, number]> = [
    ['d', 86_400],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ];
  const parts: string[] = [];
  let rest = seconds;
  for (const [unit, size] of units) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(`${count} ${unit}`);
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}

/** What the card says of the newest result: how it went and why. */
export interface LatestResult {
  start: string;
  success: boolean;
  status: number | null;
  latencyMs: number | null;
  error: { class: ErrorClass | null; message: string } | null;
  /** The assertions that failed, with what they expected and what was seen. */
  failing: AssertionResult[];
  certDaysLeft: number | null;
  /** Why the domain's expiry is unknown (a TLD without RDAP): not judged, never failing; null when known. */
  expiryUnknown: string | null;
  severity: Importance | null;
}

/** The newest result (results oldest first) as the card shows it; null without results. */
export function latestResultOf(results: ReadonlyArray<CardResult>): LatestResult | null {
  const latest = results.at(-1);
  if (!latest) return null;
  return {
    start: latest.start,
    success: latest.success,
    status: latest.status ?? null,
    latencyMs: latest.latency_ms ?? latest.time ?? null,
    error: resultErrorOf(latest),
    failing: (latest.assertions ?? []).filter((assertion) => !assertion.pass),
    certDaysLeft: latest.cert?.days_left ?? null,
    expiryUnknown: (latest.assertions ?? []).map(notJudgedReason).find((reason) => reason !== null) ?? null,
    severity: latest.severity ?? null,
  };
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

/**
 * What a heartbeat's result is (server/services/health/heartbeats.ts): a ping, a ping that reported a failure, or a look
 * that found the job late (a timeout). A heartbeat has no response time: its card shows these instead.
 */
export type PingKind = 'ping' | 'fail' | 'late';

export function pingKindOf(result: Pick<CardResult, 'success' | 'error'>): PingKind {
  if (result.success) return 'ping';
  return resultErrorOf(result)?.class === 'timeout' ? 'late' : 'fail';
}

export const PING_KIND_LABELS: Record<PingKind, string> = { ping: 'Ping', fail: 'Failure reported', late: 'Late' };

/** The sentence under a heartbeat's pings: 'Last 24 hours: 12 pings (1 reporting a failure), late 2 times'. */
export function pingsSummaryText(caption: string, results: ReadonlyArray<Pick<CardResult, 'success' | 'error'>>) {
  const count = { ping: 0, fail: 0, late: 0 };
  for (const result of results) count[pingKindOf(result)]++;
  const pings = count.ping + count.fail;
  const failed = count.fail > 0 ? ` (${count.fail} reporting a failure)` : '';
  const late = count.late > 0 ? `, late ${plural(count.late, 'time')}` : '';
  return `${caption}: ${pings === 0 ? 'no pings' : plural(pings, 'ping')}${failed}${late}`;
}

/** The same over aggregates, which count failures without telling a failure ping from a late look. */
export function pingAggregatesSummaryText(caption: string, summary: AggregatesSummary, bucket: ReportBucket): string {
  const pings = summary.probes - summary.failures;
  const failed =
    summary.failures === 0
      ? 'none failed or late'
      : `${summary.failures} failed or late in ${plural(summary.failedBuckets, bucket)}`;
  return `${caption}: ${pings === 0 ? 'no pings' : plural(pings, 'successful ping')}, ${failed}`;
}

/** What a check made from a spec lost (contract's SpecLink.gone). */
export type SpecGone = 'operation' | 'unpublished' | 'deleted';

/**
 * The tag of a check made from a spec, and why it is flagged: what it lost leaves its `schema` assertion without a
 * schema, so it fails ('a response schema') until the spec, or another link, gives it one again.
 */
export function specLinkText(spec: {
  page: string | null;
  operation_id: string;
  version: string | null;
  missing: boolean;
  /** Left out by a check cached before specs could be unpublished: then only an operation could go. */
  gone?: SpecGone | null | undefined;
}): { label: string; why: string | null } {
  const gone = spec.gone ?? (spec.missing ? 'operation' : null);
  const fails = 'its schema assertion has no schema to check against and fails';
  if (gone === 'operation')
    return {
      label: 'Operation gone from the spec',
      why: `Version ${spec.version ?? '?'} of the spec ${spec.page ?? ''} has no ${spec.operation_id}: ${fails}.`,
    };
  if (gone === 'unpublished')
    return {
      label: 'Spec unpublished',
      why: `The spec ${spec.page ?? ''} is no longer published: ${fails} until it is published again.`,
    };
  if (gone === 'deleted')
    return {
      label: 'Spec deleted',
      why: `The spec page of ${spec.operation_id} was deleted: ${fails}; link the check to a published spec or remove the assertion.`,
    };
  return { label: `Spec ${spec.version ?? spec.page ?? ''}`, why: null };
}
