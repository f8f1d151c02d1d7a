import { sql, type Kysely } from 'kysely';

/**
 * Team policies (docs/decisions.md#open-decisions): the visibility a new service of the team starts with, and whether
 * team members (not only team admins) may create its services. Existing teams keep today's defaults.
 */
export function teamPoliciesMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('teams')
        .addColumn('default_visibility', 'text', (c) => c.notNull().defaultTo('workspace'))
        .execute();
      await db.schema
        .alterTable('teams')
        .addColumn('members_create_services', 'integer', (c) => c.notNull().defaultTo(sql`0`))
        .execute();
    },
  };
}
