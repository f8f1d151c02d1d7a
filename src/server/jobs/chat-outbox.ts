/**
 * The chat outbox job (docs/decisions.md#integrations): every event of a service with a Slack channel was queued in the
 * event's transaction (db/repositories/slack.ts); this job posts it, retrying with backoff (and after Slack's
 * Retry-After when it rate-limits), at least once and never twice for one event and channel: a process leases a
 * few due messages at a time (FOR UPDATE SKIP LOCKED on PostgreSQL), posts them and marks each sent right after.
 * A process that dies mid-post leaves its lease to expire and the message is tried again.
 *
 * A notice is one thread (docs/decisions.md#integrations): its first event posts the root message, whose `ts` is kept
 * per channel the moment Slack answers; each later event updates the root (`chat.update`: colour, status) and
 * replies in its thread (`thread_ts`). A notice's messages go in the order of its history: one waits, untried,
 * while an earlier one is still to be sent. A root deleted in Slack (`message_not_found`) gets a new one. Other
 * events are posted on their own (`chat.postMessage`).
 *
 * Never twice when Slack took a post but the job never heard its answer (a timeout, a lost connection, a crash
 * before the row was marked sent): every post carries Slack message metadata naming its row and part
 * (`beacon_outbox`: `message_id`, `part` standalone, root or reply), and a retry (any attempt after the row's
 * first: claiming counts it) first looks for that part in Slack: a standalone message or a root in the channel's
 * history since a little before the row was queued (`conversations.history`, a few pages), a reply in its thread
 * (`conversations.replies`); found, its `ts` is taken as if just posted. When Slack refuses the look
 * (`missing_scope`: a workspace linked before the app asked for the history scopes; `not_in_channel`: a public
 * channel the bot posts to without being a member), the job posts anyway, at least once: there the window stays.
 * A look that goes unanswered fails the attempt like a post would (the last attempt posts anyway).
 */
import { randomUUID } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { Health } from '../../domain/catalogue.js';
import { workspaceOrigin } from '../config.js';
import type { ServerContext } from '../context.js';
import {
  chatMessageContext,
  claimChatMessages,
  deferChatMessage,
  earlierNoticeMessage,
  findChatThread,
  markChatMessageFailed,
  markChatMessageSent,
  nextChatMessageDue,
  noticeHistoryEntry,
  saveChatThread,
  slackTokenOf,
} from '../db/repositories/slack.js';
import type { ChatOutboxRow } from '../db/schema.js';
import { isSlackRefusal, slackClient, slackErrorText, slackRetryAfterMs } from '../integrations/slack.js';
import {
  isNoticeEvent,
  noticeReplyMessage,
  noticeRootMessage,
  standaloneMessage,
  type ChatSubject,
  type SlackMessage,
} from '../integrations/slack-messages.js';
import { startOutboxLoop, type OutboxLoop } from './outbox-loop.js';
import { outboxStep } from './outbox-step.js';

export interface ChatOutboxOptions {
  pollMs?: number;
  leaseMs?: number;
  batchSize?: number;
  maxAttempts?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** How long a Slack call may go unanswered (10 s; the tests give less). */
  slackTimeoutMs?: number;
}

const HOUR_MS = 3_600_000;

/** Which of a row's messages a post is; with the row's id, in the post's metadata. */
type Part = 'standalone' | 'root' | 'reply';
/** The `event_type` of the metadata on Beacon's posts. */
const METADATA_TYPE = 'beacon_outbox';
/** How far before a row was queued a retry looks back in the channel's history (clocks differ). */
const LOOKBACK_MS = 5 * 60_000;
/** How many pages (200 messages each) a retry looks through. */
const LOOKUP_PAGES = 5;

interface ListedMessage {
  ts?: string;
  metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
}

/** Slack's ts (seconds.microseconds) of an epoch time in ms. */
const slackTs = (ms: number) => (Math.max(0, ms) / 1000).toFixed(6);

/** A message that cannot be sent now but may later (Slack linked, channel fixed): retried, then given up. */
class Unsendable extends Error {}

