/**
 * The mail outbox job inside `beacon serve`: requests only queue mail (db/repositories/mail-outbox.ts, in the
 * transaction of their change); this job sends it through the mailer, retrying with exponential backoff and
 * giving up after a bounded number of attempts.
 *
 * The claim, send, mark-or-retry step is outbox-step.ts, shared with the other outboxes.
 *
 * At least once, never twice: a process leases a few due mails at a time (FOR UPDATE SKIP LOCKED on
 * PostgreSQL, so several processes share the outbox), sends them at once and marks each sent right after its
 * send. The lease outlasts any send (the SMTP timeouts bound one), so no other process takes a mail while it
 * is being sent; a process that dies mid-send leaves its lease to expire and the mail is tried again.
 */
import { randomUUID } from 'node:crypto';
import type { ServerContext } from '../context.js';
import {
  claimMail,
  deleteLeasedMail,
  deleteOldMail,
  markMailFailed,
  markMailSent,
  nextMailDue,
} from '../db/repositories/mail-outbox.js';
import type { MailOutboxRow } from '../db/schema.js';
import { outboxDirOf, type Mail } from '../integrations/smtp.js';
import { resetMailFor } from '../services/accounts/passwords.js';
import { startOutboxLoop } from './outbox-loop.js';
import { outboxStep } from './outbox-step.js';

export interface MailOutboxOptions {
  /** How often the outbox is looked at without a wake-up (mail queued by other processes), ms. */
  pollMs?: number;
  /** How long a claimed mail stays leased to this process, ms; far longer than a send can take. */
  leaseMs?: number;
  /** Mails claimed and sent together. */
  batchSize?: number;
  /** Attempts before a mail is marked failed (default BEACON_MAIL_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** Wait before the first retry, ms, doubled after each failure (default BEACON_MAIL_RETRY_SECONDS). */
  retryBaseMs?: number;
  /** The longest wait between two attempts, ms. */
  retryMaxMs?: number;
}

export interface MailOutbox {
  /** Looks for due mail as soon as the current request has answered (called after a request queued some). */
  wake(): void;
  /** Resolves once no round is running or about to run (tests). */
  idle(): Promise<void>;
  /** Stops looking, waits for the sends in flight and marks them. */
  stop(): Promise<void>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Sent mail is kept this long (for `beacon mail status`), failed mail longer. */
const SENT_RETENTION_MS = 7 * DAY_MS;
const FAILED_RETENTION_MS = 30 * DAY_MS;

/** Starts the job and sets `ctx.wakeMail`, so services can wake it after queuing. */
export function startMailOutbox(ctx: ServerContext, options: MailOutboxOptions = {}): MailOutbox {
  const pollMs = options.pollMs ?? 5000;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const batchSize = options.batchSize ?? 10;
  const maxAttempts = Math.max(1, options.maxAttempts ?? ctx.config.mailMaxAttempts);
  const retryBaseMs = options.retryBaseMs ?? ctx.config.mailRetrySeconds * 1000;
  const retryMaxMs = options.retryMaxMs ?? HOUR_MS;
  const db = ctx.database.jobs;
  const owner = randomUUID();
  const log = ctx.logger.child({ job: 'mail-outbox' });
  if (!ctx.config.smtpUrl) {
    log.info(
      { dir: outboxDirOf(ctx.config.dataDir) },
      'BEACON_SMTP_URL is not set: mail is written to the outbox files',
    );
  }

  let lastCleanup = 0;

  const step = outboxStep<MailOutboxRow>({
    store: {
      claim: (claim) => claimMail(db, claim),
      markSent: (id, by, now) => markMailSent(db, id, by, now),
      markFailed: (id, by, failure) => markMailFailed(db, id, by, failure),
      nextDue: () => nextMailDue(db),
    },
    owner,
    log,
    noun: 'mail',
    about: (row) => ({ mailId: row.id, to: row.recipient }),
    leaseMs,
    batchSize,
    maxAttempts,
    retryBaseMs,
    retryMaxMs,
    async send(row) {
      const mail: Mail | undefined =
        row.kind === 'password-reset'
          ? await resetMailFor(ctx, row.workspace_domain ?? '', row.recipient)
          : { to: row.recipient, subject: row.subject, text: row.body };
      if (!mail) {
        await deleteLeasedMail(db, row.id, owner);
        return 'settled';
      }
      await ctx.mailer.send(mail);
    },
  });

  /** Sends due mail until none is left, then (hourly) forgets old mail. */
  const drain = async (isStopped: () => boolean) => {
    const nextDue = await step.drain(isStopped);
    if (isStopped()) return undefined;
    if (Date.now() - lastCleanup > HOUR_MS) {
      lastCleanup = Date.now();
      await deleteOldMail(
        db,
        new Date(lastCleanup - SENT_RETENTION_MS).toISOString(),
        new Date(lastCleanup - FAILED_RETENTION_MS).toISOString(),
      );
    }
    return nextDue;
  };

  const loop = startOutboxLoop({ pollMs, log, drain });
  const wake = loop.wake;
  ctx.wakeMail = wake;
  return {
    wake,
    idle: loop.idle,
    async stop() {
      if (ctx.wakeMail === wake) ctx.wakeMail = undefined;
      await loop.stop();
    },
  };
}
