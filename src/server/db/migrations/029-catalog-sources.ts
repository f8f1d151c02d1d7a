import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.js';
import { addVersionTriggers, bumpInsertsAndDeletesPerStatement } from './version-triggers.js';

/**
 * The catalogue as code (docs/decisions.md#catalogue-as-code, issue 29): sources of descriptor files, which entity each
 * source manages and in what state, and plans waiting to be applied. A managed entity's mark shows on the catalogue's
 * reads, so writes to `catalog_entities` move the catalogue version (per statement: an import writes thousands of
 * rows).
 */
export function catalogSourcesMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('catalog_sources')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('interval_minutes', 'integer', (c) => c.notNull())
        // An upload source's files as last applied (JSON); a URL source's come from the URL at each sync.
        .addColumn('files', 'text')
        .addColumn('etag', 'text')
        // What the last sync read, so an unchanged source writes nothing (sha-256 of the files).
        .addColumn('digest', 'text')
        .addColumn('last_sync_at', 'text')
        .addColumn('last_sync_status', 'text')
        .addColumn('last_sync_counts', 'text')
        .addColumn('last_sync_error', 'text')
        // When the scheduler syncs it next (epoch ms); null for an upload source.
        .addColumn('next_sync_at', 'bigint')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('catalog_sources_name', ['workspace_id', 'name'])
        .execute();
      await db.schema.createIndex('catalog_sources_due').on('catalog_sources').columns(['next_sync_at']).execute();

      await db.schema
        .createTable('catalog_entities')
        .addColumn('source_id', 'text', (c) => c.notNull().references('catalog_sources.id').onDelete('cascade'))
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('handle', 'text', (c) => c.notNull())
        // The service or team; null while the handle is in conflict, or an entity that never came to be.
        .addColumn('entity_id', 'text')
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('line', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('state_since', 'text', (c) => c.notNull())
        .addColumn('synced_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('catalog_entities_pk', ['source_id', 'kind', 'handle'])
        .execute();
      await db.schema
        .createIndex('catalog_entities_by_entity')
        .on('catalog_entities')
        .columns(['workspace_id', 'entity_id'])
        .execute();
      await db.schema
        .createIndex('catalog_entities_by_state')
        .on('catalog_entities')
        .columns(['workspace_id', 'state', 'kind', 'handle'])
        .execute();

      await db.schema
        .createTable('catalog_plans')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('source_id', 'text', (c) => c.references('catalog_sources.id').onDelete('cascade'))
        .addColumn('files', 'text', (c) => c.notNull())
        .addColumn('digest', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('catalog_plans_expiry').on('catalog_plans').columns(['expires_at']).execute();

      await addVersionTriggers(
        db,
        engine,
        'catalogue',
        [{ table: 'catalog_entities', updates: ['entity_id', 'path', 'state', 'reason', 'state_since'] }],
        { perStatement: true },
      );
      if (engine === 'postgres') await bulkInsertsPerStatement(db);
    },
  };
}

/**
 * PostgreSQL: an import inserts services, teams and dependencies by the thousand, so what their inserts and
 * deletes keep (the versions of migrations 012, 020, 021 and 025, and service_counts of 018) is kept once per
 * statement, not once per row. Their updates stay per row.
 */
async function bulkInsertsPerStatement(db: Kysely<unknown>): Promise<void> {
  await bumpInsertsAndDeletesPerStatement(db, 'catalogue', ['services', 'teams', 'team_members']);
  await bumpInsertsAndDeletesPerStatement(db, 'feed', ['services', 'teams', 'team_members']);
  await bumpInsertsAndDeletesPerStatement(db, 'graph', ['services', 'service_dependencies', 'remote_dependencies']);
  await bumpInsertsAndDeletesPerStatement(db, 'status', ['services', 'service_dependencies', 'remote_dependencies']);
  for (const [event, transition, sign] of [
    ['insert', 'new', ''],
    ['delete', 'old', '-'],
  ] as const) {
    await sql`create function ${sql.id(`service_count_${event}_rows`)}() returns trigger language plpgsql as $$
      begin
        insert into service_counts (workspace_id, owner_team_id, owner_only, n)
          select workspace_id, owner_team_id, case when visibility = 'owner' then 1 else 0 end, ${sql.raw(sign)}count(*)
          from ${sql.raw(`${transition}_rows`)} group by 1, 2, 3
          on conflict (workspace_id, owner_team_id, owner_only) do update set n = service_counts.n + excluded.n;
        return null;
      end $$`.execute(db);
  }
  await sql`drop trigger services_count_write on services`.execute(db);
  await sql`create trigger services_count_insert after insert on services referencing new table as new_rows
    for each statement execute function service_count_insert_rows()`.execute(db);
  await sql`create trigger services_count_delete after delete on services referencing old table as old_rows
    for each statement execute function service_count_delete_rows()`.execute(db);
}
