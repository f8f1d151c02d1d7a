import type { Kysely } from 'kysely';

/**
 * Feeds and notifications (docs/decisions.md#feeds): who caused an event, by name (a user, an API client or a runner);
 * the indexes the feeds page by; and notifications, one row per recipient of an event, written with the event.
 */
export function feedsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('events')
        .addColumn('agent_name', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      // Feeds read each profile's newest events after a (created_at, id) cursor: the id settles ties in the index.
      await db.schema.dropIndex('events_profile_created').execute();
      await db.schema
        .createIndex('events_profile_feed')
        .on('events')
        .columns(['workspace_id', 'profile_id', 'created_at', 'id'])
        .execute();
      // A user's public feed: what they did, newest first.
      await db.schema
        .createIndex('events_actor_feed')
        .on('events')
        .columns(['workspace_id', 'actor_id', 'created_at', 'id'])
        .execute();
      // Retention deletes by age across workspaces.
      await db.schema.createIndex('events_created').on('events').column('created_at').execute();

      await db.schema
        .createTable('notifications')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('read', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('notifications_pk', ['user_id', 'event_id'])
        .execute();
      await db.schema
        .createIndex('notifications_user_created')
        .on('notifications')
        .columns(['user_id', 'created_at', 'event_id'])
        .execute();
      // The unread count, read with every list and stream update, from the index alone.
      await db.schema.createIndex('notifications_user_read').on('notifications').columns(['user_id', 'read']).execute();
      // The stream's fan-out reads the recipients of an event.
      await db.schema.createIndex('notifications_event').on('notifications').column('event_id').execute();
    },
  };
}
