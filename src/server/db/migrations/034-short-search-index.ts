import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.js';

/**
 * SQLite: a search for fewer than three characters (a trigram's length) has no index to find its matches, so it
 * counts them by reading every service of the workspace and computing its searched text (a virtual column) on the
 * way: 38-56 ms at 100,000 services, for terms such as "0" or "ui" whose matches change with most edits (issue 31).
 * This index holds each service's searched text beside what visibility reads, so that count reads the index alone:
 * 17-20 ms. It is partial on a condition no other query states, so the planner offers it to no other read (with
 * statistics it would also rather scan the table for this one: the count names it, services.ts).
 *
 * PostgreSQL stores the searched text and reads it in the scan as it is.
 */
export const SHORT_SEARCH_INDEX = 'services_short_search';

export function shortSearchIndexMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine !== 'sqlite') return;
      await sql`create index ${sql.id(SHORT_SEARCH_INDEX)} on services (workspace_id, search_text, visibility, owner_team_id)
        where search_text is not null`.execute(db);
    },
  };
}
