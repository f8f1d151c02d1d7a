import { isSqlite } from '../connect.js';
import type { BillingAccountRow, BillingAccountsTable } from '../schema.js';
import type { Db } from './workspaces.js';

export function findBillingAccount(db: Db, workspaceId: string): Promise<BillingAccountRow | undefined> {
  return db.selectFrom('billing_accounts').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
}

export function findBillingAccountByCustomer(db: Db, customerId: string): Promise<BillingAccountRow | undefined> {
  return db.selectFrom('billing_accounts').selectAll().where('customer_id', '=', customerId).executeTakeFirst();
}

/** The workspace's Stripe customer; a second writer racing for the same workspace keeps the first one's. */
export async function insertBillingAccount(db: Db, row: BillingAccountRow): Promise<void> {
  await db
    .insertInto('billing_accounts')
    .values(row)
    .onConflict((oc) => oc.column('workspace_id').doNothing())
    .execute();
}

export type SubscriptionColumns = Pick<
  BillingAccountsTable,
  | 'subscription_id'
  | 'subscription_item_id'
  | 'subscription_status'
  | 'plan'
  | 'seats'
  | 'product_name'
  | 'period_end'
  | 'cancel_at_period_end'
>;

export async function updateSubscription(
  db: Db,
  workspaceId: string,
  subscription: SubscriptionColumns,
  now: string,
): Promise<void> {
  await db
    .updateTable('billing_accounts')
    .set({ ...subscription, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .execute();
}

/** Seats in use: the members (guests included) and the invites not yet accepted. */
export async function countSeatsUsed(db: Db, workspaceId: string): Promise<number> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('users')
        .select(eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .as('members'),
      eb
        .selectFrom('invites')
        .select(eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('accepted_at', 'is', null)
        .as('invites'),
    ])
    .executeTakeFirstOrThrow();
  return Number(row.members) + Number(row.invites);
}

/**
 * Serialises seat-taking writes of one workspace inside a transaction: PostgreSQL locks the workspace's row;
 * SQLite has one writer at a time already.
 */
export async function lockWorkspaceSeats(db: Db, workspaceId: string): Promise<void> {
  if (isSqlite(db)) return;
  await db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().execute();
}

/** Records a webhook event; false when it was recorded before (a redelivery). */
export async function recordStripeEvent(
  db: Db,
  event: { id: string; type: string; workspace_id: string | null; received_at: string },
): Promise<boolean> {
  const result = await db
    .insertInto('stripe_events')
    .values(event)
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
