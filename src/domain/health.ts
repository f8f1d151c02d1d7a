/**
 * Service health over time (docs/decisions.md#health-maths, spec/catalogue.md sections 3, 4 and 9): daily health
 * integrated from the log of health transitions, uptime, the daily status and its messages. Pure: shared by the server,
 * the app and the Comlink worker.
 */
import { HEALTHS, type Health } from './catalogue.js';

export const SECONDS_PER_DAY = 86_400;
const MS_PER_SECOND = 1000;
export const MS_PER_DAY = SECONDS_PER_DAY * MS_PER_SECOND;
/** Spec section 9: daily health keeps the last 90 entries. */
export const DAILY_HEALTH_MAX_DAYS = 90;

/** One change of a service's health, at `at` (epoch ms). */
export interface HealthTransition {
  at: number;
  health: Health;
}

/** The states a day's seconds are counted in: every health but good. */
export const DAILY_STATES = ['critical', 'error', 'warning', 'maintenance'] as const;

/** Seconds (whole) a service spent in each non-good state during one UTC day. */
export interface DailyHealth {
  date: string;
  critical: number;
  error: number;
  warning: number;
  maintenance: number;
}

export interface DailyHealthRange {
  /** Epoch ms; the first day reported is this instant's UTC day, and nothing before it is counted. */
  from: number;
  /** Epoch ms; the last day reported is this instant's UTC day (usually now), and nothing after it is counted. */
  to: number;
  /**
   * The health before the first transition when none precedes `from`. Left undefined, the service did not exist
   * before its first transition and that time counts nothing (the same figures as 'good').
   */
  initial?: Health;
}

/** The UTC date ('YYYY-MM-DD') of an instant in epoch ms. */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Epoch ms of the UTC midnight starting a 'YYYY-MM-DD' date. */
export function utcDayStart(date: string): number {
  return Date.parse(`${date}T00:00:00.000Z`);
}

const emptyDay = (dayIndex: number): DailyHealth => ({
  date: utcDate(dayIndex * SECONDS_PER_DAY * MS_PER_SECOND),
  critical: 0,
  error: 0,
  warning: 0,
  maintenance: 0,
});

const toSecond = (ms: number): number => Math.floor(ms / MS_PER_SECOND);

/** The log in time order; a copy is sorted (stably: equal times keep log order) only when it is not already. */
function inTimeOrder(transitions: readonly HealthTransition[]): readonly HealthTransition[] {
  for (let i = 1; i < transitions.length; i++) {
    if (transitions[i]!.at < transitions[i - 1]!.at) return [...transitions].sort((a, b) => a.at - b.at);
  }
  return transitions;
}

/**
 * Daily health for every UTC day from `from`'s day to `to`'s day inclusive, oldest first, today included, at
 * most the last 90 days. Each entry holds the seconds spent in each non-good state, integrated from the
 * transition log (never from samples); a spell crossing midnight is split between the two days.
 *
 * - Times are taken to the whole second (floored), so every figure is an integer and a day's seconds never
 *   exceed 86,400 (nor, for the last day, the seconds elapsed up to `to`).
 * - The state at the start is that of the last transition at or before it, else `initial`. Transitions at the
 *   same time apply in log order (the last one wins). An unsorted log is sorted first.
 * - When the range spans more than 90 days, only the last 90 are reported and counted from their first midnight.
 *
 * O(transitions + days) for a sorted log.
 */
