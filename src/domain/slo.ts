/**
 * Service level objectives (docs/decisions.md#slos-and-scorecards, issue 28): a target availability over a rolling
 * window, measured from the service's health transitions as daily health is (warning, error and critical seconds are
 * problem seconds; declared maintenance is left out of the measure, and said so), the error budget it leaves, how fast
 * that budget burns, and the multi-window burn-rate alerts of the Google SRE workbook ("Alerting on SLOs"). Pure:
 * shared by the server, the app and the worker.
 */
import type { Health } from './catalogue.js';
import { dailyHealth, formatDuration, MS_PER_DAY, problemSeconds, type HealthTransition } from './health.js';

/** The rolling windows an SLO may be measured over, in days. */
/** An SLO as the `beacon.io/slo` annotation writes it: "99.9% 30d". */
export const formatSloAnnotation = (slo: { target: number; window_days: number }) =>
  `${slo.target}% ${slo.window_days}d`;

export const SLO_WINDOW_DAYS = [7, 28, 30] as const;
export type SloWindowDays = (typeof SLO_WINDOW_DAYS)[number];

/** A target is a percentage above 0 and below 100 (100 leaves no budget to measure), at most three decimals. */
export const SLO_TARGET_BOUNDS = { exclusiveMin: 0, exclusiveMax: 100, decimals: 3 } as const;

export interface Slo {
  /** Percent, e.g. 99.9. */
  target: number;
  window_days: SloWindowDays;
}

/** The burn-rate windows, in seconds: those the status reports and those the alerts pair. */
export const BURN_WINDOWS = { '5m': 300, '30m': 1_800, '1h': 3_600, '6h': 21_600, '3d': 259_200 } as const;
export type BurnWindow = keyof typeof BURN_WINDOWS;
/** The burn rates `GET /services/{s}/slo/status` reports. */
export const REPORTED_BURN_WINDOWS = ['1h', '6h', '3d'] as const satisfies readonly BurnWindow[];

/**
 * The workbook's two alerts: each fires when both its long and its short window burn faster than its rate. The
 * fast pair spends 2 % of a 30-day budget in an hour, the slow pair 5 % in six hours.
 */
export const BURN_ALERTS = [
  { key: 'fast', long: '1h', short: '5m', rate: 14.4 },
  { key: 'slow', long: '6h', short: '30m', rate: 6 },
] as const satisfies ReadonlyArray<{ key: string; long: BurnWindow; short: BurnWindow; rate: number }>;
export type BurnAlert = (typeof BURN_ALERTS)[number]['key'];

/** Whole seconds of one stretch of time: how much of it the service existed, and how much was problem or maintenance. */
export interface WindowSeconds {
  observed: number;
  problem: number;
  maintenance: number;
}

/** A service's health log and what is needed to read it over any window ending `now`. */
export interface HealthLog {
  /** Every transition from at least the start of the longest window read (and the last one before it), any order. */
  transitions: readonly HealthTransition[];
  /** The health before the first transition, when the log starts inside the window (see dailyHealth). */
  initial?: Health;
  /** Epoch ms the service was created: time before it is not observed. */
  createdAt: number;
  now: number;
}

/** The seconds of the `seconds` just before `log.now`. */
export function windowSeconds(log: HealthLog, seconds: number): WindowSeconds {
  const from = Math.max(log.now - seconds * 1000, log.createdAt);
  if (!(from < log.now)) return { observed: 0, problem: 0, maintenance: 0 };
  let problem = 0;
  let maintenance = 0;
  for (const day of dailyHealth(log.transitions, { from, to: log.now, initial: log.initial })) {
    problem += problemSeconds(day);
    maintenance += day.maintenance;
  }
  const observed = Math.floor(log.now / 1000) - Math.floor(from / 1000);
  return { observed, problem, maintenance };
}

/** The seconds that count towards an SLO: those observed outside declared maintenance. */
export function eligibleSeconds(seconds: WindowSeconds): number {
  return Math.max(0, seconds.observed - seconds.maintenance);
}

/** The share of the eligible seconds that were problem seconds; null when none was eligible. */
export function errorRatio(seconds: WindowSeconds): number | null {
  const eligible = eligibleSeconds(seconds);
  return eligible === 0 ? null : Math.min(1, seconds.problem / eligible);
}

/** How many times faster than the SLO allows the budget burns: the error ratio over the allowed one. */
export function burnRate(seconds: WindowSeconds, target: number): number | null {
  const ratio = errorRatio(seconds);
  return ratio === null ? null : ratio / (1 - target / 100);
}

export interface SloBudget {
  /** The downtime the target allows over the window (less its declared maintenance). */
  total_seconds: number;
  /** What is left of it; negative once overspent. */
  left_seconds: number;
  /** `left_seconds / total_seconds`, negative once overspent. */
  left_ratio: number;
}

