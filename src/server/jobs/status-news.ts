/**
 * The status news job (issue 48; docs/api.md, status pages): a notice event's transaction queues one row of news
 * (services/status-pages/status-subscriptions.ts queueNews), so a notice on a page with 1,000 subscribers is written as fast as
 * on one with none; this job tells it after the write committed, in batches (tellNews), then wakes the mail and
 * webhook outboxes. Processes share the news as they share an outbox (a lease per row); a fan-out cut short is
 * told again, and status_notified keeps each subscription from hearing it twice. Once an hour (by the context's
 * clock) it also forgets unconfirmed subscriptions and confirmation mails older than a day.
 */
import { randomUUID } from 'node:crypto';
import type { ServerContext } from '../context.js';
import { claimDue, markFailed, markSent, nextDue } from '../db/repositories/outbox.js';
import { deleteToldNews } from '../db/repositories/status-pages.js';
import type { StatusNewsRow } from '../db/schema.js';
import { sweepSubscriptions, tellNews, type NoticeNews } from '../services/status-pages/status-subscriptions.js';
import { retryDelay, startOutboxLoop, type OutboxLoop } from './outbox-loop.js';

export interface StatusNewsOptions {
  pollMs?: number;
  leaseMs?: number;
  maxAttempts?: number;
  retryBaseMs?: number;
}

const HOUR_MS = 3_600_000;
/** News told is kept this long, so a maintenance reminder naming the same moment again is not queued again. */
const TOLD_RETENTION_MS = 48 * HOUR_MS;

export function startStatusNews(ctx: ServerContext, options: StatusNewsOptions = {}): OutboxLoop {
  const pollMs = options.pollMs ?? 5000;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const maxAttempts = options.maxAttempts ?? 8;
  const retryBaseMs = options.retryBaseMs ?? 30_000;
  const { db } = ctx.database;
  const owner = randomUUID();
  const log = ctx.logger.child({ job: 'status-news' });
  let lastSweep = -Infinity;

  const tell = async (row: StatusNewsRow) => {
    try {
      const told = await tellNews(ctx, JSON.parse(row.news) as NoticeNews);
      log.debug({ newsId: row.id, told }, 'told status page subscribers');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = row.attempts >= maxAttempts;
      log.warn({ newsId: row.id, attempt: row.attempts, error: message }, 'could not tell status page subscribers');
      const retryAt = Date.now() + retryDelay(row.attempts, retryBaseMs, HOUR_MS);
      await markFailed(db, 'status_news', row.id, owner, {
        error: message.slice(0, 1000),
        retryAt: giveUp ? null : new Date(retryAt).toISOString(),
      });
      return;
    }
    await markSent(db, 'status_news', row.id, owner, new Date().toISOString());
  };

  const drain = async (isStopped: () => boolean) => {
    for (;;) {
      const now = Date.now();
      const rows = await claimDue(db, 'status_news', {
        owner,
        now: new Date(now).toISOString(),
        until: new Date(now + leaseMs).toISOString(),
        limit: 10,
      });
      if (rows.length === 0) break;
      // One at a time, in order: a notice's creation is queued before its first update.
      for (const row of rows) await tell(row);
      ctx.wakeMail?.();
      ctx.wakeWebhooks?.();
      if (isStopped()) return undefined;
    }
    if (ctx.now().getTime() - lastSweep >= HOUR_MS) {
      lastSweep = ctx.now().getTime();
      await sweepSubscriptions(ctx);
      await deleteToldNews(db, new Date(Date.now() - TOLD_RETENTION_MS).toISOString());
    }
    return nextDue(db, 'status_news');
  };

  const loop = startOutboxLoop({ pollMs, log, drain });
  ctx.wakeStatusNews = loop.wake;
  return {
    ...loop,
    async stop() {
      if (ctx.wakeStatusNews === loop.wake) ctx.wakeStatusNews = undefined;
      await loop.stop();
    },
  };
}
