import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.js';
import { addTrigramSearch } from '../search-index.js';

/** Substring search over users: name, handle and email, trigram-indexed. */
export function userSearchMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await addTrigramSearch(db, engine, 'users', sql`name || ' ' || handle || ' ' || email`, [
        'name',
        'handle',
        'email',
      ]);
    },
  };
}
