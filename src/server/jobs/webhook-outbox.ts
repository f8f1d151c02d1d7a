/**
 * The webhook outbox job (docs/decisions.md#status-pages): status page notices queued for webhook subscribers once the
 * notice was written (jobs/status-news.ts, services/status-pages/status-subscriptions.ts) are POSTed here, signed
 * `X-Beacon-Signature: t=...,v1=...`, retried with backoff until the receiver answers 2xx or the attempts run out.
 * Deliveries go through the same guard as health checks (runner/guarded-agent.ts): a receiver that resolves into the
 * operator's network is refused at every connect, unless private targets are allowed. At least once: a receiver should
 * use the `X-Beacon-Delivery` id to drop a repeat.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request, type Dispatcher } from 'undici';
import { createGuardedAgent } from '../../runner/guarded-agent.js';
import type { ServerContext } from '../context.js';
import { claimDue, markFailed, markSent, nextDue } from '../db/repositories/outbox.js';
import { subscriptionSecretOf } from '../db/repositories/status-pages.js';
import type { WebhookOutboxRow } from '../db/schema.js';
import { webhookSignature } from '../crypto/webhook-signature.js';
import { startOutboxLoop, type OutboxLoop } from './outbox-loop.js';
import { outboxStep, type HttpOutboxOptions } from './outbox-step.js';

export type WebhookOutboxOptions = HttpOutboxOptions;

const HOUR_MS = 3_600_000;

export function startWebhookOutbox(ctx: ServerContext, options: WebhookOutboxOptions = {}): OutboxLoop {
  const pollMs = options.pollMs ?? 5000;
  const leaseMs = options.leaseMs ?? 60_000;
  const batchSize = options.batchSize ?? 10;
  const maxAttempts = options.maxAttempts ?? 8;
  const retryBaseMs = options.retryBaseMs ?? 30_000;
  const retryMaxMs = options.retryMaxMs ?? HOUR_MS;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const db = ctx.database.jobs;
  const owner = randomUUID();
  const log = ctx.logger.child({ job: 'webhook-outbox' });
  const dispatcher: Dispatcher = ctx.config.allowPrivateTargets ? new Agent() : createGuardedAgent();

  const post = async (row: WebhookOutboxRow): Promise<void> => {
    const sealed = await subscriptionSecretOf(db, row.subscription_id);
    // Unsubscribed (or removed by an admin) since it was queued: nothing to tell.
    if (!sealed) return;
    const secret = ctx.secretBox.open(sealed);
    const response = await request(row.url, {
      method: 'POST',
      dispatcher,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Beacon-Webhooks/1',
        'x-beacon-delivery': row.id,
        'x-beacon-signature': webhookSignature(secret, row.body, Date.now()),
      },
      body: row.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    await response.body.dump();
    if (response.statusCode < 200 || response.statusCode >= 300) throw new Error(`answered ${response.statusCode}`);
  };

  const step = outboxStep<WebhookOutboxRow>({
    store: {
      claim: (claim) => claimDue(db, 'webhook_outbox', claim),
      markSent: (id, by, now) => markSent(db, 'webhook_outbox', id, by, now),
      markFailed: (id, by, failure) => markFailed(db, 'webhook_outbox', id, by, failure),
      nextDue: () => nextDue(db, 'webhook_outbox'),
    },
    owner,
    log,
    noun: 'webhook',
    about: (row) => ({ deliveryId: row.id }),
    leaseMs,
    batchSize,
    maxAttempts,
    retryBaseMs,
    retryMaxMs,
    send: post,
  });

  const loop = startOutboxLoop({ pollMs, log, drain: step.drain });
  ctx.wakeWebhooks = loop.wake;
  return {
    ...loop,
    async stop() {
      await loop.stop();
      await dispatcher.close();
    },
  };
}
