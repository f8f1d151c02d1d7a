import type { Kysely } from 'kysely';

/**
 * Notices and their history, the event log, the daily-health cache, and what the shared runner needs to share its work: a check's
 * persisted failing state (so every process and the notice rules see it) and its lease.
 */
export function noticesMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('notices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        // 1 until resolved or completed: the list filter and the health rules read it.
        .addColumn('open', 'integer', (c) => c.notNull())
        .addColumn('health', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notices_service_created')
        .on('notices')
        .columns(['workspace_id', 'service_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('notice_history')
        .addColumn('notice_id', 'text', (c) => c.notNull().references('notices.id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('time', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('notice_history_pk', ['notice_id', 'seq'])
        .execute();

      await db.schema
        .createTable('events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('profile_type', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('events_profile_created')
        .on('events')
        .columns(['workspace_id', 'profile_id', 'created_at'])
        .execute();

      await db.schema
        .alterTable('health_checks')
        .addColumn('failing', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('health_checks').addColumn('lease_owner', 'text').execute();
      await db.schema.alterTable('health_checks').addColumn('lease_until', 'bigint').execute();
      await db.schema
        .createTable('shared_runners')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('seen_at', 'bigint', (c) => c.notNull())
        .execute();
      // Complete past days of the daily-health report, computed once from the transition log (services/health/health.ts).
      await db.schema
        .createTable('health_daily')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('critical', 'integer', (c) => c.notNull())
        .addColumn('error', 'integer', (c) => c.notNull())
        .addColumn('warning', 'integer', (c) => c.notNull())
        .addColumn('maintenance', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('health_daily_pk', ['service_id', 'date'])
        .execute();
      // Retention deletes by start across all checks.
      await db.schema.createIndex('health_check_results_start').on('health_check_results').column('start').execute();
    },
  };
}
