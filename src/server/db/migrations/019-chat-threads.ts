import type { Kysely } from 'kysely';

/**
 * Slack threads per notice (docs/decisions.md#integrations): a notice is posted once, as a
 * root message whose `ts` is kept per channel; its later events update the root (colour, status) and are replied in its
 * thread. An outbox row of a notice names it and its place in the notice's history, so a notice's messages go out
 * in order whichever process sends them.
 */
export function chatThreadsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('chat_outbox').addColumn('notice_id', 'text').execute();
      await db.schema.alterTable('chat_outbox').addColumn('notice_seq', 'integer').execute();
      await db.schema
        .createIndex('chat_outbox_notice')
        .on('chat_outbox')
        .columns(['notice_id', 'provider', 'channel_id', 'notice_seq'])
        .execute();
      await db.schema
        .createTable('chat_threads')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('notice_id', 'text', (c) => c.notNull())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        // The root message's `ts` in the channel.
        .addColumn('ts', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_threads_key', ['notice_id', 'provider', 'channel_id'])
        .execute();
    },
  };
}
