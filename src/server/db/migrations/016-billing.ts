import type { Kysely } from 'kysely';

/**
 * Stripe billing (docs/decisions.md#integrations): each workspace's Stripe customer and the subscription as Stripe last
 * told us (kept so seat limits and the overview need no call to Stripe), and the webhook events applied, so a
 * redelivered event is applied once.
 */
export function billingMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('billing_accounts')
        .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
        .addColumn('customer_id', 'text', (c) => c.notNull().unique())
        .addColumn('subscription_id', 'text')
        .addColumn('subscription_item_id', 'text')
        .addColumn('subscription_status', 'text')
        .addColumn('plan', 'text')
        .addColumn('seats', 'integer')
        .addColumn('product_name', 'text')
        .addColumn('period_end', 'integer')
        .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('stripe_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('cascade'))
        .addColumn('received_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
