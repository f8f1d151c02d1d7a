import type { Kysely } from 'kysely';
import type { Engine } from '../connect.js';
import { catalogueTriggers, TABLES } from './032-catalogue-changes.js';

/**
 * An edit of a column only searches read (a service's or team's description, a user's email) logs the row's
 * searched text before and after it, `text:{list}:{search_text}`, beside `{list}:search` (issue 31). A process
 * then drops just the kept searches whose term one of the two texts contains, where migration 032 dropped every
 * search of the list for each such edit (one a second in the mixed benchmark).
 */
const SEARCH_ONLY: Readonly<Record<string, readonly string[]>> = {
  services: ['description'],
  teams: ['description'],
  users: ['email'],
};

export function searchTextChangesMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const tables = TABLES.filter(({ table }) => SEARCH_ONLY[table]).map((spec) => ({
        ...spec,
        texts: { list: spec.table, columns: SEARCH_ONLY[spec.table]! },
      }));
      await catalogueTriggers(db, engine, tables);
    },
  };
}
