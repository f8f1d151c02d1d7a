import { sql, type Compilable, type CompiledQuery, type RawBuilder } from 'kysely';
import { isSqlite } from './connect.js';
import type { Db } from './repositories/workspaces.js';

/** Stands in a built query for a value given at each run. */
class Slot {
  constructor(readonly name: string) {}
}

/** The stand-in for `values[name]` while a precompiled query is built. */
export type Param<P> = <K extends keyof P & string>(name: K) => P[K];

/**
 * A hot query, built and compiled once per database, then run with new values. Kysely builds a tree and compiles
 * it to SQL on every call, which on a point read costs as much as the database does (issue 18's profiles). The
 * query is built with slots where values go (`param('name')`); its SQL and its parameter list are kept, and each
 * run puts the values in the slots' places. Only for queries whose SQL does not depend on the values (no lists of
 * varying length, no branches on them): a variant with another shape is another precompiled query.
 *
 * Kept per Kysely instance (each database, and each engine's SQL dialect); the values go through the driver's
 * parameters as with any Kysely query.
 */
export function precompile<P extends object, R>(
  build: (db: Db, param: Param<P>) => Compilable<R>,
): (db: Db, values: P) => Promise<R[]> {
  const compiled = new WeakMap<Db, CompiledQuery<R>>();
  const param = ((name: string) => new Slot(name)) as unknown as Param<P>;
  return async (db, values) => {
    let query = compiled.get(db);
    if (!query) {
      query = build(db, param).compile();
      compiled.set(db, query);
    }
    const parameters = query.parameters.map((value) =>
      value instanceof Slot ? (values as Record<string, unknown>)[value.name] : value,
    );
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  };
}

/** A list of ids as one parameter value, for `inList`: a JSON array on SQLite, an array on PostgreSQL. */
export function listParameter(db: Db, values: readonly string[]): unknown {
  return isSqlite(db) ? JSON.stringify(values) : values;
}

/**
 * The right side of `column in (...)` for a list given as one parameter (`listParameter`): the SQL stays the same
 * whatever the list's length, so the query can be precompiled.
 */
export function inList(db: Db, list: unknown): RawBuilder<string> {
  return isSqlite(db) ? sql`(select value from json_each(${list}))` : sql`(select unnest(${list}::text[]))`;
}
