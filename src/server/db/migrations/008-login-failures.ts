import type { Kysely } from 'kysely';

/**
 * Failed logins counted per account as well as per address (docs/decisions.md#api-conventions): the account is the
 * login (the email, lowercased) within its workspace, whether or not such a user exists. Addresses are counted across
 * workspaces, and old rows are pruned by time, so each count and the pruning has its own index; the old
 * (workspace, address) index has no query left.
 */
export function loginFailuresMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('login_failures').addColumn('account', 'text').execute();
      await db.schema.dropIndex('login_failures_lookup').execute();
      await db.schema
        .createIndex('login_failures_account')
        .on('login_failures')
        .columns(['workspace_id', 'account', 'at'])
        .execute();
      await db.schema.createIndex('login_failures_address').on('login_failures').columns(['address', 'at']).execute();
      await db.schema.createIndex('login_failures_at').on('login_failures').column('at').execute();
    },
  };
}
