import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  sql,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Engine = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: Engine;
  /** PostgreSQL: the schema the tables live in. */
  schema?: string;
  close(): Promise<void>;
}

export type DatabaseOptions =
  { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string; schema?: string; poolSize?: number };

/** Opens the embedded SQLite file or a PostgreSQL pool behind the same Kysely interface. */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.engine === 'sqlite') {
    if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true });
    const sqlite = new BetterSqlite(options.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // SQLite gathers planner statistics only when asked; its docs recommend optimize at open and at close.
    sqlite.pragma('optimize = 0x10002');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    return {
      db,
      engine: 'sqlite',
      close: async () => {
        sqlite.pragma('optimize');
        await db.destroy();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // A per-run schema keeps test runs (and side-by-side installs) apart.
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', schema: options.schema ?? 'public', close: () => db.destroy() };
}

/**
 * Kysely prepares every query anew; preparing costs more than running a point select. The SQL text of a
 * query builder is stable, so prepared statements are kept by text (bounded, oldest dropped first).
 */
function withStatementCache(sqlite: SqliteDatabase, limit = 500): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    prepare(text: string): SqliteStatement {
      const cached = statements.get(text);
      if (cached) return cached;
      const statement = sqlite.prepare(text);
      if (statements.size >= limit) statements.delete(statements.keys().next().value!);
      statements.set(text, statement);
      return statement;
    },
    close: () => sqlite.close(),
  };
}

/** Whether a Kysely instance (or transaction) talks to SQLite; for the few queries that differ by engine. */
export function isSqlite(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** Creates a PostgreSQL schema if missing (used for isolated test and bench runs). */
export async function createPostgresSchema(url: string, schema: string): Promise<void> {
  const handle = openDatabase({ engine: 'postgres', url, poolSize: 1 });
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(handle.db);
  } finally {
    await handle.close();
  }
}

export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const handle = openDatabase({ engine: 'postgres', url, poolSize: 1 });
  try {
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(handle.db);
  } finally {
    await handle.close();
  }
}
