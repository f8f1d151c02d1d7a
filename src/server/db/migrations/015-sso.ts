import type { Kysely } from 'kysely';

/**
 * SAML single sign-on (docs/decisions.md#integrations): the workspace's identity providers, the requests sent to them
 * (so a response answers a request this workspace made, once, on any process), and what a session needs for single
 * logout.
 */
export function ssoMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sso_providers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('handle', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('is_default', 'integer', (c) => c.notNull())
        .addColumn('sso_enabled', 'integer', (c) => c.notNull())
        .addColumn('slo_enabled', 'integer', (c) => c.notNull())
        .addColumn('idp_sso_url', 'text')
        .addColumn('idp_slo_url', 'text')
        .addColumn('idp_entity_id', 'text')
        .addColumn('idp_x509', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('sso_providers_handle', ['workspace_id', 'handle'])
        .execute();
      await db.schema
        .createTable('saml_requests')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.alterTable('sessions').addColumn('sso_provider_id', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('saml_name_id', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('saml_session_index', 'text').execute();
    },
  };
}
