import { isSqlite } from '../connect.js';
import type { AlertDeliveryRow, ChatOutboxRow, MailOutboxRow, StatusNewsRow, WebhookOutboxRow } from '../schema.js';
import type { Db } from './workspaces.js';

/**
 * What the outboxes (mail, chat, webhooks, status page news) share: rows `pending` until sent or given up, leased by one process at a time,
 * tried again at `next_attempt_at`. The tables have these columns alike; each keeps its own payload.
 */
export type OutboxTable = 'mail_outbox' | 'chat_outbox' | 'webhook_outbox' | 'status_news' | 'alert_deliveries';
type RowOf<T extends OutboxTable> = T extends 'mail_outbox'
  ? MailOutboxRow
  : T extends 'webhook_outbox'
    ? WebhookOutboxRow
    : T extends 'status_news'
      ? StatusNewsRow
      : T extends 'alert_deliveries'
        ? AlertDeliveryRow
        : ChatOutboxRow;

/** The bookkeeping columns of a row just queued: pending, due at once, never tried. */
export function pendingOutboxColumns(now: string) {
  return {
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: now,
    lease_owner: null,
    lease_until: null,
    last_error: null,
    created_at: now,
    sent_at: null,
  };
}

/**
 * Leases up to `limit` due rows to `owner` until `until` and counts the attempt, in one statement. On
 * PostgreSQL the rows are picked FOR UPDATE SKIP LOCKED, so processes claiming at once take different rows;
 * the lease is checked again on the locked row, so a row is never leased twice. SQLite runs one writer.
 */
export function claimDue<T extends OutboxTable>(
  db: Db,
  table: T,
  options: { owner: string; now: string; until: string; limit: number },
): Promise<RowOf<T>[]> {
  const { owner, now, until, limit } = options;
  // The tables share these columns; the builder is typed for one of them.
  const outbox = table as 'chat_outbox';
  return db
    .updateTable(outbox)
    .set((eb) => ({ lease_owner: owner, lease_until: until, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', (eb) => {
      const due = eb
        .selectFrom(outbox)
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', now)]))
        .orderBy('next_attempt_at')
        .limit(limit);
      return isSqlite(db) ? due : due.forUpdate().skipLocked();
    })
    .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', now)]))
    .returningAll()
    .execute() as Promise<RowOf<T>[]>;
}

/** When the next row nobody holds is due (epoch ms), or undefined when none is pending. */
export async function nextDue(db: Db, table: OutboxTable): Promise<number | undefined> {
  const row = await db
    .selectFrom(table as 'chat_outbox')
    .select((eb) => eb.fn.min('next_attempt_at').as('next'))
    .where('status', '=', 'pending')
    .where('lease_until', 'is', null)
    .executeTakeFirst();
  return row?.next ? Date.parse(row.next) : undefined;
}

/**
 * Marks a leased row sent, with `also`: payload columns to clear, or the table's own columns of the attempt (in the
 * same statement); false when `owner` no longer held it.
 */
export async function markSent(
  db: Db,
  table: OutboxTable,
  id: string,
  owner: string,
  now: string,
  also: Record<string, string | number | null> = {},
): Promise<boolean> {
  const result = await db
    .updateTable(table as 'chat_outbox')
    .set({ ...also, status: 'sent', sent_at: now, lease_owner: null, lease_until: null, last_error: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a failed attempt: retried at `retryAt`, or given up for good when null (`forget` cleared then). */
export async function markFailed(
  db: Db,
  table: OutboxTable,
  id: string,
  owner: string,
  failure: { error: string; retryAt: string | null },
  forget: Record<string, string> = {},
): Promise<void> {
  await db
    .updateTable(table as 'chat_outbox')
    .set({
      status: failure.retryAt ? 'pending' : 'failed',
      ...(failure.retryAt ? { next_attempt_at: failure.retryAt } : forget),
      last_error: failure.error,
      lease_owner: null,
      lease_until: null,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}
