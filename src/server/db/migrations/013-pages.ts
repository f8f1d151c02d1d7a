import type { Kysely } from 'kysely';

/**
 * Pages and drafts (docs/decisions.md#pages): one row a page, its draft and (once published) the copy readers see, with
 * every save kept as a revision.
 */
export function pagesMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('pages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('section', 'text', (c) => c.notNull())
        .addColumn('handle', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('lock', 'integer', (c) => c.notNull())
        .addColumn('revisions', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'text', (c) => c.notNull())
        // What readers see: set by publish, kept by unpublish (published_at null takes it out of the lists).
        .addColumn('published_title', 'text')
        .addColumn('published_content', 'text')
        .addColumn('published_at', 'text')
        .addColumn('published_updated_at', 'text')
        .addColumn('published_by', 'text')
        .addUniqueConstraint('pages_service_section_handle', ['service_id', 'section', 'handle'])
        .execute();
      await db.schema
        .createIndex('pages_published')
        .on('pages')
        .columns(['workspace_id', 'service_id', 'section', 'published_at'])
        .execute();
      await db.schema
        .createTable('page_revisions')
        .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('saved_at', 'text', (c) => c.notNull())
        .addColumn('saved_by', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('page_revisions_pk', ['page_id', 'seq'])
        .execute();
    },
  };
}
