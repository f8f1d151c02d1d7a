import type { Kysely } from 'kysely';

/**
 * Slack (docs/decisions.md#integrations): linked Slack workspaces (their bot token sealed), people's Slack identities,
 * the channel of each service, and the chat outbox that posts every event of a service with a channel.
 */
export function slackMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('slack_workspaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('slack_team_id', 'text', (c) => c.notNull())
        .addColumn('slack_team_name', 'text', (c) => c.notNull())
        .addColumn('bot_user_id', 'text')
        .addColumn('installed_by', 'text', (c) => c.notNull())
        .addColumn('token', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('slack_workspaces_team', ['workspace_id', 'slack_team_id'])
        .execute();
      await db.schema
        .createTable('slack_users')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('slack_team_id', 'text', (c) => c.notNull())
        .addColumn('slack_user_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('service_channels')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('service_channels_provider', ['service_id', 'provider'])
        .execute();
      await db.schema
        .createTable('chat_outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('service_id', 'text', (c) => c.notNull())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        // One message per event and channel, however often the event is replayed.
        .addUniqueConstraint('chat_outbox_event_channel', ['event_id', 'provider', 'channel_id'])
        .execute();
      await db.schema.createIndex('chat_outbox_due').on('chat_outbox').columns(['status', 'next_attempt_at']).execute();
    },
  };
}
