import type { Kysely } from 'kysely';

/**
 * Specs that check themselves (docs/decisions.md#spec-checks, issue 30): a check made from a published OpenAPI spec
 * names the spec page and the operation (its method and path, and the published version it was linked to, by its
 * published_at, with the spec's own `info.version` to show), and is flagged when a newer version no longer has the
 * operation. `api_drift` holds each operation whose answers break the spec now: since when, when last seen, and one
 * example.
 */
export function apiDriftMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('health_checks')
        .addColumn('spec_page_id', 'text', (c) => c.references('pages.id').onDelete('set null'))
        .execute();
      await db.schema.alterTable('health_checks').addColumn('spec_operation_id', 'text').execute();
      await db.schema.alterTable('health_checks').addColumn('spec_method', 'text').execute();
      await db.schema.alterTable('health_checks').addColumn('spec_path', 'text').execute();
      await db.schema.alterTable('health_checks').addColumn('spec_published_at', 'text').execute();
      await db.schema.alterTable('health_checks').addColumn('spec_version', 'text').execute();
      await db.schema
        .alterTable('health_checks')
        .addColumn('spec_missing', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('health_checks_spec_page').on('health_checks').column('spec_page_id').execute();
      await db.schema
        .createTable('api_drift')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
        .addColumn('operation_id', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('spec_version', 'text')
        .addColumn('check_id', 'text', (c) => c.references('health_checks.id').onDelete('set null'))
        .addColumn('since', 'text', (c) => c.notNull())
        .addColumn('last_seen', 'text', (c) => c.notNull())
        /** JSON: { status, pointer, message, value }. */
        .addColumn('example', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('api_drift_operation')
        .unique()
        .on('api_drift')
        .columns(['service_id', 'page_id', 'operation_id'])
        .execute();
      await db.schema.createIndex('api_drift_workspace').on('api_drift').column('workspace_id').execute();
    },
  };
}
