/**
 * Answers that come back from where alerts were told (docs/decisions.md#alerts): PagerDuty's webhook (v3, signed
 * `X-PagerDuty-Signature: v1=hex(HMAC-SHA256(secret, body))`), Opsgenie's webhook integration (the channel's secret
 * as a bearer token) and Slack's buttons (signed `X-Slack-Signature: v0=...` with the app's signing secret, 5 minutes
 * at most old). Each names an alert by the key Beacon gave it (the alert's id); only a channel that was told of that
 * alert can vouch for the answer. An answer the alert already had (PagerDuty echoing Beacon's own acknowledgement)
 * changes nothing and is still received.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isoNow, type ServerContext } from '../../context.js';
import {
  channelsToldOf,
  findAlertAnywhere,
  listChannelsByIds,
  type AlertListRow,
} from '../../db/repositories/alerts.js';
import { findSlackLink, slackUserOf } from '../../db/repositories/slack.js';
import { findUserByIdOrHandle } from '../../db/repositories/users.js';
import type { AlertChannelRow } from '../../db/schema.js';
import { badRequest, notFound, unauthorized } from '../../errors.js';
import { SLACK_ACKNOWLEDGE, SLACK_RESOLVE, slackAlertMessage } from '../../integrations/alert-channels/slack.js';
import { slackClient } from '../../integrations/slack.js';
import { answerAlert, type AlertAnswerer } from '../alerting/lifecycle.js';
import { deliveryMessage } from '../alerting/messages.js';
import { findWorkspaceById } from '../../db/repositories/workspaces.js';
import { channelSettings } from './channels.js';

const SLACK_MAX_AGE_SECONDS = 300;

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const hmacHex = (secret: string, text: string | Buffer) => createHmac('sha256', secret).update(text).digest('hex');

/** The channels of `kind` told of the alert, with their settings opened. */
async function toldChannels(ctx: ServerContext, workspaceId: string, alertId: string, kind: AlertChannelRow['kind']) {
  const ids = await channelsToldOf(ctx.database.db, alertId);
  const rows = await listChannelsByIds(ctx.database.db, workspaceId, ids);
  return rows.filter((row) => row.kind === kind).map((row) => channelSettings(ctx, row));
}

/**
 * The alert an answer names, once the answer is vouched for in its workspace. Unknown to Beacon (a test, an incident
 * made elsewhere): undefined, received with nothing to do. The signature is judged only once the alert is known, so
 * the answer tells nothing about other workspaces.
 */
async function vouchedAlert(
  ctx: ServerContext,
  alertId: string,
  vouch: (workspaceId: string) => Promise<boolean>,
): Promise<AlertListRow | undefined> {
  const alert = await findAlertAnywhere(ctx.database.db, alertId);
  if (alert && !(await vouch(alert.workspace_id))) throw unauthorized('The signature does not match');
  return alert;
}

/** Applies the answer to the alert; false when it no longer applies (already acknowledged or resolved). */
async function answer(
  ctx: ServerContext,
  alert: AlertListRow,
  action: 'acknowledge' | 'resolve',
  answerer: AlertAnswerer,
): Promise<boolean> {
  const outcome = await ctx.database.db
    .transaction()
    .execute((trx) => answerAlert(trx, alert, action, answerer, isoNow(ctx)));
  if (outcome.applied) ctx.wakeAlerts?.();
  return outcome.applied;
}

async function apply(
  ctx: ServerContext,
  alertId: string,
  action: 'acknowledge' | 'resolve',
  answerer: AlertAnswerer,
  vouch: (workspaceId: string) => Promise<boolean>,
) {
  const alert = await vouchedAlert(ctx, alertId, vouch);
  return { received: true as const, applied: alert ? await answer(ctx, alert, action, answerer) : false };
}

