/**
 * The mail outbox job inside `beacon serve`: requests only queue mail (db/repositories/mail-outbox.ts, in the
 * transaction of their change); this job sends it through the mailer, retrying with exponential backoff and
 * giving up after a bounded number of attempts.
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
import { retryDelay, startOutboxLoop } from './outbox-loop.js';

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
  const db = ctx.database.db;
  const owner = randomUUID();
  const log = ctx.logger.child({ job: 'mail-outbox' });
  if (!ctx.config.smtpUrl) {
    log.info(
      { dir: outboxDirOf(ctx.config.dataDir) },
      'BEACON_SMTP_URL is not set: mail is written to the outbox files',
    );
  }

  let lastCleanup = 0;

  const deliver = async (row: MailOutboxRow) => {
    let mail: Mail | undefined;
    try {
      mail =
        row.kind === 'password-reset'
          ? await resetMailFor(ctx, row.workspace_domain ?? '', row.recipient)
          : { to: row.recipient, subject: row.subject, text: row.body };
      if (!mail) {
        await deleteLeasedMail(db, row.id, owner);
        return;
      }
      await ctx.mailer.send(mail);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = row.attempts >= maxAttempts;
      const retryAt = Date.now() + retryDelay(row.attempts, retryBaseMs, retryMaxMs);
      log.warn(
        { mailId: row.id, to: mail?.to ?? row.recipient, attempt: row.attempts, maxAttempts, error: message },
        giveUp ? 'mail failed; giving up' : 'mail failed; will retry',
      );
      await markMailFailed(db, row.id, owner, {
        error: message.slice(0, 1000),
        retryAt: giveUp ? null : new Date(retryAt).toISOString(),
      });
      return;
    }
    if (!(await markMailSent(db, row.id, owner, new Date().toISOString()))) {
      log.error({ mailId: row.id }, 'mail sent after its lease ran out; another process may send it again');
    }
  };

  /** Claims and sends due mail until none is left. */
  const drain = async (isStopped: () => boolean) => {
    for (;;) {
      const now = Date.now();
      const rows = await claimMail(db, {
        owner,
        now: new Date(now).toISOString(),
        until: new Date(now + leaseMs).toISOString(),
        limit: batchSize,
      });
      if (rows.length === 0) break;
      // allSettled: one mail's database error must not leave the others of the batch unmarked.
      for (const result of await Promise.allSettled(rows.map(deliver))) {
        if (result.status === 'rejected') log.error({ err: result.reason }, 'could not record a mail attempt');
      }
      if (isStopped()) return undefined;
    }
    const nextDue = await nextMailDue(db);
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
