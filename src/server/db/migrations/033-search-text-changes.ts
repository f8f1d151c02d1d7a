import type { Kysely } from 'kysely';
import type { Engine } from '../connect.js';
import { catalogueTriggers, TABLES } from './032-catalogue-changes.js';

/**
 * An edit of a column only searches read (a service's or team's description, a user's email) logs the row's
 * searched text before and after it, `text:{list}:{search_text}`, beside `{list}:search` (issue 31). A process
 * then drops just the kept searches whose term one of the two texts contains, where migration 032 dropped every
 * search of the list for each such edit (one a second in the mixed benchmark).
 *
 * It remakes every table's catalogue triggers, so that a database migrated by 032 before its PostgreSQL statement
 * triggers pruned the log by index ends the same as a fresh one.
 */
const SEARCH_ONLY: Readonly<Record<string, readonly string[]>> = {
  services: ['description'],
  teams: ['description'],
  users: ['email'],
};

export function searchTextChangesMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // Every table's triggers again: their statement triggers also prune the log by index now (032's notes).
      const tables = TABLES.map((spec) => {
        const columns = SEARCH_ONLY[spec.table];
        return columns ? { ...spec, texts: { list: spec.table, columns } } : spec;
      });
      await catalogueTriggers(db, engine, tables);
    },
  };
}
