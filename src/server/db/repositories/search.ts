import { sql, type SelectQueryBuilder } from 'kysely';
import { isSqlite } from '../connect.js';
import type { Database } from '../schema.js';
import type { Db } from './workspaces.js';

/** The tables with a trigram-indexed `search_text` column (db/search-index.ts). */
export type SearchableTable = 'users' | 'teams' | 'services';

/**
 * Keeps the rows of `table` whose search text contains `q` (every row when there is no `q`). On SQLite the
 * trigram FTS table finds the candidates, joined (not `rowid in (...)`) so the planner starts from the few
 * index hits rather than the workspace's rows; FTS5's trigram LIKE takes no ESCAPE clause, so only plain text
 * goes through it. Otherwise the LIKE runs on the column, which pg_trgm serves on PostgreSQL.
 */
export function whereSearchTextContains<TB extends keyof Database, O>(
  db: Db,
  query: SelectQueryBuilder<Database, TB, O>,
  table: SearchableTable,
  q: string | undefined,
): SelectQueryBuilder<Database, TB, O> {
  const text = q?.trim().toLowerCase();
  if (!text) return query;
  if (isSqlite(db) && !/[\\%_]/.test(text)) {
    const fts = sql.table(`${table}_fts`);
    const hits = sql<boolean>`${fts}.rowid = ${sql.table(table)}.rowid and ${fts}.search_text like ${`%${text}%`}`;
    // The joined FTS table adds no column the caller selects: the query keeps its type.
    return query.innerJoin(`${table}_fts`, (join) => join.on(hits)) as SelectQueryBuilder<Database, TB, O>;
  }
  return query.where(sql<boolean>`${sql.ref(`${table}.search_text`)} like ${`%${escapeLike(text)}%`} escape '\\'`);
}

/** Escapes LIKE wildcards so a search for "50%" means the text. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