export interface SloStatus {
  target: number;
  window_days: SloWindowDays;
  /** Percent over the window's eligible seconds, to three decimals; null before any was observed. */
  availability: number | null;
  budget: SloBudget;
  burn_rates: Record<(typeof REPORTED_BURN_WINDOWS)[number], number | null>;
  /** Epoch ms the budget runs out at the last hour's error ratio; `now` once spent; null when not burning. */
  exhausted_at: number | null;
  maintenance_seconds_excluded: number;
}

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/**
 * The SLO's state at `log.now`.
 *
 * - The budget is `(1 - target)` of the whole window less its declared maintenance, so 99.9 % over 30 days allows
 *   the familiar 43.2 minutes whatever the service's age; a younger service has spent only what it has observed.
 * - `exhausted_at` projects the last hour's error ratio forward: a service fully down now runs out after exactly
 *   the budget it has left. Seconds leaving the rolling window in the meantime are not counted back in.
 */
export function sloStatus(slo: Slo, log: HealthLog): SloStatus {
  const window = windowSeconds(log, slo.window_days * (MS_PER_DAY / 1000));
  const allowed = 1 - slo.target / 100;
  const total = Math.round(allowed * (slo.window_days * (MS_PER_DAY / 1000) - window.maintenance));
  const left = total - window.problem;
  const ratio = errorRatio(window);
  const windowOf = (key: BurnWindow) => windowSeconds(log, BURN_WINDOWS[key]);
  const lastHour = windowOf('1h');
  const burn = (seconds: WindowSeconds) => {
    const rate = burnRate(seconds, slo.target);
    return rate === null ? null : round(rate, 2);
  };
  return {
    target: slo.target,
    window_days: slo.window_days,
    availability: ratio === null ? null : round(100 * (1 - ratio), 3),
    budget: { total_seconds: total, left_seconds: left, left_ratio: total === 0 ? 0 : round(left / total, 4) },
    burn_rates: { '1h': burn(lastHour), '6h': burn(windowOf('6h')), '3d': burn(windowOf('3d')) },
    exhausted_at: exhaustedAt(left, lastHour, log.now),
    maintenance_seconds_excluded: window.maintenance,
  };
}

/** When `left` budget seconds run out at the error ratio of `recent` (in whole numbers, so no float drift). */
function exhaustedAt(left: number, recent: WindowSeconds, now: number): number | null {
  if (left <= 0) return now;
  if (recent.problem === 0) return null;
  return now + Math.ceil((left * eligibleSeconds(recent)) / recent.problem) * 1000;
}

/** Which of the two alerts fire at `log.now` (both windows of the pair over its rate). */
export function firingBurnAlerts(slo: Slo, log: HealthLog): Record<BurnAlert, boolean> {
  const over = (key: BurnWindow, rate: number) => {
    const burn = burnRate(windowSeconds(log, BURN_WINDOWS[key]), slo.target);
    return burn !== null && burn > rate;
  };
  const firing = {} as Record<BurnAlert, boolean>;
  for (const alert of BURN_ALERTS) firing[alert.key] = over(alert.long, alert.rate) && over(alert.short, alert.rate);
  return firing;
}

/** The alerts that started firing between two readings: each is announced once per crossing. */
export function crossedBurnAlerts(
  before: Readonly<Record<BurnAlert, boolean>>,
  now: Readonly<Record<BurnAlert, boolean>>,
): BurnAlert[] {
  return BURN_ALERTS.map((alert) => alert.key).filter((key) => now[key] && !before[key]);
}

/** Whether a target is one an SLO may have (see SLO_TARGET_BOUNDS). */
export function isSloTarget(value: number): boolean {
  return (
    Number.isFinite(value) &&
    value > SLO_TARGET_BOUNDS.exclusiveMin &&
    value < SLO_TARGET_BOUNDS.exclusiveMax &&
    round(value, SLO_TARGET_BOUNDS.decimals) === value
  );
}

/** "99.9% over 30 days". */
export function sloSummary(slo: Slo): string {
  return `${slo.target}% over ${slo.window_days} days`;
}

/** "500×", or "No data" before anything was observed. */
export function formatBurnRate(rate: number | null): string {
  return rate === null ? 'No data' : `${rate}×`;
}

/** "13m 12s left (30.6%)", or "Overspent by 43m 12s (100%)" once the budget is gone. */
export function budgetLeftText(budget: SloBudget): string {
  const percent = `${Math.round(Math.abs(budget.left_ratio) * 1000) / 10}%`;
  return budget.left_seconds >= 0
    ? `${formatDuration(budget.left_seconds)} left (${percent})`
    : `Overspent by ${formatDuration(-budget.left_seconds)} (${percent})`;
}
