import type { Kysely } from 'kysely';

/**
 * The shared runner reads its checks at every reload (every 5 s): how many are schedulable, the ids it holds, and
 * those saved lately (repositories/health.ts). Without an index each read went through every row of
 * health_checks, 70-150 ms at 100,000 checks on the server's thread (issue 26). This index holds every column
 * those reads filter on and return, so they read it alone.
 */
export function schedulableChecksIndexMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('health_checks_schedulable')
        .on('health_checks')
        .columns(['disabled', 'paused', 'runner_id', 'lease_owner', 'updated_at', 'id'])
        .execute();
    },
  };
}
