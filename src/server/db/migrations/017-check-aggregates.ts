import type { Kysely } from 'kysely';

/**
 * Health-check aggregates (issue 18): per check, per minute and per hour, the probes, failures, the slowest
 * successful probe and a latency histogram (domain/check-aggregates.ts). Written with the raw results; raw
 * results are then kept only a short window.
 */
export function checkAggregatesMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('health_check_aggregates')
        .addColumn('check_id', 'text', (c) => c.notNull().references('health_checks.id').onDelete('cascade'))
        .addColumn('bucket', 'text', (c) => c.notNull())
        .addColumn('bucket_start', 'bigint', (c) => c.notNull())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('probes', 'integer', (c) => c.notNull())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('max', 'integer')
        .addColumn('histogram', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('health_check_aggregates_key', ['check_id', 'bucket', 'bucket_start'])
        .execute();
      // Retention deletes by age across all checks.
      await db.schema
        .createIndex('health_check_aggregates_age')
        .on('health_check_aggregates')
        .columns(['bucket', 'bucket_start'])
        .execute();
    },
  };
}
