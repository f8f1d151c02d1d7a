import type { Kysely } from 'kysely';

/**
 * Team API clients (client_credentials; the secret kept only as its SHA-256, with a version that revokes the
 * tokens of an older secret) and team runners (the standalone `beacon runner` agents). Health checks name
 * their runner by its handle in health_checks.runner_id (unique in the workspace and never changed, and a
 * runner with checks cannot be deleted).
 */
export function clientsRunnersMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('clients')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('handle', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        // JSON array of scope names.
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull().unique())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('secret_version', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('clients_workspace_handle', ['workspace_id', 'handle'])
        .execute();
      await db.schema.createIndex('clients_team').on('clients').columns(['workspace_id', 'team_id', 'name']).execute();

      await db.schema
        .createTable('runners')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('handle', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('sync_status', 'text', (c) => c.notNull())
        .addColumn('sync_error', 'text')
        .addColumn('last_sync', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('runners_workspace_handle', ['workspace_id', 'handle'])
        .execute();
      await db.schema.createIndex('runners_team').on('runners').columns(['workspace_id', 'team_id', 'name']).execute();
      // A runner's sync and the delete refusal look checks up by runner.
      await db.schema
        .createIndex('health_checks_runner')
        .on('health_checks')
        .columns(['workspace_id', 'runner_id'])
        .execute();
    },
  };
}