export function dailyHealth(transitions: readonly HealthTransition[], range: DailyHealthRange): DailyHealth[] {
  if (!Number.isFinite(range.from) || !Number.isFinite(range.to)) {
    throw new RangeError('dailyHealth: from and to must be finite epoch milliseconds');
  }
  const fromS = toSecond(range.from);
  const toS = toSecond(range.to);
  if (toS < fromS) return [];

  const lastDay = Math.floor(toS / SECONDS_PER_DAY);
  let firstDay = Math.floor(fromS / SECONDS_PER_DAY);
  let startS = fromS;
  if (lastDay - firstDay + 1 > DAILY_HEALTH_MAX_DAYS) {
    firstDay = lastDay - DAILY_HEALTH_MAX_DAYS + 1;
    startS = firstDay * SECONDS_PER_DAY;
  }
  const days: DailyHealth[] = [];
  for (let day = firstDay; day <= lastDay; day++) days.push(emptyDay(day));

  const add = (state: Health | undefined, begin: number, end: number): void => {
    if (state === undefined || state === 'good') return;
    while (begin < end) {
      const day = Math.floor(begin / SECONDS_PER_DAY);
      const stop = Math.min(end, (day + 1) * SECONDS_PER_DAY);
      days[day - firstDay]![state] += stop - begin;
      begin = stop;
    }
  };

  const log = inTimeOrder(transitions);
  let state: Health | undefined = range.initial;
  let i = 0;
  for (; i < log.length && toSecond(log[i]!.at) <= startS; i++) state = log[i]!.health;
  let cursor = startS;
  for (; i < log.length; i++) {
    const at = toSecond(log[i]!.at);
    if (at >= toS) break;
    add(state, cursor, at);
    cursor = at;
    state = log[i]!.health;
  }
  add(state, cursor, toS);
  return days;
}

/**
 * Problem seconds: critical, error and warning. Maintenance is planned and not counted
 * (docs/decisions.md#health-maths).
 */
export function problemSeconds(day: DailyHealth): number {
  return day.critical + day.error + day.warning;
}

/** Seconds of a UTC date elapsed by `now`: 0 before it starts, 86,400 once it is over. */
function elapsedOf(date: string, now: number): number {
  const elapsed = toSecond(now - utcDayStart(date));
  return Number.isNaN(elapsed) ? SECONDS_PER_DAY : Math.min(SECONDS_PER_DAY, Math.max(0, elapsed));
}

/**
 * Uptime in percent, two decimals: `100 - 100 * problem_seconds / (86400 * days_counted)`
 * (docs/decisions.md#health-maths; the spec's 864000 is a defect).
 *
 * Every entry counts as a day. Given `now` (epoch ms), a day counts only the seconds of it elapsed by `now`:
 * today's partial day weighs what has passed of it so far (an hour into today, an hour of error there is 100%
 * of that day), and a day after `now` weighs nothing. Without `now` every entry counts a full 86,400 s.
 * No days (or no elapsed time) gives 100. The result is clamped to [0, 100].
 */
export function uptime(days: readonly DailyHealth[], now?: number): number {
  let problem = 0;
  let counted = 0;
  for (const day of days) {
    problem += problemSeconds(day);
    counted += now === undefined ? SECONDS_PER_DAY : elapsedOf(day.date, now);
  }
  if (counted === 0) return 100;
  const percent = 100 - (100 * problem) / counted;
  return Math.min(100, Math.max(0, Math.round(percent * 100) / 100));
}

/** Spec section 4: critical if any critical seconds, else error, else warning, else maintenance, else good. */
export function statusOfDay(day: DailyHealth): Health {
  return DAILY_STATES.find((state) => day[state] > 0) ?? 'good';
}

const DURATION_UNITS = [
  ['d', SECONDS_PER_DAY],
  ['h', 3600],
  ['m', 60],
  ['s', 1],
] as const;

/**
 * A compact duration: the largest unit that fits and the next one down, the second left out when zero; smaller
 * remainders are dropped (floored). 45 → '45s', 720 → '12m', 750 → '12m 30s', 7500 → '2h 5m', 7200 → '2h',
 * 97200 → '1d 3h', 86400 → '1d'. Zero, negative or non-finite → '0s'.
 */
export function formatDuration(seconds: number): string {
  let rest = Number.isFinite(seconds) ? Math.max(0, Math.floor(seconds)) : 0;
  const parts: string[] = [];
  for (const [unit, size] of DURATION_UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (parts.length > 0) {
      if (count > 0) parts.push(`${count}${unit}`);
      break;
    }
    if (count > 0) parts.push(`${count}${unit}`);
  }
  return parts.length > 0 ? parts.join(' ') : '0s';
}

