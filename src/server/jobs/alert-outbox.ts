/**
 * The alert outbox (docs/decisions.md#alerts): what alert channels are told, queued in the transaction of the step
 * that tells them (services/alerting/), is sent here through the one outbox step (claim under a lease, send, mark
 * sent or retry with backoff): vendors through the address guard (integrations/alert-channels/), email through the
 * mail outbox, Slack through its Web API. Each attempt is kept in the channel's delivery log (its last 100); the
 * alert's timeline says what was told and when a delivery was given up. A channel that fails 10 deliveries in a
 * row is marked failing and the people who look after it are told, in the app and by mail.
 */
import { randomUUID } from 'node:crypto';
import { Agent, type Dispatcher } from 'undici';
import { CHANNEL_FAILING_AFTER, DELIVERY_LOG_SIZE, type AlertMessage } from '../../domain/alerts.js';
import { createGuardedAgent } from '../../runner/guarded-agent.js';
import { workspaceOrigin } from '../config.js';
import type { ServerContext } from '../context.js';
import {
  channelKeepers,
  countDeliveryOutcome,
  findAlert,
  findChannel,
  insertTimeline,
  recipientsOf,
  recordAttempt,
  trimChannelDeliveries,
} from '../db/repositories/alerts.js';
import { announce, insertEvents, insertNotifications } from '../db/repositories/events.js';
import { enqueueMails } from '../db/repositories/mail-outbox.js';
import { claimDue, markFailed, markSent, nextDue } from '../db/repositories/outbox.js';
import { slackTokenOf } from '../db/repositories/slack.js';
import { findWorkspaceById } from '../db/repositories/workspaces.js';
import type { AlertChannelRow, AlertDeliveryRow } from '../db/schema.js';
import { DeliveryError, vendorSenders, type VendorKind } from '../integrations/alert-channels/index.js';
import { slackAlertMessage } from '../integrations/alert-channels/slack.js';
import { slackClient } from '../integrations/slack.js';
import { channelSettings } from '../services/alerts/channels.js';
import { timelineRow } from '../services/alerting/lifecycle.js';
import { alertMail, deliveryMessage, testMessage } from '../services/alerting/messages.js';
import { startOutboxLoop, type OutboxLoop } from './outbox-loop.js';
import { outboxStep, type HttpOutboxOptions } from './outbox-step.js';
import { readOnce } from './read-once.js';

export type AlertOutboxOptions = HttpOutboxOptions;

const HOUR_MS = 3_600_000;

/** A delivery that can never go as it is (no Slack linked): failed at once, not retried. */
class Unsendable extends Error {}

