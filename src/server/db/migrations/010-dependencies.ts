import type { Kysely } from 'kysely';

/**
 * Dependencies between services, linked workspaces and remote dependencies (docs/decisions.md#graph). A dependency's
 * dependents are read by `service_dependencies_dependency`, the walk's upstream step. A remote dependency keeps
 * the remote service by workspace domain and handle, with the name last seen: it stays listed (unavailable) when
 * its workspace is unlinked or the service is deleted or made non-public.
 */
export function dependenciesMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('service_dependencies')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('dependency_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('service_dependencies_pk', ['service_id', 'dependency_id'])
        .execute();
      await db.schema
        .createIndex('service_dependencies_dependency')
        .on('service_dependencies')
        .columns(['dependency_id', 'service_id'])
        .execute();

      await db.schema
        .createTable('workspace_remotes')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('remote_workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('workspace_remotes_pk', ['workspace_id', 'remote_workspace_id'])
        .execute();

      await db.schema
        .createTable('remote_dependencies')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('remote_domain', 'text', (c) => c.notNull())
        .addColumn('remote_handle', 'text', (c) => c.notNull())
        .addColumn('remote_name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('remote_dependencies_pk', ['service_id', 'remote_domain', 'remote_handle'])
        .execute();
    },
  };
}