/**
 * Spec section 4: '{duration} of critical' for each non-zero state, in the order critical, error, warning,
 * maintenance.
 */
export function dayMessages(day: DailyHealth): string[] {
  return DAILY_STATES.filter((state) => day[state] > 0).map((state) => `${formatDuration(day[state])} of ${state}`);
}

/** How many runs failed in a row, from outcomes newest first (true: success). */
export function consecutiveFailures(outcomesNewestFirst: readonly boolean[]): number {
  const lastSuccess = outcomesNewestFirst.indexOf(true);
  return lastSuccess === -1 ? outcomesNewestFirst.length : lastSuccess;
}

/** docs/decisions.md#health-maths: a check is failing once more than `allowedFailures` runs in a row failed. */
export function isCheckFailing(consecutive: number, allowedFailures: number): boolean {
  return consecutive > allowedFailures;
}

/** Where a check stands between runs: failures and successes in a row, and whether it is failing. */
export interface FailingState {
  consecutiveFailures: number;
  /** Successes in a row while failing (docs/decisions.md#checks: `recover_after` of them make it good again). */
  recovering: number;
  failing: boolean;
}

/**
 * The state after one run (docs/decisions.md#health-maths and #checks): a check fails once more than `allowedFailures`
 * runs in a row failed, and once failing is good again only after `recoverAfter` successes in a row.
 */
export function afterRun(
  state: FailingState,
  success: boolean,
  allowedFailures: number,
  recoverAfter: number,
): FailingState {
  if (!success) {
    const consecutive = state.consecutiveFailures + 1;
    return { consecutiveFailures: consecutive, recovering: 0, failing: state.failing || consecutive > allowedFailures };
  }
  if (!state.failing) return { consecutiveFailures: 0, recovering: 0, failing: false };
  const recovering = state.recovering + 1;
  return recovering >= recoverAfter
    ? { consecutiveFailures: 0, recovering: 0, failing: false }
    : { consecutiveFailures: 0, recovering, failing: true };
}

/** The state from the latest outcomes, newest first (true: success), and whether the check was failing. */
export function failingStateOf(
  outcomesNewestFirst: readonly boolean[],
  wasFailing: boolean,
  allowedFailures: number,
  recoverAfter: number,
): FailingState {
  const failures = consecutiveFailures(outcomesNewestFirst);
  if (failures > 0) {
    return { consecutiveFailures: failures, recovering: 0, failing: wasFailing || failures > allowedFailures };
  }
  const successes = outcomesNewestFirst.indexOf(false);
  const streak = successes === -1 ? outcomesNewestFirst.length : successes;
  return wasFailing && streak < recoverAfter
    ? { consecutiveFailures: 0, recovering: streak, failing: true }
    : { consecutiveFailures: 0, recovering: 0, failing: false };
}

/** How many latest outcomes decide a check's state. */
export const outcomesToRead = (allowedFailures: number, recoverAfter: number) =>
  Math.max(allowedFailures + 1, recoverAfter);

/** Severity rank: good < maintenance < warning < error < critical. */
export function healthRank(health: Health): number {
  return HEALTHS.indexOf(health);
}

/** The worst of the given healths (good when none): raises a service to a failing check's importance. */
export function worstHealth(...healths: Health[]): Health {
  let worst: Health = 'good';
  for (const health of healths) if (healthRank(health) > healthRank(worst)) worst = health;
  return worst;
}

// ---- rollups for the app (computed in the Comlink worker, docs/decisions.md#offline) ----

/**
 * Where a service's daily-health report starts (spec section 7): the later of its creation and the first of the
 * last 90 UTC days, today being the last. The day start keeps the range within the 90 days the server accepts,
 * and keeps the value the same all day (one cache entry per day). An unreadable creation time is ignored.
 */
export function dailyHealthReportFrom(createdAt: number, now: number): number {
  const earliest = utcDayStart(utcDate(now)) - (DAILY_HEALTH_MAX_DAYS - 1) * MS_PER_DAY;
  return Number.isFinite(createdAt) ? Math.max(createdAt, earliest) : earliest;
}

