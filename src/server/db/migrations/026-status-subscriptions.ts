import type { Kysely } from 'kysely';

/**
 * Status page subscriptions (docs/decisions.md#status-pages, issue 27): people by email (confirmed by a mailed link)
 * and tools by signed webhook, each for the whole page or some of its components (and what those depend on); the
 * webhook outbox that delivers with retries; and which notice events each subscription was told of, so each is told
 * once.
 */
export function statusSubscriptionsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('status_subscriptions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('page_id', 'text', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
        .addColumn('email', 'text')
        .addColumn('webhook_url', 'text')
        /** The webhook's signing secret, sealed (crypto/secret-box.ts). */
        .addColumn('secret_sealed', 'text')
        /** JSON array of service ids; null: the whole page. */
        .addColumn('components', 'text')
        .addColumn('include_upstream', 'integer', (c) => c.notNull())
        .addColumn('confirmed_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('status_subscriptions_page')
        .on('status_subscriptions')
        .columns(['workspace_id', 'page_id'])
        .execute();
      await db.schema
        .createTable('webhook_outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('subscription_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema
        .createIndex('webhook_outbox_due')
        .on('webhook_outbox')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createTable('status_notified')
        .addColumn('subscription_id', 'text', (c) =>
          c.notNull().references('status_subscriptions.id').onDelete('cascade'),
        )
        /** `{notice id}:{history seq}`, or `{notice id}:starts`/`:ends` for a maintenance window. */
        .addColumn('event_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('status_notified_pk', ['subscription_id', 'event_key'])
        .execute();
    },
  };
}
