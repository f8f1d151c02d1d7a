import type { Kysely } from 'kysely';
import type { Engine } from '../connect.js';

/** Workspaces, users, sessions, registration, invites, password resets, assets. */
export function accountsMigration(engine: Engine) {
  const blob = engine === 'postgres' ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('workspaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('domain', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('login', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('assets')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('data', blob, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('handle', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('bio', 'text')
        .addColumn('profile', 'text')
        .addColumn('description', 'text')
        .addColumn('icon_asset_id', 'text', (c) => c.references('assets.id').onDelete('set null'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('super_admin', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_login', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('users_workspace_handle', ['workspace_id', 'handle'])
        .addUniqueConstraint('users_workspace_email', ['workspace_id', 'email'])
        .execute();
      await db.schema.createIndex('users_workspace_name').on('users').columns(['workspace_id', 'name']).execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').columns(['workspace_id', 'user_id']).execute();

      await db.schema
        .createTable('beta_keys')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('set null'))
        .execute();

      await db.schema
        .createTable('invites')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('last_sent', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('accepted_at', 'text')
        .execute();
      await db.schema.createIndex('invites_workspace_email').on('invites').columns(['workspace_id', 'email']).execute();

      await db.schema
        .createTable('password_resets')
        .addColumn('key_hash', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();

      await db.schema
        .createTable('login_failures')
        .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
          engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_failures_lookup')
        .on('login_failures')
        .columns(['workspace_id', 'address', 'at'])
        .execute();
    },
  };
}
