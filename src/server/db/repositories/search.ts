import { sql, type SelectQueryBuilder } from 'kysely';
import { isSqlite } from '../connect.js';
import type { Database } from '../schema.js';
import type { Db } from './workspaces.js';

/** The tables with a trigram-indexed `search_text` column (db/search-index.ts). */
export type SearchableTable = 'users' | 'teams' | 'services';

/** The shortest text the trigram indexes find (shorter ones are read from every row). */
export const TRIGRAM = 3;

/**
 * What a search looks for: its `q` trimmed and lowercased, as the searched texts are kept ('' for none). The
 * database's query and the kept answers' scopes (cache/catalogue-cache.ts) read the same term.
 */
export function searchTerm(q: string | null | undefined): string {
  return q?.trim().toLowerCase() ?? '';
}

/**
 * Keeps the rows of `table` whose search text contains `q` (every row when there is no `q`). On SQLite, for
 * three characters or more, the trigram FTS table finds them with a phrase query, straight from its index;
 * otherwise (or with `scan`) the LIKE runs on the row's own column, which pg_trgm serves on PostgreSQL. `scan`
 * suits a page of a common text on SQLite: walking the rows in the page's order stops after the page, where the
 * index would first list every match.
 */
export function whereSearchTextContains<TB extends keyof Database, O>(
  db: Db,
  query: SelectQueryBuilder<Database, TB, O>,
  table: SearchableTable,
  q: string | undefined,
  options: { scan?: boolean } = {},
): SelectQueryBuilder<Database, TB, O> {
  const text = searchTerm(q);
  if (!text) return query;
  if (isSqlite(db) && text.length >= TRIGRAM && !options.scan) {
    // A trigram phrase query: the rows holding the text, straight from the index (LIKE would read each
    // candidate's text back from the table to check it).
    const fts = sql.table(`${table}_fts`);
    const phrase = `"${text.replace(/"/g, '""')}"`;
    return query.where(
      sql<boolean>`${sql.table(table)}.rowid in (select rowid from ${fts} where ${fts} match ${phrase})`,
    );
  }
  return query.where(sql<boolean>`${sql.ref(`${table}.search_text`)} like ${`%${escapeLike(text)}%`} escape '\\'`);
}

/** Escapes LIKE wildcards so a search for "50%" means the text. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
