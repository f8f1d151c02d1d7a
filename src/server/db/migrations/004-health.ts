import type { Kysely } from 'kysely';

/**
 * Service health over time (docs/decisions.md#health-maths): the log of health transitions, health checks and their
 * results. Instants the reports integrate over are epoch ms in bigint columns (node-pg reads them as strings: the
 * repository converts).
 */
export function healthMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('health_transitions')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('health', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .execute();
      // Not unique: two changes within one millisecond both stay in the log (applied in insertion order).
      // Covering the report's columns, so a report over thousands of transitions reads only the index.
      await db.schema
        .createIndex('health_transitions_service_at')
        .on('health_transitions')
        .columns(['workspace_id', 'service_id', 'at', 'health'])
        .execute();

      await db.schema
        .createTable('health_checks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('endpoint', 'text', (c) => c.notNull())
        // The runner's handle; null is the shared runner (no runners table yet).
        .addColumn('runner_id', 'text')
        .addColumn('frequency', 'integer', (c) => c.notNull())
        .addColumn('timeout', 'integer', (c) => c.notNull())
        .addColumn('allowed_failures', 'integer', (c) => c.notNull())
        .addColumn('importance', 'text', (c) => c.notNull())
        .addColumn('disabled', 'integer', (c) => c.notNull())
        .addColumn('paused', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('health_checks_service')
        .on('health_checks')
        .columns(['workspace_id', 'service_id'])
        .execute();

      await db.schema
        .createTable('health_check_results')
        .addColumn('check_id', 'text', (c) => c.notNull().references('health_checks.id').onDelete('cascade'))
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('start', 'bigint', (c) => c.notNull())
        .addColumn('time', 'integer', (c) => c.notNull())
        .addColumn('success', 'integer', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('error', 'text')
        .execute();
      await db.schema
        .createIndex('health_check_results_check_start')
        .on('health_check_results')
        .columns(['check_id', 'start'])
        .execute();
    },
  };
}