export function startChatOutbox(ctx: ServerContext, options: ChatOutboxOptions = {}): OutboxLoop {
  const leaseMs = options.leaseMs ?? 60_000;
  const batchSize = options.batchSize ?? 10;
  const maxAttempts = options.maxAttempts ?? 10;
  const retryBaseMs = options.retryBaseMs ?? 30_000;
  const retryMaxMs = options.retryMaxMs ?? HOUR_MS;
  const db = ctx.database.jobs;
  const owner = randomUUID();
  const log = ctx.logger.child({ job: 'chat-outbox' });

  /**
   * The `ts` of the row's `part` if an earlier attempt posted it (found by its metadata), else undefined. A
   * refused look (no history scope, bot not in the channel) is undefined too; one unanswered or rate-limited
   * fails the attempt, unless it is the last.
   */
  const findPosted = async (
    client: WebClient,
    row: ChatOutboxRow,
    part: Part,
    threadTs?: string,
  ): Promise<string | undefined> => {
    const ours = (message: ListedMessage) =>
      message.metadata?.event_type === METADATA_TYPE &&
      message.metadata.event_payload?.message_id === row.id &&
      message.metadata.event_payload?.part === part;
    try {
      let cursor: string | undefined;
      for (let page = 0; page < LOOKUP_PAGES; page++) {
        const paging = { include_all_metadata: true, limit: 200, ...(cursor ? { cursor } : {}) };
        const listed =
          part === 'reply'
            ? await client.conversations.replies({ channel: row.channel_id, ts: threadTs!, ...paging })
            : await client.conversations.history({
                channel: row.channel_id,
                oldest: slackTs(Date.parse(row.created_at) - LOOKBACK_MS),
                ...paging,
              });
        const found = ((listed.messages ?? []) as ListedMessage[]).find(ours);
        if (found?.ts) return found.ts;
        cursor = listed.response_metadata?.next_cursor;
        if (!listed.has_more || !cursor) return undefined;
      }
      log.warn(
        { messageId: row.id, channel: row.channel_id, part, pages: LOOKUP_PAGES },
        'chat message not found in the pages looked at; posting it',
      );
      return undefined;
    } catch (error) {
      if (slackRetryAfterMs(error) !== undefined) throw error;
      if (!isSlackRefusal(error) && row.attempts < maxAttempts) throw error;
      log.warn(
        { messageId: row.id, channel: row.channel_id, part, error: slackErrorText(error) },
        'could not look in Slack for an earlier post of a chat message; posting it (it may show twice)',
      );
      return undefined;
    }
  };

  /**
   * Posts the row's `part`, tagged with the row and part in Slack's message metadata, answering its `ts`. A
   * retry first looks for it in Slack: posted by an earlier attempt that never heard Slack's answer, it is not
   * posted again.
   */
  const postMessage = async (
    client: WebClient,
    row: ChatOutboxRow,
    part: Part,
    message: SlackMessage,
    threadTs?: string,
  ) => {
    if (row.attempts > 1) {
      const ts = await findPosted(client, row, part, threadTs);
      if (ts) {
        log.info(
          { messageId: row.id, channel: row.channel_id, part, ts },
          'chat message already in Slack from an earlier attempt; not posting it again',
        );
        return ts;
      }
    }
    const posted = await client.chat.postMessage({
      channel: row.channel_id,
      ...message,
      ...(threadTs ? { thread_ts: threadTs } : {}),
      unfurl_links: false,
      metadata: { event_type: METADATA_TYPE, event_payload: { message_id: row.id, part } },
    } as Parameters<WebClient['chat']['postMessage']>[0]);
    if (!posted.ts) throw new Error('Slack answered without a message ts');
    return posted.ts;
  };

  /** A notice's event: the root (posted once, then updated) and, for a later event, a reply in its thread. */
  const postToThread = async (client: WebClient, row: ChatOutboxRow, subject: ChatSubject) => {
    const root = noticeRootMessage(subject);
    const entry = await noticeHistoryEntry(db, row.notice_id!, row.notice_seq ?? 0);
    const reply = noticeReplyMessage(subject, entry?.message ?? null);
    const newRoot = async () => {
      const ts = await postMessage(client, row, 'root', root);
      // Kept at once: a retry of this message finds the root rather than posting a second one.
      await saveChatThread(db, row, ts);
      return ts;
    };
    const thread = await findChatThread(db, row);
    if (!thread) {
      const ts = await newRoot();
      // The notice's first message is its root. A later one without a root (the first was given up) posts the
      // root as the notice is now, then itself in its thread.
      if (subject.type !== 'notice.created') await postMessage(client, row, 'reply', reply, ts);
      return;
    }
    // A retry of the first message, its root already posted.
    if (subject.type === 'notice.created') return;
    let ts = thread.ts;
    try {
      await client.chat.update({
        channel: row.channel_id,
        ts,
        ...root,
      } as Parameters<WebClient['chat']['update']>[0]);
    } catch (error) {
      // Someone deleted the root in Slack: the notice starts a new one.
      if (slackErrorText(error) !== 'message_not_found') throw error;
      log.info({ messageId: row.id, channel: row.channel_id }, 'notice root message gone; posting a new one');
      ts = await newRoot();
    }
    await postMessage(client, row, 'reply', reply, ts);
  };

  const post = async (row: ChatOutboxRow) => {
    const slack = ctx.config.slack;
    if (!slack) throw new Unsendable('Slack is not configured');
    const about = await chatMessageContext(db, row);
    if (!about) return; // The event or the service is gone: nothing to say.
    const linked = await slackTokenOf(db, row.workspace_id);
    if (!linked) throw new Unsendable('No Slack workspace is linked');
    const subject: ChatSubject = {
      type: about.type,
      data: JSON.parse(about.data) as Record<string, unknown>,
      agentName: about.agent_name,
      serviceName: about.service_name,
      serviceHealth: about.service_health as Health,
      link: `${workspaceOrigin(ctx.config, about.workspace_domain)}/services/${about.service_handle}`,
    };
    const client = slackClient(slack, ctx.secretBox.open(linked.token), { timeoutMs: options.slackTimeoutMs });
    if (row.notice_id && isNoticeEvent(subject)) await postToThread(client, row, subject);
    else await postMessage(client, row, 'standalone', standaloneMessage(subject));
  };

  /** When an earlier message of the row's notice is still to go: the row waits for it, untried. */
  const waitForEarlier = async (row: ChatOutboxRow): Promise<boolean> => {
    if (!row.notice_id || row.notice_seq === null) return false;
    const earlier = await earlierNoticeMessage(db, row);
    if (!earlier) return false;
    // Held by a process now: soon; else when it is due.
    const soon = Date.now() + Math.min(retryBaseMs, 1000);
    const due =
      earlier.lease_until && Date.parse(earlier.lease_until) > Date.now() ? 0 : Date.parse(earlier.next_attempt_at);
    await deferChatMessage(db, row.id, owner, new Date(Math.max(soon, due)).toISOString());
    return true;
  };

  const step = outboxStep<ChatOutboxRow>({
    store: {
      claim: (claim) => claimChatMessages(db, claim),
      markSent: (id, by, now) => markChatMessageSent(db, id, by, now),
      markFailed: (id, by, failure) => markChatMessageFailed(db, id, by, failure),
      nextDue: () => nextChatMessageDue(db),
    },
    owner,
    log,
    noun: 'chat message',
    about: (row) => ({ messageId: row.id, channel: row.channel_id }),
    leaseMs,
    batchSize,
    maxAttempts,
    retryBaseMs,
    retryMaxMs,
    send: post,
    holdBack: waitForEarlier,
    describe: slackErrorText,
    errorMax: 500,
    // Slack's Retry-After: waited out, and never counted towards giving up.
    retryAfterMs: slackRetryAfterMs,
    // One at a time: Slack allows about one message a second per channel. A notice's in its order.
    order: (a, b) =>
      a.created_at.localeCompare(b.created_at) ||
      (a.notice_id ?? '').localeCompare(b.notice_id ?? '') ||
      (a.notice_seq ?? 0) - (b.notice_seq ?? 0),
  });

  const loop = startOutboxLoop({ pollMs: options.pollMs ?? 5000, log, drain: step.drain });
  const unsubscribe = ctx.live.onChatQueued(loop.wake);
  return {
    ...loop,
    async stop() {
      unsubscribe();
      await loop.stop();
    },
  };
}
