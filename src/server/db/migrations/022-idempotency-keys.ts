import type { Kysely } from 'kysely';

/**
 * The first answer of each replayable write per caller and Idempotency-Key (docs/api.md#conventions, issue 25), kept in
 * the database so a replay finds it whichever process answers, and after a restart. A row without a status is a
 * request still running.
 */
export function idempotencyKeysMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        // `user:{id}` or `client:{id}`: keys are the caller's own.
        .addColumn('caller', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        // SHA-256 of the method, path, query and body: the same key with another request is refused.
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('body', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_key', ['workspace_id', 'caller', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
    },
  };
}
