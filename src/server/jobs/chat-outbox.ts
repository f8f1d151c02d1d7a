/**
 * The chat outbox job (DESIGN.md 11): every event of a service with a Slack channel was queued in the event's
 * transaction (db/repositories/slack.ts); this job posts it with `chat.postMessage`, retrying with backoff
 * (and after Slack's Retry-After when it rate-limits), at least once and never twice for one event and channel:
 * a process leases a few due messages at a time (FOR UPDATE SKIP LOCKED on PostgreSQL), posts them and marks
 * each sent right after. A process that dies mid-post leaves its lease to expire and the message is tried again.
 */
import { randomUUID } from 'node:crypto';
import { eventTitle } from '../../domain/events.js';
import { healthLabel } from '../../domain/catalogue.js';
import { workspaceOrigin } from '../config.js';
import type { ServerContext } from '../context.js';
import {
  chatMessageContext,
  claimChatMessages,
  markChatMessageFailed,
  markChatMessageSent,
  nextChatMessageDue,
  slackTokenOf,
} from '../db/repositories/slack.js';
import type { ChatOutboxRow } from '../db/schema.js';
import { slackClient, slackErrorText, slackRetryAfterMs } from '../integrations/slack.js';
import { retryDelay, startOutboxLoop, type OutboxLoop } from './outbox-loop.js';

export interface ChatOutboxOptions {
  pollMs?: number;
  leaseMs?: number;
  batchSize?: number;
  maxAttempts?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
}

const HOUR_MS = 3_600_000;

/** A message that cannot be sent now but may later (Slack linked, channel fixed): retried, then given up. */
class Unsendable extends Error {}

export function startChatOutbox(ctx: ServerContext, options: ChatOutboxOptions = {}): OutboxLoop {
  const leaseMs = options.leaseMs ?? 60_000;
  const batchSize = options.batchSize ?? 10;
  const maxAttempts = options.maxAttempts ?? 10;
  const retryBaseMs = options.retryBaseMs ?? 30_000;
  const retryMaxMs = options.retryMaxMs ?? HOUR_MS;
  const db = ctx.database.db;
  const owner = randomUUID();
  const log = ctx.logger.child({ job: 'chat-outbox' });

  const post = async (row: ChatOutboxRow) => {
    const slack = ctx.config.slack;
    if (!slack) throw new Unsendable('Slack is not configured');
    const about = await chatMessageContext(db, row);
    if (!about) return; // The event or the service is gone: nothing to say.
    const linked = await slackTokenOf(db, row.workspace_id);
    if (!linked) throw new Unsendable('No Slack workspace is linked');
    const title = eventTitle(about.type, JSON.parse(about.data) as Record<string, unknown>);
    const link = `${workspaceOrigin(ctx.config, about.workspace_domain)}/services/${about.service_handle}`;
    await slackClient(slack, ctx.secretBox.open(linked.token)).chat.postMessage({
      channel: row.channel_id,
      text: `${about.service_name}: ${title}`,
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: `*<${link}|${about.service_name}>*\n${title}` } },
        {
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: `By ${about.agent_name || 'Beacon'} · health ${healthLabel(about.service_health)}`,
            },
          ],
        },
      ],
      unfurl_links: false,
    });
  };

  const deliver = async (row: ChatOutboxRow) => {
    try {
      await post(row);
    } catch (error) {
      const text = slackErrorText(error);
      const rateLimited = slackRetryAfterMs(error);
      const giveUp = rateLimited === undefined && row.attempts >= maxAttempts;
      const retryAt = Date.now() + (rateLimited ?? retryDelay(row.attempts, retryBaseMs, retryMaxMs));
      log.warn(
        { messageId: row.id, channel: row.channel_id, attempt: row.attempts, error: text },
        giveUp ? 'chat message failed; giving up' : 'chat message failed; will retry',
      );
      await markChatMessageFailed(db, row.id, owner, {
        error: text.slice(0, 500),
        retryAt: giveUp ? null : new Date(retryAt).toISOString(),
      });
      return;
    }
    if (!(await markChatMessageSent(db, row.id, owner, new Date().toISOString()))) {
      log.error({ messageId: row.id }, 'chat message sent after its lease ran out; it may be sent again');
    }
  };

  const loop = startOutboxLoop({
    pollMs: options.pollMs ?? 5000,
    log,
    drain: async (isStopped) => {
      for (;;) {
        const now = Date.now();
        const rows = await claimChatMessages(db, {
          owner,
          now: new Date(now).toISOString(),
          until: new Date(now + leaseMs).toISOString(),
          limit: batchSize,
        });
        if (rows.length === 0) break;
        // One at a time: Slack allows about one message a second per channel.
        for (const row of rows) {
          try {
            await deliver(row);
          } catch (error) {
            log.error({ err: error }, 'could not record a chat message attempt');
          }
        }
        if (isStopped()) return undefined;
      }
      return nextChatMessageDue(db);
    },
  });
  const unsubscribe = ctx.live.onChatQueued(loop.wake);
  return {
    ...loop,
    async stop() {
      unsubscribe();
      await loop.stop();
    },
  };
}
