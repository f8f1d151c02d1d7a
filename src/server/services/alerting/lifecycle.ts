/**
 * An alert's life (docs/decisions.md#alerts), in the transaction of what moved it: a service's health opens,
 * raises and resolves its alert (catalogue/service-health.ts calls followHealth), and people acknowledge or resolve
 * it by hand (the API, a signed link, Slack, PagerDuty, Opsgenie: all through answerAlert). Each step writes the
 * alert's timeline, queues what its channels are told (the alert outbox sends it after the commit) and records
 * its event for the bell and the feeds. Nothing here needs the server's context: the outbox renders the messages.
 */
import { randomUUID } from 'node:crypto';
import {
  actionRefusal,
  healthStep,
  nextEscalation,
  severityRank,
  type AlertSeverity,
  type AlertSource,
} from '../../../domain/alerts.js';
import { healthLabel, type Health } from '../../../domain/catalogue.js';
import {
  channelsToldOf,
  effectivePolicy,
  findActiveAlert,
  insertAlert,
  insertTimeline,
  listChannelsByIds,
  listServiceChannelIds,
  ownerTeamOf,
  updateAlertIf,
} from '../../db/repositories/alerts.js';
import type { AlertRow } from '../../db/schema.js';
import type { Db } from '../../db/repositories/workspaces.js';
import { announce, insertEvents, type NewEvent } from '../../db/repositories/events.js';
import { ALERT_WORK, queueDeliveries, type DeliveryNote } from './deliveries.js';
import { parsePolicy } from './policy.js';

export interface HealthMove {
  workspaceId: string;
  serviceId: string;
  from: Health | null;
  to: Health;
  at: Date;
}

/** What opening or raising needs: the service, its team now, the alert's source. */
interface RoutedMove {
  workspaceId: string;
  serviceId: string;
  at: Date;
  teamId: string;
  source: AlertSource;
}

/** Who answers an alert by hand, and through what ("the app", "a link", "Slack", "PagerDuty"). */
export interface AlertAnswerer {
  userId: string | null;
  name: string;
  via: string;
}

const timelineRow = (
  alertId: string,
  at: string,
  kind: string,
  message: string,
  extra: Partial<TimelineExtra> = {},
) => ({
  id: randomUUID(),
  alert_id: alertId,
  at,
  kind,
  message,
  channel_id: extra.channelId ?? null,
  target: extra.target ?? null,
  status: extra.status ?? null,
});

interface TimelineExtra {
  channelId: string;
  target: string;
  status: string;
}

/**
 * The channels an alert of `severity` of the service is told through: its team's policy (or the workspace's
 * default) for that severity, and the channels the service adds. Only channels that still exist.
 */
export async function routedChannels(
  db: Db,
  workspaceId: string,
  serviceId: string,
  teamId: string,
  severity: AlertSeverity,
): Promise<string[]> {
  const policy = parsePolicy(await effectivePolicy(db, workspaceId, teamId));
  const wanted = new Set(
    policy.rules.filter((rule) => rule.severities.includes(severity)).flatMap((rule) => rule.channels),
  );
  for (const id of await listServiceChannelIds(db, serviceId)) wanted.add(id);
  const existing = await listChannelsByIds(db, workspaceId, [...wanted]);
  return existing.filter((row) => row.team_id === null || row.team_id === teamId).map((row) => row.id);
}

/** Opens, raises or resolves the service's health alert as its health moved, in the caller's transaction. */
export async function followHealth(db: Db, move: HealthMove): Promise<void> {
  const active = await findActiveAlert(db, move.serviceId, 'health');
  const step = healthStep(active ?? null, move.from, move.to);
  const at = move.at.toISOString();
  const moved = move.from
    ? `Health went from ${healthLabel(move.from)} to ${healthLabel(move.to)}`
    : `Health is ${healthLabel(move.to)}`;
  if (step.kind === 'open' || step.kind === 'raise') {
    // Routing follows the service's team as it is now: a service moved to another team alerts through that one.
    const teamId = await ownerTeamOf(db, move.serviceId);
    if (teamId === undefined) return;
    if (step.kind === 'open') await openAlert(db, { ...move, teamId, source: 'health' }, step.severity, moved, at);
    else await raiseAlert(db, active!, { ...move, teamId, source: 'health' }, step.severity, moved, at);
  } else if (step.kind === 'resolve') await resolveAlert(db, active!, at, { kind: 'recovered', message: moved });
}

