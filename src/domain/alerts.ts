/**
 * Alerts (docs/decisions.md#alerts): what opens, raises and resolves one as a service's health moves, which actions
 * a state allows, how an escalation's levels fall in time, and the one message model every channel renders.
 * Pure: the server's alert lifecycle, the outbox's channel senders and the app all use it.
 */
import { healthLabel, type Health } from './catalogue.js';

export const ALERT_SEVERITIES = ['warning', 'error', 'critical'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

export const ALERT_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

export const ALERT_SOURCES = ['health', 'slo', 'scorecard'] as const;
export type AlertSource = (typeof ALERT_SOURCES)[number];

export const ALERT_CHANNEL_KINDS = [
  'email',
  'slack',
  'webhook',
  'teams',
  'discord',
  'telegram',
  'ntfy',
  'pagerduty',
  'opsgenie',
] as const;
export type AlertChannelKind = (typeof ALERT_CHANNEL_KINDS)[number];

/** What a channel is told: the alert's opening (or a test), a raise, an acknowledgement, its resolution. */
export const ALERT_ACTIONS = ['trigger', 'raise', 'acknowledge', 'resolve', 'test'] as const;
export type AlertAction = (typeof ALERT_ACTIONS)[number];

/** A channel that fails this many deliveries in a row is marked failing and its team's admins are told. */
export const CHANNEL_FAILING_AFTER = 10;
/** How many deliveries a channel's log keeps. */
export const DELIVERY_LOG_SIZE = 100;
/** An escalation repeats at most this many times. */
export const MAX_ESCALATION_REPEAT = 10;

const SEVERITY_OF: Record<Health, AlertSeverity | null> = {
  good: null,
  // Planned work is no alert: a maintenance window silences (and a maintenance notice says so on its own).
  maintenance: null,
  warning: 'warning',
  error: 'error',
  critical: 'critical',
};

/** The severity an alert takes for a health; null for the healths that open none (good, maintenance). */
export const alertSeverityOf = (health: Health): AlertSeverity | null => SEVERITY_OF[health];

export const severityRank = (severity: AlertSeverity | null): number =>
  severity === null ? -1 : ALERT_SEVERITIES.indexOf(severity);

export const isActive = (state: AlertState): boolean => state !== 'resolved';

/** What a move of a service's health does to its alert. */
export type HealthStep =
  | { kind: 'open'; severity: AlertSeverity }
  | { kind: 'raise'; severity: AlertSeverity }
  | { kind: 'resolve' }
  | { kind: 'none' };

/**
 * The step for a health moving from `from` to `to`, given the service's active alert (open or acknowledged), if any.
 * With no active alert, an alert opens when the new health is worse than the one before: leaving good, or getting
 * worse after an alert was resolved by hand while the service still failed (a hand resolve says "we know", not
 * "never tell again"). With one, good resolves it, a worse severity raises it, and anything else changes nothing
 * (its severity stays the worst it reached). Health itself already waited for `allowed_failures` and
 * `recover_after`, so a flap within them never reaches here.
 */
export function healthStep(active: { severity: AlertSeverity } | null, from: Health | null, to: Health): HealthStep {
  const severity = alertSeverityOf(to);
  if (!active) {
    if (severity === null) return { kind: 'none' };
    return severityRank(severity) > severityRank(from === null ? null : alertSeverityOf(from))
      ? { kind: 'open', severity }
      : { kind: 'none' };
  }
  if (to === 'good') return { kind: 'resolve' };
  if (severity !== null && severityRank(severity) > severityRank(active.severity)) return { kind: 'raise', severity };
  return { kind: 'none' };
}

/** Why an action is refused in a state, or null when it is allowed. */
export function actionRefusal(state: AlertState, action: 'acknowledge' | 'resolve'): string | null {
  if (state === 'resolved') return 'This alert is already resolved';
  if (action === 'acknowledge' && state === 'acknowledged') return 'This alert is already acknowledged';
  return null;
}

// ---- escalation ----

export type EscalationTarget = { user: string } | { team: string } | { channel: string };

export interface EscalationLevel {
  /** When this level is told, counted from the start of its round (the first round starts as the alert opens). */
  afterSeconds: number;
  targets: EscalationTarget[];
}

export interface EscalationStep {
  round: number;
  level: number;
  /** Epoch ms. */
  at: number;
}

/**
 * How long a round of the levels lasts: one step past its last level, the step being the gap between the last two
 * levels (a single level: its own delay). So [0 min, 15 min] repeats as 0, 15, 30, 45: the rhythm goes on. Zero (a
 * single level at 0) never repeats.
 */
export function roundSeconds(levels: readonly EscalationLevel[]): number {
  if (levels.length === 0) return 0;
  const last = levels[levels.length - 1]!.afterSeconds;
  const before = levels.length > 1 ? levels[levels.length - 2]!.afterSeconds : 0;
  return last + (last - before);
}

/**
 * The escalation step after `done` (null: none told yet), or null when the levels and their `repeat` rounds are
 * spent. Levels are kept in the order of their delays.
 */
export function nextEscalation(
  levels: readonly EscalationLevel[],
  repeat: number,
  openedAt: number,
  done: { round: number; level: number } | null,
): EscalationStep | null {
  if (levels.length === 0) return null;
  let round = done ? done.round : 0;
  let level = done ? done.level + 1 : 0;
  if (level >= levels.length) {
    round += 1;
    level = 0;
  }
  const length = roundSeconds(levels);
  if (round > 0 && (round > repeat || length <= 0)) return null;
  return { round, level, at: openedAt + (round * length + levels[level]!.afterSeconds) * 1000 };
}

/** The levels in the order they are told (by delay; equal delays keep their written order). */
export function orderLevels<T extends { afterSeconds: number }>(levels: readonly T[]): T[] {
  return levels
    .map((level, index) => ({ level, index }))
    .sort((a, b) => a.level.afterSeconds - b.level.afterSeconds || a.index - b.index)
    .map(({ level }) => level);
}

// ---- the message every channel renders ----

export interface AlertMessage {
  action: AlertAction;
  alertId: string;
  /** What a vendor deduplicates on (PagerDuty's dedup_key, Opsgenie's alias): the alert's id. */
  dedupKey: string;
  severity: AlertSeverity;
  state: AlertState;
  source: AlertSource;
  service: { handle: string; name: string };
  team: { handle: string; name: string };
  workspace: { slug: string; name: string };
  /** One line: "Payments API is critical". */
  title: string;
  /** A sentence or two on what happened. */
  summary: string;
  /** The alert's page in the app. */
  link: string;
  /** A signed one-time link that acknowledges (absent once acknowledged or resolved, and on a test). */
  acknowledgeLink?: string;
  /** Who acknowledged or resolved, and why. */
  by?: string;
  reason?: string;
  /** ISO: when what is told happened. */
  at: string;
}

const ACTION_WORDS: Record<AlertAction, (severity: AlertSeverity) => string> = {
  trigger: (severity) => `is ${healthLabel(severity).toLowerCase()}`,
  raise: (severity) => `is now ${healthLabel(severity).toLowerCase()}`,
  acknowledge: () => 'alert acknowledged',
  resolve: () => 'alert resolved',
  test: () => 'test alert',
};

/** The message's one line, e.g. "Payments API is critical" or "Payments API: alert acknowledged". */
export function alertTitle(action: AlertAction, serviceName: string, severity: AlertSeverity): string {
  const words = ACTION_WORDS[action](severity);
  return action === 'trigger' || action === 'raise' ? `${serviceName} ${words}` : `${serviceName}: ${words}`;
}
