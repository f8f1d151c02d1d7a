/**
 * The one message model every channel renders (domain/alerts.ts AlertMessage), made from a queued delivery when it
 * is sent: the alert as it is, the moment the delivery was queued for, the links to the alert and, while it is open,
 * a signed one-time link that acknowledges it.
 */
import { SignJWT, jwtVerify } from 'jose';
import { alertTitle, type AlertMessage } from '../../../domain/alerts.js';
import { healthLabel } from '../../../domain/catalogue.js';
import { workspaceOrigin } from '../../config.js';
import type { ServerContext } from '../../context.js';
import type { AlertListRow } from '../../db/repositories/alerts.js';
import type { AlertDeliveryRow, WorkspaceRow } from '../../db/schema.js';
import type { DeliveryNote } from './deliveries.js';

/** An acknowledge link lasts a week: long past any escalation; a used or stale one only shows the alert's state. */
const ACK_LINK_SECONDS = 7 * 24 * 3600;
const ACK_PURPOSE = 'alert-ack';

export function alertUrl(ctx: ServerContext, workspace: WorkspaceRow, alertId: string): string {
  return `${workspaceOrigin(ctx.config, workspace.domain)}/alerts/${alertId}`;
}

/** A signed link that acknowledges the alert (GET shows a button, POST acknowledges: routes/alert-links.ts). */
export async function acknowledgeLink(ctx: ServerContext, workspace: WorkspaceRow, alertId: string): Promise<string> {
  const issuedAt = Math.floor(ctx.now().getTime() / 1000);
  const token = await new SignJWT({ sub: alertId, use: ACK_PURPOSE, wid: workspace.id })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACK_LINK_SECONDS)
    .sign(ctx.jwtKey);
  return `${alertUrl(ctx, workspace, alertId)}/ack?token=${encodeURIComponent(token)}`;
}

/** The alert an acknowledge link names, in this workspace, or null when the token is not such a link. */
export async function alertOfLink(ctx: ServerContext, workspaceId: string, token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify<{ use?: unknown; wid?: unknown }>(token, ctx.jwtKey, {
      algorithms: ['HS256'],
      currentDate: ctx.now(),
    });
    return payload.use === ACK_PURPOSE && payload.wid === workspaceId && typeof payload.sub === 'string'
      ? payload.sub
      : null;
  } catch {
    return null;
  }
}

const SUMMARIES: Record<AlertDeliveryRow['action'], (alert: AlertListRow, note: DeliveryNote) => string> = {
  trigger: (alert) => alert.summary,
  raise: (alert, note) => `Now ${healthLabel(note.severity).toLowerCase()}. ${alert.summary}`,
  acknowledge: (_alert, note) => `Acknowledged by ${note.by ?? 'someone'}.`,
  resolve: (_alert, note) =>
    note.by ? `Resolved by ${note.by}${note.reason ? `: ${note.reason}` : '.'}` : 'The service is good again.',
  test: (_alert, note) => `A test from Beacon, sent by ${note.by ?? 'an admin'}: this channel works.`,
};

/** The message a delivery tells its channel. */
export async function deliveryMessage(
  ctx: ServerContext,
  delivery: AlertDeliveryRow,
  alert: AlertListRow,
  workspace: WorkspaceRow,
): Promise<AlertMessage> {
  const note = JSON.parse(delivery.message) as DeliveryNote;
  const stillOpen = alert.state === 'open' && (delivery.action === 'trigger' || delivery.action === 'raise');
  return {
    action: delivery.action,
    alertId: alert.id,
    dedupKey: alert.id,
    severity: note.severity,
    state: note.state,
    source: alert.source,
    service: { handle: alert.service_handle, name: alert.service_name },
    team: { handle: alert.team_handle, name: alert.team_name },
    workspace: { slug: workspace.domain, name: workspace.name },
    title: alertTitle(delivery.action, alert.service_name, note.severity),
    summary: SUMMARIES[delivery.action](alert, note),
    link: alertUrl(ctx, workspace, alert.id),
    ...(stillOpen ? { acknowledgeLink: await acknowledgeLink(ctx, workspace, alert.id) } : {}),
    ...(note.by ? { by: note.by } : {}),
    ...(note.reason ? { reason: note.reason } : {}),
    at: note.at,
  };
}

/** A channel's test: a made-up critical alert of a made-up service, with its own key (no vendor folds it in). */
export function testMessage(ctx: ServerContext, delivery: AlertDeliveryRow, workspace: WorkspaceRow): AlertMessage {
  const note = JSON.parse(delivery.message) as DeliveryNote;
  const origin = workspaceOrigin(ctx.config, workspace.domain);
  return {
    action: 'test',
    alertId: `test-${delivery.id}`,
    dedupKey: `test-${delivery.id}`,
    severity: 'critical',
    state: 'open',
    source: 'health',
    service: { handle: 'beacon-test', name: 'Beacon test' },
    team: { handle: 'beacon', name: 'Beacon' },
    workspace: { slug: workspace.domain, name: workspace.name },
    title: alertTitle('test', 'Beacon', 'critical'),
    summary: SUMMARIES.test({} as AlertListRow, note),
    link: `${origin}/alerts`,
    ...(note.by ? { by: note.by } : {}),
    at: note.at,
  };
}

/** An email of a message: its subject and plain text. */
export function alertMail(message: AlertMessage): { subject: string; body: string } {
  const lines = [
    message.summary,
    '',
    `Service: ${message.service.name} (${message.team.name})`,
    `Severity: ${healthLabel(message.severity)}`,
    '',
    `Open the alert: ${message.link}`,
  ];
  if (message.acknowledgeLink) lines.push(`Acknowledge it: ${message.acknowledgeLink}`);
  return { subject: `[Beacon] ${message.title}`, body: `${lines.join('\n')}\n` };
}