/** A signal other than health that alerts at its own severity: an SLO burning its budget, a scorecard drop. */
export interface SignalMove {
  workspaceId: string;
  serviceId: string;
  source: Exclude<AlertSource, 'health'>;
  /** The severity it calls for now; null: it stopped (the alert resolves). */
  severity: AlertSeverity | null;
  summary: string;
  at: Date;
}

/** Opens, raises or resolves the service's alert of a signal, in the caller's transaction. */
export async function followSignal(db: Db, move: SignalMove): Promise<void> {
  const active = await findActiveAlert(db, move.serviceId, move.source);
  const at = move.at.toISOString();
  if (move.severity === null) {
    if (active) await resolveAlert(db, active, at, { kind: 'recovered', message: move.summary });
    return;
  }
  if (active && severityRank(move.severity) <= severityRank(active.severity)) return;
  const teamId = await ownerTeamOf(db, move.serviceId);
  if (teamId === undefined) return;
  const routed = { workspaceId: move.workspaceId, serviceId: move.serviceId, at: move.at, teamId, source: move.source };
  if (active) await raiseAlert(db, active, routed, move.severity, move.summary, at);
  else await openAlert(db, routed, move.severity, move.summary, at);
}

async function openAlert(db: Db, move: RoutedMove, severity: AlertSeverity, summary: string, at: string) {
  const policy = parsePolicy(await effectivePolicy(db, move.workspaceId, move.teamId));
  const openedAt = move.at.getTime();
  const first = nextEscalation(policy.escalation, policy.repeat, openedAt, null);
  const alert = {
    id: randomUUID(),
    workspace_id: move.workspaceId,
    service_id: move.serviceId,
    source: move.source,
    severity,
    state: 'open' as const,
    summary,
    opened_at: at,
    acknowledged_at: null,
    acknowledged_by: null,
    resolved_at: null,
    resolved_by: null,
    reason: null,
    escalation_round: null,
    escalation_level: null,
    next_escalation_at: first ? new Date(first.at).toISOString() : null,
  };
  await insertAlert(db, alert);
  const channels = await routedChannels(db, move.workspaceId, move.serviceId, move.teamId, severity);
  await insertTimeline(db, [timelineRow(alert.id, at, 'opened', `Opened at ${healthLabel(severity)}: ${summary}`)]);
  await queueDeliveries(db, alert, channels, 'trigger', { severity, state: 'open', at });
  if (first) await announce(db, ALERT_WORK);
  await recordAlertEvent(db, {
    workspace_id: move.workspaceId,
    profile_type: 'service',
    profile_id: move.serviceId,
    type: 'alert.opened',
    actor_id: null,
    agent_name: 'Beacon',
    data: { alert: alert.id, severity, source: move.source, summary },
    created_at: at,
  });
}

async function raiseAlert(
  db: Db,
  alert: AlertRow,
  move: RoutedMove,
  severity: AlertSeverity,
  summary: string,
  at: string,
) {
  if (!(await updateAlertIf(db, alert.id, ['open', 'acknowledged'], { severity }))) return;
  const told = new Set(await channelsToldOf(db, alert.id));
  const routed = await routedChannels(db, move.workspaceId, move.serviceId, move.teamId, severity);
  const note = { severity, state: alert.state, at };
  await insertTimeline(db, [timelineRow(alert.id, at, 'raised', `Raised to ${healthLabel(severity)}: ${summary}`)]);
  await queueDeliveries(db, alert, [...told], 'raise', note);
  await queueDeliveries(
    db,
    alert,
    routed.filter((id) => !told.has(id)),
    'trigger',
    note,
  );
}

interface Resolution {
  kind: 'recovered' | 'by hand';
  message: string;
  answerer?: AlertAnswerer;
  reason?: string;
}