function parseJson(raw: Buffer): Record<string, unknown> {
  try {
    const value = JSON.parse(raw.toString('utf8')) as unknown;
    if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw badRequest('The body must be a JSON object');
}

const PAGERDUTY_ACTIONS: Record<string, 'acknowledge' | 'resolve'> = {
  'incident.acknowledged': 'acknowledge',
  'incident.resolved': 'resolve',
};

export async function answerFromPagerDuty(ctx: ServerContext, raw: Buffer, signature: string | undefined) {
  const body = parseJson(raw);
  const event = (body.event ?? {}) as {
    event_type?: unknown;
    data?: Record<string, unknown>;
    agent?: { summary?: unknown };
  };
  const action = typeof event.event_type === 'string' ? PAGERDUTY_ACTIONS[event.event_type] : undefined;
  const key = event.data?.incident_key ?? event.data?.dedup_key;
  if (!action || typeof key !== 'string') return { received: true as const, applied: false };
  const signatures = (signature ?? '').split(',').map((part) => part.trim());
  const who = typeof event.agent?.summary === 'string' ? event.agent.summary : 'PagerDuty';
  return apply(ctx, key, action, { userId: null, name: who, via: 'PagerDuty' }, async (workspaceId) => {
    const channels = await toldChannels(ctx, workspaceId, key, 'pagerduty');
    return channels.some((settings) => {
      const secret = settings.webhook_secret;
      if (typeof secret !== 'string') return false;
      const expected = `v1=${hmacHex(secret, raw)}`;
      return signatures.some((given) => sameText(given, expected));
    });
  });
}

const OPSGENIE_ACTIONS: Record<string, 'acknowledge' | 'resolve'> = { Acknowledge: 'acknowledge', Close: 'resolve' };

export async function answerFromOpsgenie(ctx: ServerContext, raw: Buffer, authorization: string | undefined) {
  const body = parseJson(raw);
  const action = typeof body.action === 'string' ? OPSGENIE_ACTIONS[body.action] : undefined;
  const alert = (body.alert ?? {}) as { alias?: unknown; username?: unknown };
  if (!action || typeof alert.alias !== 'string') return { received: true as const, applied: false };
  const alias = alert.alias;
  const bearer = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : '';
  const who = typeof alert.username === 'string' && alert.username ? alert.username : 'Opsgenie';
  return apply(ctx, alias, action, { userId: null, name: who, via: 'Opsgenie' }, async (workspaceId) => {
    const channels = await toldChannels(ctx, workspaceId, alias, 'opsgenie');
    return channels.some(
      (settings) => typeof settings.webhook_secret === 'string' && sameText(bearer, settings.webhook_secret),
    );
  });
}

interface SlackPayload {
  type?: string;
  team?: { id?: string };
  user?: { id?: string; username?: string; name?: string };
  actions?: Array<{ action_id?: string; value?: string }>;
  container?: { message_ts?: string; channel_id?: string };
  channel?: { id?: string };
  message?: { ts?: string };
}

/** A press of an alert message's button. The Slack user acts as their connected Beacon user when they have one. */
export async function answerFromSlack(
  ctx: ServerContext,
  raw: string,
  headers: { signature: string | undefined; timestamp: string | undefined },
) {
  const slack = ctx.config.slack;
  if (!slack?.signingSecret) throw notFound('Slack interactivity is not set up');
  const timestamp = Number(headers.timestamp);
  if (!Number.isFinite(timestamp) || Math.abs(ctx.now().getTime() / 1000 - timestamp) > SLACK_MAX_AGE_SECONDS) {
    throw unauthorized('The request is too old');
  }
  const expected = `v0=${hmacHex(slack.signingSecret, `v0:${headers.timestamp}:${raw}`)}`;
  if (!headers.signature || !sameText(headers.signature, expected)) throw unauthorized('The signature does not match');
  let payload: SlackPayload;
  try {
    payload = JSON.parse(new URLSearchParams(raw).get('payload') ?? '') as SlackPayload;
  } catch {
    throw badRequest('The payload must be JSON');
  }
  const pressed = payload.actions?.[0];
  const action =
    pressed?.action_id === SLACK_ACKNOWLEDGE
      ? 'acknowledge'
      : pressed?.action_id === SLACK_RESOLVE
        ? 'resolve'
        : undefined;
  if (payload.type !== 'block_actions' || !action || !pressed?.value) return {};
  const slackTeam = payload.team?.id ?? '';
  const alert = await findAlertAnywhere(ctx.database.db, pressed.value);
  if (!alert) return {};
  // The press counts only from the Slack workspace linked to the alert's workspace.
  const link = await findSlackLink(ctx.database.db, alert.workspace_id, slackTeam);
  if (!link) throw unauthorized('The signature does not match');
  const answerer = await slackAnswerer(ctx, alert.workspace_id, slackTeam, payload.user);
  await answer(ctx, alert, action, answerer);
  const channel = payload.container?.channel_id ?? payload.channel?.id;
  const ts = payload.container?.message_ts ?? payload.message?.ts;
  if (channel && ts)
    await showAnswerInSlack(ctx, { linkToken: link.token, channel, ts, alertId: alert.id, action, by: answerer.name });
  return {};
}

/** The Slack user acts as their connected Beacon user when they have one, else under their Slack name. */
async function slackAnswerer(
  ctx: ServerContext,
  workspaceId: string,
  slackTeam: string,
  user: SlackPayload['user'],
): Promise<AlertAnswerer> {
  const connected = await slackUserOf(ctx.database.db, workspaceId, slackTeam, user?.id ?? '');
  const beaconUser = connected
    ? await findUserByIdOrHandle(ctx.database.db, workspaceId, connected.user_id)
    : undefined;
  return beaconUser
    ? { userId: beaconUser.id, name: beaconUser.name, via: 'Slack' }
    : { userId: null, name: user?.username ?? user?.name ?? 'Slack', via: 'Slack' };
}

/** The pressed message, updated to show the alert as it now is, without the buttons that no longer apply. */
async function showAnswerInSlack(
  ctx: ServerContext,
  press: {
    linkToken: string;
    channel: string;
    ts: string;
    alertId: string;
    action: 'acknowledge' | 'resolve';
    by: string;
  },
) {
  const db = ctx.database.db;
  const alert = await findAlertAnywhere(db, press.alertId);
  const workspace = alert ? await findWorkspaceById(db, alert.workspace_id) : undefined;
  if (!alert || !workspace || !ctx.config.slack) return;
  const note = { severity: alert.severity, state: alert.state, at: isoNow(ctx), by: press.by };
  const message = await deliveryMessage(
    ctx,
    { id: '', action: press.action, message: JSON.stringify(note) } as never,
    alert,
    workspace,
  );
  const client = slackClient(ctx.config.slack, ctx.secretBox.open(press.linkToken), { timeoutMs: 2500 });
  await client.chat
    .update({ channel: press.channel, ts: press.ts, ...slackAlertMessage(message) })
    .catch((error: unknown) => ctx.logger.warn({ err: error }, 'could not update the Slack alert message'));
}
