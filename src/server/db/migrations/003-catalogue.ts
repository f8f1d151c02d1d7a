import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.js';
import { addTrigramSearch } from '../search-index.js';

/** Teams, their members and sub-teams; services; stars; muted profiles. */
export function catalogueMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('teams')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('handle', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('icon_asset_id', 'text', (c) => c.references('assets.id').onDelete('set null'))
        .addColumn('parent_id', 'text', (c) => c.references('teams.id').onDelete('restrict'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('teams_workspace_handle', ['workspace_id', 'handle'])
        .execute();
      // Lists are ordered by name then handle: the index serves the whole order, so a page stops early.
      await db.schema
        .createIndex('teams_workspace_name')
        .on('teams')
        .columns(['workspace_id', 'name', 'handle'])
        .execute();
      await db.schema.createIndex('teams_parent').on('teams').columns(['workspace_id', 'parent_id', 'name']).execute();
      await addTrigramSearch(db, engine, 'teams', sql`name || ' ' || handle || ' ' || coalesce(description, '')`, [
        'name',
        'handle',
        'description',
      ]);

      await db.schema
        .createTable('team_members')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('team_members_user')
        .on('team_members')
        .columns(['workspace_id', 'user_id'])
        .execute();

      await db.schema
        .createTable('services')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('handle', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('icon_asset_id', 'text', (c) => c.references('assets.id').onDelete('set null'))
        .addColumn('owner_team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('restrict'))
        .addColumn('visibility', 'text', (c) => c.notNull())
        .addColumn('stage', 'text', (c) => c.notNull())
        .addColumn('health', 'text', (c) => c.notNull())
        .addColumn('links', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('starred_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('services_workspace_handle', ['workspace_id', 'handle'])
        .execute();
      await db.schema
        .createIndex('services_workspace_name')
        .on('services')
        .columns(['workspace_id', 'name', 'handle'])
        .execute();
      await db.schema
        .createIndex('services_owner')
        .on('services')
        .columns(['workspace_id', 'owner_team_id', 'name'])
        .execute();
      await addTrigramSearch(db, engine, 'services', sql`name || ' ' || handle || ' ' || coalesce(description, '')`, [
        'name',
        'handle',
        'description',
      ]);

      await db.schema
        .createTable('stars')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('stars_pk', ['user_id', 'service_id'])
        .execute();
      await db.schema.createIndex('stars_service').on('stars').columns(['workspace_id', 'service_id']).execute();

      await db.schema
        .createTable('mutes')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('profile_type', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'text', (c) => c.notNull())
        .addColumn('activity', 'integer', (c) => c.notNull())
        .addColumn('notifications', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('mutes_pk', ['user_id', 'profile_type', 'profile_id'])
        .execute();
    },
  };
}
