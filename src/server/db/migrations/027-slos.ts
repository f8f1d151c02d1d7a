import type { Kysely } from 'kysely';

/**
 * SLOs per service (docs/decisions.md#slos-and-scorecards, issue 28): the target (in thousandths of a percent, so 99.9
 * is stored exactly on both engines), the rolling window, and which burn-rate alerts fired at the last reading, so each
 * is announced once per crossing.
 */
export function slosMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('service_slos')
        .addColumn('service_id', 'text', (c) => c.primaryKey().references('services.id').onDelete('cascade'))
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('target_thousandths', 'integer', (c) => c.notNull())
        .addColumn('window_days', 'integer', (c) => c.notNull())
        .addColumn('fast_firing', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('slow_firing', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('service_slos_workspace').on('service_slos').column('workspace_id').execute();
    },
  };
}
