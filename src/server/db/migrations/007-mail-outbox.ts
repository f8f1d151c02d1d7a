import type { Kysely } from 'kysely';

/**
 * The mail outbox (jobs/mail-outbox.ts): requests queue mail here in their transaction and a job sends it. Not a
 * tenant table: the job reads it across workspaces, like the shared runner's leases. Also an index to use up a
 * user's reset keys at once.
 */
export function mailOutboxMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('mail_outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('workspace_domain', 'text')
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
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
      await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['status', 'next_attempt_at']).execute();
      await db.schema
        .createIndex('password_resets_user')
        .on('password_resets')
        .columns(['workspace_id', 'user_id'])
        .execute();
    },
  };
}
