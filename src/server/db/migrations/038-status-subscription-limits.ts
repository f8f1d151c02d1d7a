import { sql, type Kysely } from 'kysely';

/**
 * Status page subscriptions that cannot be turned against people or against Beacon (issue 48; docs/api.md, status
 * pages):
 * - `status_news`: a notice event waiting to be told to subscribers. The notice's transaction writes one row here,
 *   whatever the number of subscribers; jobs/status-news.ts makes the mails and webhooks after it committed, in
 *   batches. It has the outboxes' columns (db/repositories/outbox.ts), so processes share it the same way. An
 *   event is queued once (`event_key`: the maintenance reminders name the same moment every minute), and kept
 *   two days after it was told.
 * - `status_confirmations`: the confirmation mails sent, per workspace and address (at most 3 a day).
 * - one pending subscription per page and address, and no two webhooks of a page for the same URL; repeats
 *   already stored are dropped first (the newest pending one stays, the oldest webhook).
 */
export function statusSubscriptionLimitsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('status_news')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        /** `{notice id}:{history time}`, or `{notice id}:soon|start|end` for a maintenance window's moments. */
        .addColumn('event_key', 'text', (c) => c.notNull().unique())
        /** The event as services/status-pages/status-subscriptions.ts NoticeNews has it, JSON. */
        .addColumn('news', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema.createIndex('status_news_due').on('status_news').columns(['status', 'next_attempt_at']).execute();
      await db.schema
        .createTable('status_confirmations')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('status_confirmations_address')
        .on('status_confirmations')
        .columns(['workspace_id', 'email', 'created_at'])
        .execute();
      await sql`delete from status_subscriptions where confirmed_at is null and email is not null and exists (
        select 1 from status_subscriptions o where o.page_id = status_subscriptions.page_id
          and o.email = status_subscriptions.email and o.confirmed_at is null
          and (o.created_at > status_subscriptions.created_at
            or (o.created_at = status_subscriptions.created_at and o.id > status_subscriptions.id)))`.execute(db);
      await sql`delete from status_subscriptions where webhook_url is not null and exists (
        select 1 from status_subscriptions o where o.page_id = status_subscriptions.page_id
          and o.webhook_url = status_subscriptions.webhook_url
          and (o.created_at < status_subscriptions.created_at
            or (o.created_at = status_subscriptions.created_at and o.id < status_subscriptions.id)))`.execute(db);
      await sql`create unique index status_subscriptions_pending on status_subscriptions (page_id, email)
        where confirmed_at is null`.execute(db);
      await db.schema
        .createIndex('status_subscriptions_webhook')
        .unique()
        .on('status_subscriptions')
        .columns(['page_id', 'webhook_url'])
        .execute();
    },
  };
}
