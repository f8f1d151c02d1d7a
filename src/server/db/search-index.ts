import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Engine } from './connect.js';

/**
 * Adds a lowercased `search_text` column computed from `expression` to `table`, with a trigram index so a
 * substring search does not scan: FTS5's trigram tokenizer on SQLite (an external-content table
 * `{table}_fts` kept in step by triggers on `watched` columns), pg_trgm on PostgreSQL when the server offers
 * it (without it the same LIKE still works, by scanning).
 */
export async function addTrigramSearch(
  db: Kysely<unknown>,
  engine: Engine,
  table: string,
  expression: RawBuilder<unknown>,
  watched: string[],
): Promise<void> {
  const t = sql.table(table);
  const fts = sql.table(`${table}_fts`);
  if (engine === 'sqlite') {
    await sql`alter table ${t} add column search_text text generated always as (lower(${expression})) virtual`.execute(
      db,
    );
    await sql`create virtual table ${fts} using fts5(search_text, content=${sql.lit(table)}, content_rowid='rowid', tokenize='trigram')`.execute(
      db,
    );
    await sql`insert into ${fts}(${fts}) values ('rebuild')`.execute(db);
    await sql`create trigger ${sql.id(`${table}_fts_insert`)} after insert on ${t} begin
      insert into ${fts}(rowid, search_text) values (new.rowid, new.search_text); end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_fts_delete`)} after delete on ${t} begin
      insert into ${fts}(${fts}, rowid, search_text) values ('delete', old.rowid, old.search_text); end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_fts_update`)} after update of ${sql.join(watched.map((c) => sql.id(c)))} on ${t} begin
      insert into ${fts}(${fts}, rowid, search_text) values ('delete', old.rowid, old.search_text);
      insert into ${fts}(rowid, search_text) values (new.rowid, new.search_text); end`.execute(db);
    return;
  }
  await sql`alter table ${t} add column search_text text generated always as (lower(${expression})) stored`.execute(db);
  const available = await sql<{
    n: number;
  }>`select count(*)::int as n from pg_available_extensions where name = 'pg_trgm'`.execute(db);
  if ((available.rows[0]?.n ?? 0) === 0) return;
  // The extension is database-wide: install it once, in public, whatever schema this run migrates.
  await sql`select pg_advisory_xact_lock(7205101)`.execute(db);
  await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  await sql`create index ${sql.id(`${table}_search_trgm`)} on ${t} using gin (search_text public.gin_trgm_ops)`.execute(
    db,
  );
}