export function startAlertOutbox(ctx: ServerContext, options: AlertOutboxOptions = {}): OutboxLoop {
  const pollMs = options.pollMs ?? 5000;
  const maxAttempts = options.maxAttempts ?? 8;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const db = ctx.database.jobs;
  const owner = randomUUID();
  const log = ctx.logger.child({ job: 'alert-outbox' });
  const dispatcher: Dispatcher = ctx.config.allowPrivateTargets ? new Agent() : createGuardedAgent();

  /** Email: one mail per person or address, through the mail outbox (which retries on its own). */
  const mailTo = async (channel: AlertChannelRow, settings: Record<string, unknown>, message: AlertMessage) => {
    const people = await recipientsOf(db, channel.workspace_id, {
      userHandles: (settings.users as string[] | undefined) ?? [],
      teamHandles: (settings.teams as string[] | undefined) ?? [],
    });
    const addresses = new Set([...people.map((p) => p.email), ...((settings.addresses as string[] | undefined) ?? [])]);
    const mail = alertMail(message);
    await enqueueMails(
      db,
      [...addresses].map((recipient) => ({ kind: 'mail' as const, recipient, ...mail })),
    );
    ctx.wakeMail?.();
    return { status: 202 };
  };

  const slackTo = async (channel: AlertChannelRow, settings: Record<string, unknown>, message: AlertMessage) => {
    const slack = ctx.config.slack;
    if (!slack) throw new Unsendable('Slack is not configured');
    const linked = await slackTokenOf(db, channel.workspace_id);
    if (!linked) throw new Unsendable('No Slack workspace is linked');
    const client = slackClient(slack, ctx.secretBox.open(linked.token), { timeoutMs });
    await client.chat.postMessage({ channel: String(settings.channel), ...slackAlertMessage(message) });
    return { status: 200 };
  };

  const tellKeepers = async (channel: AlertChannelRow) => {
    const keepers = await channelKeepers(db, channel.workspace_id, channel.team_id);
    const workspace = await findWorkspaceById(db, channel.workspace_id);
    if (!workspace || keepers.length === 0) return;
    const at = new Date().toISOString();
    const text = `The alert channel ${channel.name} failed ${CHANNEL_FAILING_AFTER} deliveries in a row`;
    await db.transaction().execute(async (trx) => {
      // On each keeper's own profile: a workspace's channel belongs to no team to post it on.
      const events = keepers.map((keeper) => ({
        workspace_id: channel.workspace_id,
        profile_type: 'user' as const,
        profile_id: keeper.id,
        type: 'alert.channel_failing' as const,
        actor_id: null,
        agent_name: 'Beacon',
        data: { channel: channel.id, name: channel.name },
        created_at: at,
      }));
      const ids = await insertEvents(trx, events);
      for (const [index, id] of ids.entries()) {
        await insertNotifications(trx, id, events[index]!, [keepers[index]!.id]);
        await announce(trx, `e ${id}`);
      }
      await enqueueMails(
        trx,
        keepers.map((keeper) => ({
          kind: 'mail' as const,
          recipient: keeper.email,
          subject: `[Beacon] Alert channel ${channel.name} is failing`,
          body: `${text}; alerts may not reach the people they should.\n\nSee its delivery log: ${workspaceOrigin(ctx.config, workspace.domain)}/admin/alert-channels/${channel.id}\n`,
        })),
      );
    });
    ctx.wakeMail?.();
  };

  /** Counts the attempt on its channel and its log, and says on the alert's timeline what came of it. */
  const recordOutcome = async (row: AlertDeliveryRow, channel: AlertChannelRow, outcome: Outcome) => {
    const at = new Date().toISOString();
    // A delivery that went is marked sent with its answer's code, in one statement (markSent below).
    if (outcome.ok) sentCodes.set(row.id, { code: outcome.code, attempted_at: at });
    else await recordAttempt(db, row.id, { code: outcome.code, at });
    // A success on a channel that had no failures when this batch read it, and none in this batch since, has
    // nothing to reset: one round trip less a delivery. (Another process's failure in those moments is reset by the
    // next batch's success.)
    const clean = outcome.ok && channel.failures_in_row === 0 && !channel.failing && !batch.failed.has(channel.id);
    if (!outcome.ok) batch.failed.add(channel.id);
    const { becameFailing } = clean
      ? { becameFailing: false }
      : await countDeliveryOutcome(db, channel.id, outcome.ok, CHANNEL_FAILING_AFTER);
    if (row.alert_id && (outcome.ok || outcome.final)) {
      const kind = outcome.ok ? 'told' : 'delivery_failed';
      const message = outcome.ok
        ? `Told ${channel.name} (${row.action})`
        : `Gave up telling ${channel.name} (${row.action}): ${outcome.error}`;
      await insertTimeline(db, [
        timelineRow(row.alert_id, at, kind, message, {
          channelId: channel.id,
          status: outcome.ok ? 'sent' : 'failed',
        }),
      ]);
    }
    if (becameFailing) await tellKeepers(channel);
  };

  /**
   * What one claimed batch reads once (read-once.ts): its deliveries share a few channels, workspaces and alerts.
   */
  const batchReads = () => ({
    channel: readOnce((workspaceId: string, id: string) => findChannel(db, workspaceId, id)),
    workspace: readOnce((id: string) => findWorkspaceById(db, id)),
    alert: readOnce((workspaceId: string, id: string) => findAlert(db, workspaceId, id)),
    /** The channels a delivery of this batch failed on. */
    failed: new Set<string>(),
  });
  let batch = batchReads();
  /** The answer's code of each delivery sent and not yet marked. */
  const sentCodes = new Map<string, { code: number; attempted_at: string }>();

  const send = async (row: AlertDeliveryRow) => {
    const channel = await batch.channel(row.workspace_id, row.channel_id);
    const workspace = await batch.workspace(row.workspace_id);
    if (!channel || !workspace) return 'settled' as const; // Removed since: its deliveries went with it.
    let message: AlertMessage;
    if (row.alert_id) {
      const alert = await batch.alert(row.workspace_id, row.alert_id);
      if (!alert) return 'settled' as const;
      message = await deliveryMessage(ctx, row, alert, workspace);
    } else {
      message = testMessage(ctx, row, workspace);
    }
    const settings = channelSettings(ctx, channel);
    try {
      const delivered =
        channel.kind === 'email'
          ? await mailTo(channel, settings, message)
          : channel.kind === 'slack'
            ? await slackTo(channel, settings, message)
            : await sendToVendor(channel.kind, settings, message, row);
      await recordOutcome(row, channel, { ok: true, code: delivered.status, final: false });
    } catch (error) {
      const final = error instanceof Unsendable || (row.attempts >= maxAttempts && retryAfterOf(error) === undefined);
      await recordOutcome(row, channel, {
        ok: false,
        code: error instanceof DeliveryError ? (error.status ?? null) : null,
        final,
        error: messageOf(error),
      });
      if (error instanceof Unsendable) {
        await markFailed(db, 'alert_deliveries', row.id, owner, { error: error.message, retryAt: null });
        return 'settled' as const;
      }
      throw error;
    }
    return undefined;
  };

  const sendToVendor = <K extends VendorKind>(
    kind: K,
    settings: Record<string, unknown>,
    message: AlertMessage,
    row: AlertDeliveryRow,
  ) =>
    vendorSenders[kind](settings as never, message, {
      dispatcher,
      timeoutMs,
      urls: ctx.config.alertVendors,
      deliveryId: row.id,
      now: Date.now(),
    });

  const step = outboxStep<AlertDeliveryRow>({
    store: {
      claim: (claim) => {
        // The rows claimed now are sent before the next claim (outbox-step.ts): a batch's reads start afresh here.
        batch = batchReads();
        return claimDue(db, 'alert_deliveries', claim);
      },
      markSent: (id, by, now) => {
        const attempt = sentCodes.get(id);
        sentCodes.delete(id);
        return markSent(db, 'alert_deliveries', id, by, now, attempt);
      },
      markFailed: (id, by, failure) => markFailed(db, 'alert_deliveries', id, by, failure),
      nextDue: () => nextDue(db, 'alert_deliveries'),
    },
    owner,
    log,
    noun: 'alert delivery',
    about: (row) => ({ deliveryId: row.id, channelId: row.channel_id, alertId: row.alert_id, action: row.action }),
    leaseMs: options.leaseMs ?? 60_000,
    batchSize: options.batchSize ?? 50,
    maxAttempts,
    retryBaseMs: options.retryBaseMs ?? 15_000,
    retryMaxMs: options.retryMaxMs ?? HOUR_MS,
    retryAfterMs: retryAfterOf,
    describe: messageOf,
    send,
    // Each channel's log once a batch: it holds at most a batch more than the 100 its reads show.
    afterBatch: async (rows) => {
      for (const row of rows) sentCodes.delete(row.id); // One whose recording failed was never marked.
      await trimChannelDeliveries(db, [...new Set(rows.map((row) => row.channel_id))], DELIVERY_LOG_SIZE);
    },
  });

  const loop = startOutboxLoop({ pollMs, log, drain: step.drain });
  const unsubscribe = ctx.live.onAlertWork(loop.wake);
  ctx.wakeAlerts = loop.wake;
  return {
    ...loop,
    async stop() {
      unsubscribe();
      await loop.stop();
      await dispatcher.close();
    },
  };
}

type Outcome =
  { ok: true; code: number; final: false } | { ok: false; code: number | null; final: boolean; error: string };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const retryAfterOf = (error: unknown) => (error instanceof DeliveryError ? error.retryAfterMs : undefined);
