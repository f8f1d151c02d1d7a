/**
 * Events (docs/decisions.md#feeds): what happened to a service or a team, recorded with the change that caused it.
 * The kinds, the data each carries, and the sentence a person reads in a feed or a notification. Shared by the
 * server (which writes and serves them) and the app.
 */
import { healthLabel, type Health } from './catalogue.js';
import type { AlertSeverity, AlertSource } from './alerts.js';
import type { NoticeType } from './notices.js';
import { shortUtcDay } from './scorecards.js';

/** Every kind of event, with the data it records (names, not ids, so the sentence outlives renames). */
export interface EventData {
  'service.created': Record<string, never>;
  'service.updated': { fields: string[] };
  'service.owner_changed': { from: string; to: string };
  'service.deleted': { name: string; handle: string };
  'service.health_changed': { health: Health; from?: Health; source?: string };
  'notice.created': { notice: string; type: NoticeType; title: string; status: string; health?: Health | null };
  'notice.updated': { notice: string; type: NoticeType; title: string; status: string; health?: Health | null };
  'page.published': { page: string; type: string; title: string };
  'check.failing': { check: string; name: string };
  'check.recovered': { check: string; name: string };
  /** A burn-rate alert of the service's SLO started firing (domain/slo.ts): once per crossing. */
  'slo.burn_alert': { alert: 'fast' | 'slow'; target: number; window_days: number; burn_rate: number | null };
  /** The service fell to a lower level of a scorecard (`to` null: below the lowest). */
  'scorecard.level_dropped': { scorecard: string; from: string; to: string | null };
  /** A passing rule on a date (a certificate, an error budget) will fail within a week. */
  'scorecard.rule_will_fail': { scorecard: string; rule: string; fails_at: string };
  /** Answers of a check made from the service's spec break it (docs/decisions.md#spec-checks): once per appearance. */
  'api.drift_found': { operation: string; page: string; spec_version: string | null; message: string };
  'api.drift_cleared': { operation: string; page: string; spec_version: string | null };
  'team.created': Record<string, never>;
  'team.member_added': { user: string; name: string };
  'team.member_removed': { user: string; name: string };
  /** A team's API client lost the right to tokens: a workspace-wide scope nobody who may grant it granted. */
  'client.disabled': { client: string; name: string; scopes: string[] };
  /** An alert of the service opened (docs/decisions.md#alerts), at the severity of the health it left for. */
  'alert.opened': { alert: string; severity: AlertSeverity; source: AlertSource; summary: string };
  'alert.acknowledged': { alert: string; by: string };
  'alert.resolved': { alert: string; by?: string; reason?: string };
  /** An open alert's escalation told its next level (the people it names get the notification). */
  'alert.escalated': { alert: string; level: number; round: number };
  /** An alert channel failed its last deliveries in a row (told to the people who look after it). */
  'alert.channel_failing': { channel: string; name: string };
}

export type EventType = keyof EventData;

/** Kept this many days unless BEACON_EVENT_RETENTION_DAYS says otherwise. */
export const EVENT_RETENTION_DAYS = 180;

/** docs/decisions.md#feeds: pages of 20 unless `limit` says otherwise. */
export const FEED_PAGE_SIZE = 20;

const NOTICE_NAMES: Record<NoticeType, string> = { incident: 'Incident', maintenance: 'Maintenance' };

/** 'in_progress' -> 'In progress'. */
function words(value: string): string {
  const text = value.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** 'name', 'description', 'links' -> 'name, description and links'. */
function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function isHealth(value: unknown): value is Health {
  return typeof value === 'string' && ['good', 'maintenance', 'warning', 'error', 'critical'].includes(value);
}

/**
 * The sentence a person reads for an event, e.g. 'Health changed from Good to Critical'. Data recorded by an
 * older version may lack a field: the sentence then says less rather than fail.
 */
export function eventTitle(type: string, data: Record<string, unknown>): string {
  const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : '');
  switch (type as EventType) {
    case 'service.created':
      return 'Service created';
    case 'service.updated': {
      const fields = Array.isArray(data.fields) ? data.fields.filter((f) => typeof f === 'string') : [];
      return fields.length > 0 ? `Updated ${listOf(fields.map((f) => f.replace(/_/g, ' ')))}` : 'Service updated';
    }
    case 'service.owner_changed':
      return `Owner changed from ${text('from')} to ${text('to')}`;
    case 'service.deleted':
      return `Service ${text('name')} deleted`;
    case 'service.health_changed': {
      const to = isHealth(data.health) ? healthLabel(data.health) : 'unknown';
      return isHealth(data.from) ? `Health changed from ${healthLabel(data.from)} to ${to}` : `Health changed to ${to}`;
    }
    case 'notice.created': {
      const kind = text('type') === 'maintenance' ? 'Maintenance scheduled' : 'Incident reported';
      return `${kind}: ${text('title')}`;
    }
    case 'notice.updated': {
      const kind = NOTICE_NAMES[text('type') as NoticeType] ?? 'Notice';
      return `${kind} ${text('title')}: ${words(text('status'))}`;
    }
    case 'page.published':
      return `${words(text('type') || 'page')} published: ${text('title')}`;
    case 'check.failing':
      return `Health check ${text('name')} is failing`;
    case 'check.recovered':
      return `Health check ${text('name')} recovered`;
    case 'slo.burn_alert': {
      const fast = data.alert === 'fast';
      const rate =
        typeof data.burn_rate === 'number' ? ` (${data.burn_rate}× over ${fast ? '1 hour' : '6 hours'})` : '';
      return `SLO ${String(data.target)}% over ${String(data.window_days)} days: error budget burning ${fast ? 'fast' : 'steadily'}${rate}`;
    }
    case 'scorecard.level_dropped':
      return `${text('scorecard')}: dropped from ${text('from')} to ${text('to') || 'no level'}`;
    case 'scorecard.rule_will_fail': {
      const day = Date.parse(text('fails_at'));
      return `${text('scorecard')}: ${text('rule')} will fail${Number.isNaN(day) ? '' : ` on ${shortUtcDay(day)}`}`;
    }
    case 'api.drift_found':
      return `API drift found: ${text('operation')}${text('message') ? ` (${text('message')})` : ''}`;
    case 'api.drift_cleared':
      return `API drift cleared: ${text('operation')}`;
    case 'team.created':
      return 'Team created';
    case 'team.member_added':
      return `${text('name')} joined the team`;
    case 'team.member_removed':
      return `${text('name')} left the team`;
    case 'client.disabled': {
      const scopes = Array.isArray(data.scopes) ? data.scopes.filter((s) => typeof s === 'string') : [];
      return `API client ${text('name')} disabled until a workspace admin grants ${listOf(scopes)} again`;
    }
    case 'alert.opened':
      return `Alert opened (${words(text('severity'))}): ${text('summary')}`;
    case 'alert.acknowledged':
      return text('by') ? `Alert acknowledged by ${text('by')}` : 'Alert acknowledged';
    case 'alert.escalated':
      return `Alert escalated to level ${String(data.level)}${Number(data.round) > 1 ? ` (round ${String(data.round)})` : ''}`;
    case 'alert.channel_failing':
      return `Alert channel ${text('name')} is failing: its last deliveries did not go through`;
    case 'alert.resolved': {
      const by = text('by') ? ` by ${text('by')}` : '';
      return `Alert resolved${by}${text('reason') ? `: ${text('reason')}` : ''}`;
    }
    default:
      return words(type.replace(/\./g, ' '));
  }
}

/** A notification's message: whose event it is and what happened. */
export function notificationMessage(profileName: string, title: string): string {
  return `${profileName}: ${title}`;
}
