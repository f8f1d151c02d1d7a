import type { Kysely } from 'kysely';

/**
 * A service's health is recomputed from its failing checks at every change of one (services/catalogue/service-health.ts):
 * an index on the failing flag keeps that a lookup, not a scan of every check of the service.
 */
export function failingChecksIndexMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('health_checks_failing')
        .on('health_checks')
        .columns(['workspace_id', 'service_id', 'failing'])
        .execute();
    },
  };
}
