import type { Kysely } from 'kysely';

/**
 * Which of a managed service's settings its file's annotations decide (a JSON list of `health_check_url`, `slo`
 * and `slack_channel`): those are read-only in the API and the UI, as its fields are; without the annotation the
 * setting stays the UI's.
 */
export function catalogManagedSettingsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('catalog_entities').addColumn('settings', 'text').execute();
    },
  };
}
