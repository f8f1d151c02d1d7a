import type { Kysely } from 'kysely';
import type { Engine } from '../connect.js';
import { createVersionTriggers, type VersionedTable } from './version-triggers.js';

/**
 * Public status pages (docs/decisions.md#status-pages, issue 27): a workspace's pages, the services each shows in named
 * groups, and what notices gain for them (a maintenance window and a post-mortem).
 */
/**
 * What a status page shows (its settings and components, the services' names and health, their notices and
 * dependencies): a workspace's `status_versions` row is bumped by any write to these, so a rendered page is kept
 * until one of them changes, never by a timer.
 */
export const STATUS_TABLES: readonly VersionedTable[] = [
  { table: 'services', updates: ['handle', 'name', 'health', 'visibility', 'created_at'] },
  {
    table: 'notices',
    updates: ['service_id', 'title', 'status', 'open', 'updated_at', 'starts_at', 'ends_at', 'postmortem'],
  },
  { table: 'service_dependencies', updates: [] },
  { table: 'remote_dependencies', updates: [] },
  {
    table: 'status_pages',
    updates: [
      'handle',
      'title',
      'description',
      'logo_url',
      'access',
      'password_hash',
      'custom_domain',
      'show_upstream',
      'upstream_depth',
      'updated_at',
    ],
  },
  { table: 'status_page_components', updates: ['group_name', 'position'] },
];

export function statusPagesMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('status_pages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('handle', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('logo_url', 'text')
        .addColumn('access', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('custom_domain', 'text')
        .addColumn('show_upstream', 'integer', (c) => c.notNull())
        .addColumn('upstream_depth', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('status_pages_handle', ['workspace_id', 'handle'])
        .execute();
      // A custom domain names one page across every workspace: the Host header picks it.
      await db.schema
        .createIndex('status_pages_custom_domain')
        .on('status_pages')
        .column('custom_domain')
        .unique()
        .execute();
      await db.schema
        .createTable('status_page_components')
        .addColumn('page_id', 'text', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('group_name', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('status_page_components_pk', ['page_id', 'service_id'])
        .execute();
      await db.schema
        .createIndex('status_page_components_service')
        .on('status_page_components')
        .columns(['workspace_id', 'service_id'])
        .execute();
      await db.schema.alterTable('notices').addColumn('starts_at', 'text').execute();
      await db.schema.alterTable('notices').addColumn('ends_at', 'text').execute();
      await db.schema.alterTable('notices').addColumn('postmortem', 'text').execute();
      await createVersionTriggers(db, engine, 'status', STATUS_TABLES);
    },
  };
}