async function resolveAlert(db: Db, alert: AlertRow, at: string, resolution: Resolution): Promise<boolean> {
  const changed = await updateAlertIf(db, alert.id, ['open', 'acknowledged'], {
    state: 'resolved',
    resolved_at: at,
    resolved_by: resolution.answerer?.userId ?? null,
    reason: resolution.reason ?? null,
    next_escalation_at: null,
  });
  if (!changed) return false;
  await insertTimeline(db, [timelineRow(alert.id, at, 'resolved', resolution.message)]);
  const note: DeliveryNote = {
    severity: alert.severity,
    state: 'resolved',
    at,
    ...(resolution.answerer ? { by: resolution.answerer.name } : {}),
    ...(resolution.reason ? { reason: resolution.reason } : {}),
  };
  await queueDeliveries(db, alert, await channelsToldOf(db, alert.id), 'resolve', note);
  await recordAlertEvent(db, {
    workspace_id: alert.workspace_id,
    profile_type: 'service',
    profile_id: alert.service_id,
    type: 'alert.resolved',
    ...answererColumns(resolution.answerer),
    data: {
      alert: alert.id,
      ...(resolution.answerer ? { by: resolution.answerer.name } : {}),
      ...(resolution.reason ? { reason: resolution.reason } : {}),
    },
    created_at: at,
  });
  return true;
}

/** The event's agent: the person who answered, else Beacon itself (a recovery) or the vendor. */
function answererColumns(answerer: AlertAnswerer | undefined) {
  return { actor_id: answerer?.userId ?? null, agent_name: answerer?.name ?? 'Beacon' };
}

/**
 * An alert's step in its service's feed. Not through recordEvent: the people an alert concerns are told through its
 * policy's channels and escalation, and the bell already rang for the health change that opened it; a second
 * notification and a second post in the service's Slack channel for the same failure would be noise.
 */
async function recordAlertEvent<T extends 'alert.opened' | 'alert.acknowledged' | 'alert.resolved'>(
  db: Db,
  event: NewEvent<T>,
): Promise<void> {
  await insertEvents(db, [event]);
}

/** Why an answer was refused (the alert moved on), or null when it was applied. */
export type AnswerOutcome = { applied: true } | { applied: false; refusal: string };

/**
 * Acknowledges or resolves an alert for a person or a vendor, in the caller's transaction. Acknowledging stops the
 * escalation and tells every channel that was told; resolving by hand is allowed while the service still fails,
 * with the reason on the timeline.
 */
export async function answerAlert(
  db: Db,
  alert: AlertRow,
  action: 'acknowledge' | 'resolve',
  answerer: AlertAnswerer,
  at: string,
  reason?: string,
): Promise<AnswerOutcome> {
  const refusal = actionRefusal(alert.state, action);
  if (refusal) return { applied: false, refusal };
  const through = `${answerer.name} (${answerer.via})`;
  if (action === 'resolve') {
    const message = `Resolved by ${through}${reason ? `: ${reason}` : ''}`;
    const resolved = await resolveAlert(db, alert, at, {
      kind: 'by hand',
      message,
      answerer,
      ...(reason ? { reason } : {}),
    });
    return resolved ? { applied: true } : { applied: false, refusal: 'This alert is already resolved' };
  }
  const changed = await updateAlertIf(db, alert.id, ['open'], {
    state: 'acknowledged',
    acknowledged_at: at,
    acknowledged_by: answerer.userId,
    next_escalation_at: null,
  });
  if (!changed) return { applied: false, refusal: 'This alert was answered a moment ago' };
  await insertTimeline(db, [timelineRow(alert.id, at, 'acknowledged', `Acknowledged by ${through}`)]);
  await queueDeliveries(db, alert, await channelsToldOf(db, alert.id), 'acknowledge', {
    severity: alert.severity,
    state: 'acknowledged',
    at,
    by: answerer.name,
  });
  await recordAlertEvent(db, {
    workspace_id: alert.workspace_id,
    profile_type: 'service',
    profile_id: alert.service_id,
    type: 'alert.acknowledged',
    ...answererColumns(answerer),
    data: { alert: alert.id, by: answerer.name },
    created_at: at,
  });
  return { applied: true };
}

export { timelineRow };