/** Uptime as shown: two decimals and a percent sign ('99.95%'). */
export function formatUptime(percent: number): string {
  return `${percent.toFixed(2)}%`;
}

/** One day of a daily-health report as the bars show it: its status (spec 4) and messages. */
export interface DayRollup {
  date: string;
  status: Health;
  messages: string[];
}

export interface DailyHealthRollup {
  /** Percent, two decimals (see `uptime`). */
  uptime: number;
  days: DayRollup[];
}

/**
 * A daily-health report rolled up for display: the uptime (today weighed by what has passed of it when `now` is
 * given) and each day's status and messages, in the report's order.
 */
export function rollupDailyHealth(days: readonly DailyHealth[], now?: number): DailyHealthRollup {
  return {
    uptime: uptime(days, now),
    days: days.map((day) => ({ date: day.date, status: statusOfDay(day), messages: dayMessages(day) })),
  };
}

/** What a health check's results add up to: how many, how many failed, and the mean response time in ms. */
export interface CheckResultsSummary {
  count: number;
  failures: number;
  /** Rounded to whole ms; null with no results. */
  meanMs: number | null;
}

export function summariseCheckResults(results: ReadonlyArray<{ time: number; success: boolean }>): CheckResultsSummary {
  let failures = 0;
  let total = 0;
  for (const result of results) {
    if (!result.success) failures++;
    total += result.time;
  }
  return { count: results.length, failures, meanMs: results.length > 0 ? Math.round(total / results.length) : null };
}

/** What a check's card says of it: paused or disabled by its editors, else up or down by its results. */
export type CheckState = 'up' | 'down' | 'paused' | 'disabled' | 'unknown';

export interface CheckStatus {
  state: CheckState;
  /** Why the newest failed result failed ('HTTP 503', the probe's error), and when; null without failures. */
  lastError: { message: string; start: string } | null;
  /** Percent of the results that succeeded, two decimals; null without results. */
  uptime: number | null;
}

/**
 * The status of a health check from its results (oldest first): down once it is failing (more than its allowed
 * failures in a row, docs/decisions.md#health-maths), the last failure's reason kept so the editor sees why.
 */
export function checkStatusOf(
  check: { paused: boolean; disabled: boolean; allowed_failures: number },
  results: ReadonlyArray<{ start: string; success: boolean; status?: number | undefined; error?: string | undefined }>,
): CheckStatus {
  const newestFirst = [...results].reverse();
  const failed = newestFirst.find((result) => !result.success);
  const lastError = failed
    ? { message: failed.error ?? (failed.status ? `HTTP ${failed.status}` : 'Failed'), start: failed.start }
    : null;
  const { count, failures } = summariseCheckResults(results.map((result) => ({ time: 0, success: result.success })));
  const uptime = count === 0 ? null : Math.round(((count - failures) / count) * 10_000) / 100;
  const failing = isCheckFailing(
    consecutiveFailures(newestFirst.map((result) => result.success)),
    check.allowed_failures,
  );
  const state: CheckState = check.disabled
    ? 'disabled'
    : check.paused
      ? 'paused'
      : count === 0
        ? 'unknown'
        : failing
          ? 'down'
          : 'up';
  return { state, lastError, uptime };
}

/** A failing check raises its service to its importance (docs/decisions.md#health-maths). */
export const IMPORTANCES = ['warning', 'error', 'critical'] as const;
export type Importance = (typeof IMPORTANCES)[number];

/**
 * Spec sections 3, 5 and 9 (docs/decisions.md#health-maths: frequency and timeout in seconds); the upper bounds are the
 * API's.
 */
export const HEALTH_CHECK_DEFAULTS = { frequency: 15, timeout: 1, allowed_failures: 0, importance: 'warning' } as const;
export const HEALTH_CHECK_BOUNDS = {
  frequency: { min: 1, max: 86_400 },
  timeout: { min: 1, max: 15 },
  allowed_failures: { min: 0, max: 1000 },
} as const;

/** Results a team runner sends in one request at most (the API refuses more; the agent batches by it). */
export const RUNNER_RESULTS_MAX = 1000;
