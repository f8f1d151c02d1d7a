import { randomUUID } from 'node:crypto';
import { sql, type Insertable } from 'kysely';
import { isSqlite } from '../connect.js';
import type {
  StatusConfirmationsTable,
  StatusNewsTable,
  StatusSubscriptionRow,
  StatusSubscriptionsTable,
  WebhookOutboxTable,
} from '../schema.js';
import type { Db } from './workspaces.js';

/** Status page subscriptions (services/status-pages/status-subscriptions.ts): subscribers, their mails, the news. */

/**
 * Inside a guarded transaction: waits for any other subscribing to the workspace's pages, so the limits read
 * count what is written (PostgreSQL: an advisory lock; SQLite: `begin immediate` holds the only write lock).
 */
export async function lockSubscribing(trx: Db, workspaceId: string): Promise<void> {
  if (isSqlite(trx)) return;
  await sql`select pg_advisory_xact_lock(hashtext(${`status-subscriptions:${workspaceId}`}))`.execute(trx);
}

/** The webhook URLs subscribed to a page. */
export async function listPageWebhookUrls(db: Db, pageId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('status_subscriptions')
    .select('webhook_url')
    .where('page_id', '=', pageId)
    .where('webhook_url', 'is not', null)
    .execute();
  return rows.map((row) => row.webhook_url!);
}

export async function insertSubscription(db: Db, row: StatusSubscriptionsTable): Promise<void> {
  await db.insertInto('status_subscriptions').values(row).execute();
}

export async function updateSubscription(db: Db, id: string, change: Partial<StatusSubscriptionsTable>): Promise<void> {
  await db.updateTable('status_subscriptions').set(change).where('id', '=', id).execute();
}

/** When confirmation mails went to an address of the workspace since `since`, oldest first. */
export async function listConfirmationTimes(db: Db, workspaceId: string, email: string, since: string) {
  return db
    .selectFrom('status_confirmations')
    .select('created_at')
    .where('workspace_id', '=', workspaceId)
    .where('email', '=', email)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();
}

export async function insertConfirmation(db: Db, row: StatusConfirmationsTable): Promise<void> {
  await db.insertInto('status_confirmations').values(row).execute();
}

/** The address's subscription to a page that waits for its confirmation, if any. */
export function findPendingSubscription(db: Db, pageId: string, email: string) {
  return db
    .selectFrom('status_subscriptions')
    .select('id')
    .where('page_id', '=', pageId)
    .where('email', '=', email)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst();
}

/** A subscription of this page. */
export function findPageSubscription(db: Db, pageId: string, id: string) {
  return db
    .selectFrom('status_subscriptions')
    .select(['id', 'email', 'confirmed_at'])
    .where('id', '=', id)
    .where('page_id', '=', pageId)
    .executeTakeFirst();
}

/** Deletes the address's other subscriptions of a page (a confirmed one replaces them). */
export async function deleteOtherSubscriptions(db: Db, pageId: string, email: string, keptId: string): Promise<void> {
  await db
    .deleteFrom('status_subscriptions')
    .where('page_id', '=', pageId)
    .where('email', '=', email)
    .where('id', '!=', keptId)
    .execute();
}

/** Deletes a subscription of this page (and of this workspace, when given); true when it was there. */
export async function deletePageSubscription(
  db: Db,
  where: { pageId: string; id: string; workspaceId?: string },
): Promise<boolean> {
  const result = await db
    .deleteFrom('status_subscriptions')
    .$if(where.workspaceId !== undefined, (qb) => qb.where('workspace_id', '=', where.workspaceId!))
    .where('page_id', '=', where.pageId)
    .where('id', '=', where.id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Forgets subscriptions never confirmed, and the confirmation mails counted, from before `before`. */
export async function deleteUnconfirmedBefore(db: Db, before: string): Promise<void> {
  await db
    .deleteFrom('status_subscriptions')
    .where('confirmed_at', 'is', null)
    .where('created_at', '<', before)
    .execute();
  await db.deleteFrom('status_confirmations').where('created_at', '<', before).execute();
}

/** A page's subscriptions, oldest first. */
export function listPageSubscriptions(db: Db, workspaceId: string, pageId: string): Promise<StatusSubscriptionRow[]> {
  return db
    .selectFrom('status_subscriptions')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('page_id', '=', pageId)
    .orderBy('created_at')
    .execute();
}

/** The confirmed subscriptions of these pages after the id `after`, by id, `limit` at most. */
export function listConfirmedSubscriptions(
  db: Db,
  workspaceId: string,
  pageIds: readonly string[],
  after: string,
  limit: number,
): Promise<StatusSubscriptionRow[]> {
  return db
    .selectFrom('status_subscriptions')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('page_id', 'in', pageIds)
    .where('confirmed_at', 'is not', null)
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Queues a notice event's news, unless it is queued already (one row per event key). */
export async function insertStatusNews(db: Db, row: Omit<StatusNewsTable, 'id'>): Promise<void> {
  await db
    .insertInto('status_news')
    .values({ id: randomUUID(), ...row })
    .onConflict((oc) => oc.column('event_key').doNothing())
    .execute();
}

/** Claims the subscriptions not yet told of an event; answers those claimed now. */
export async function claimNotified(
  db: Db,
  eventKey: string,
  subscriptionIds: readonly string[],
  at: string,
): Promise<Set<string>> {
  const claimed = await db
    .insertInto('status_notified')
    .values(subscriptionIds.map((id) => ({ subscription_id: id, event_key: eventKey, created_at: at })))
    .onConflict((oc) => oc.doNothing())
    .returning('subscription_id')
    .execute();
  return new Set(claimed.map((row) => row.subscription_id));
}

export async function insertWebhooks(db: Db, rows: readonly Insertable<WebhookOutboxTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_outbox').values(rows).execute();
}
