import { randomUUID } from 'node:crypto';
import type { MailOutboxRow } from '../schema.js';
import { claimDue, markFailed, markSent, nextDue, pendingOutboxColumns } from './outbox.js';
import type { Db } from './workspaces.js';

/** A mail to queue: ready to send, or a password-reset request the job turns into one. */
export type QueuedMail =
  | { kind: 'mail'; recipient: string; subject: string; body: string }
  | { kind: 'password-reset'; recipient: string; workspaceDomain: string };

/**
 * Queues a mail; call it in the transaction of the change the mail is about. Times are real time (not the
 * context's clock, which tests move), the job's clock.
 */
export async function enqueueMail(db: Db, mail: QueuedMail): Promise<void> {
  await enqueueMails(db, [mail]);
}

/** Queues mails in one statement (a status page's fan-out queues a batch of them at once). */
export async function enqueueMails(db: Db, mails: readonly QueuedMail[]): Promise<void> {
  if (mails.length === 0) return;
  const now = new Date().toISOString();
  await db
    .insertInto('mail_outbox')
    .values(
      mails.map((mail) => ({
        id: randomUUID(),
        kind: mail.kind,
        workspace_domain: mail.kind === 'password-reset' ? mail.workspaceDomain : null,
        recipient: mail.recipient,
        subject: mail.kind === 'mail' ? mail.subject : '',
        body: mail.kind === 'mail' ? mail.body : '',
        ...pendingOutboxColumns(now),
      })),
    )
    .execute();
}

/** Leases due mails to `owner` (outbox.ts claimDue). */
export function claimMail(db: Db, options: { owner: string; now: string; until: string; limit: number }) {
  return claimDue(db, 'mail_outbox', options);
}

/** When the next mail nobody holds is due (epoch ms), or undefined when none is pending. */
export function nextMailDue(db: Db): Promise<number | undefined> {
  return nextDue(db, 'mail_outbox');
}

/** Marks a leased mail sent and forgets its body; false when `owner` no longer held the lease. */
export function markMailSent(db: Db, id: string, owner: string, now: string): Promise<boolean> {
  return markSent(db, 'mail_outbox', id, owner, now, { body: '' });
}

/** Records a failed attempt: retried at `retryAt`, or given up for good (and its links forgotten) when null. */
export function markMailFailed(
  db: Db,
  id: string,
  owner: string,
  failure: { error: string; retryAt: string | null },
): Promise<void> {
  return markFailed(db, 'mail_outbox', id, owner, failure, { body: '' });
}

/** Drops a leased row that needs no mail (a reset request for no account). */
export async function deleteLeasedMail(db: Db, id: string, owner: string): Promise<void> {
  await db.deleteFrom('mail_outbox').where('id', '=', id).where('lease_owner', '=', owner).execute();
}

/** Forgets mail sent before `sentBefore` and mail given up before `failedBefore` (by creation). */
export async function deleteOldMail(db: Db, sentBefore: string, failedBefore: string): Promise<void> {
  await db
    .deleteFrom('mail_outbox')
    .where((w) =>
      w.or([
        w.and([w('status', '=', 'sent'), w('sent_at', '<', sentBefore)]),
        w.and([w('status', '=', 'failed'), w('created_at', '<', failedBefore)]),
      ]),
    )
    .execute();
}

export interface MailStatus {
  pending: number;
  /** The earliest next attempt of a pending mail. */
  nextAttemptAt: string | null;
  sentSince: number;
  failedTotal: number;
  /** The newest `failedLimit` mails given up. */
  failed: Array<
    Pick<MailOutboxRow, 'id' | 'recipient' | 'subject' | 'kind' | 'attempts' | 'last_error' | 'created_at'>
  >;
}

/** What `beacon mail status` shows: pending mail, mail given up with its last error, mail sent since `since`. */
export async function mailStatus(db: Db, since: string, failedLimit = 50): Promise<MailStatus> {
  const [pending, sent, failedTotal, failed] = await Promise.all([
    db
      .selectFrom('mail_outbox')
      .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min('next_attempt_at').as('next')])
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'sent')
      .where('sent_at', '>=', since)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'failed')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('mail_outbox')
      .select(['id', 'recipient', 'subject', 'kind', 'attempts', 'last_error', 'created_at'])
      .where('status', '=', 'failed')
      .orderBy('created_at', 'desc')
      .limit(failedLimit)
      .execute(),
  ]);
  return {
    pending: Number(pending.n),
    nextAttemptAt: pending.next ?? null,
    sentSince: Number(sent.n),
    failedTotal: Number(failedTotal.n),
    failed,
  };
}
