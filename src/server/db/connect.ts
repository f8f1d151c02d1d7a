import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import BetterSqlite from 'better-sqlite3';
import { decodeHistogram, encodeHistogram, mergeHistograms } from '../../domain/check-aggregates.js';
import {
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  sql,
  type CompiledQuery,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Engine = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  /**
   * What background jobs (outboxes, escalation, the shared runner, sweeps) query through: on PostgreSQL the same
   * pool, of which they may hold only a share at once ({@link JOBS_SHARE}), so a burst of their work never leaves a
   * request waiting for a connection; on SQLite `db` itself.
   */
  jobs: Kysely<Database>;
  engine: Engine;
  /** PostgreSQL: the schema the tables live in. */
  schema?: string;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | { engine: 'sqlite'; file: string; busyTimeoutMs?: number }
  | {
      engine: 'postgres';
      url: string;
      schema?: string;
      poolSize?: number;
      /** How long to wait for a connection (new, or free in the pool) before the query fails; default 5 s. */
      connectTimeoutMs?: number;
      /** Told when a pooled connection breaks (database restarted, connection killed); default: ignored. */
      onConnectionError?: (error: Error) => void;
    };

/** Page cache per connection, in KiB (SQLite's default is 2,048). */
const SQLITE_CACHE_KIB = 64 * 1024;
/** How much of the file reads may map into memory (SQLite's default is none). */
const SQLITE_MMAP_BYTES = 1024 * 1024 * 1024;

/** Opens the embedded SQLite file or a PostgreSQL pool behind the same Kysely interface. */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.engine === 'sqlite') {
    if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true });
    const sqlite = new BetterSqlite(options.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // SQLite's default page cache is 2 MiB: with a million events, every index seek read its pages again through
    // a system call. A larger cache and memory-mapped reads keep hot pages in the process (figures in issue 14).
    sqlite.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    sqlite.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
    // A write waits this long for another process's lock, then fails with SQLITE_BUSY (a 503, errors.ts).
    sqlite.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
    // SQLite gathers planner statistics only when asked; its docs recommend optimize at open and at close.
    sqlite.pragma('optimize = 0x10002');
    // Health-check buckets add up in the database (repositories/check-aggregates.ts), histograms included.
    sqlite.function('beacon_merge_histograms', { deterministic: true }, (stored, added) =>
      encodeHistogram(mergeHistograms(decodeHistogram(String(stored ?? '')), decodeHistogram(String(added ?? '')))),
    );
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    const side = options.file === ':memory:' ? null : openSideReader(options.file, options.busyTimeoutMs);
    if (side) sideReaders.set(db, side);
    const offThread = options.file === ':memory:' ? null : new OffThreadReader(options.file, options.busyTimeoutMs);
    if (offThread) offThreadReaders.set(db, offThread);
    const stopCheckpoints = offThread ? checkpointOffThread(sqlite, offThread) : () => {};
    const stopOptimizing = keepStatisticsFresh(db, SQLITE_OPTIMIZE_EVERY_MS);
    return {
      db,
      jobs: db,
      engine: 'sqlite',
      close: async () => {
        stopOptimizing();
        stopCheckpoints();
        sqlite.pragma('optimize');
        await db.destroy();
        side?.close();
        await offThread?.close();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // Fail fast while the database is unreachable (a 503) rather than hold requests until the OS gives up.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    keepAlive: true,
    // Names the backends in pg_stat_activity (an application_name in the URL wins).
    fallback_application_name: options.schema ? `beacon/${options.schema}` : 'beacon',
    // A per-run schema keeps test runs (and side-by-side installs) apart.
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // A connection that breaks (restart, failover, pg_terminate_backend) emits 'error' on its client, idle or
  // checked out; unheard, that would end the process. The broken client is dropped and the next query connects
  // anew; a query it was running fails and its request answers 503 (errors.ts).
  const onConnectionError = options.onConnectionError ?? (() => {});
  pool.on('error', onConnectionError);
  pool.on('connect', (client) => client.on('error', onConnectionError));
  // Whatever the server's reason for refusing a connection (a connection limit, ALLOW_CONNECTIONS false, pg_hba,
  // still starting, an unknown SQLSTATE), failing to open one is unavailability: marked where it happened.
  const connecting = {
    connect: () =>
      pool.connect().catch((error: unknown) => {
        throw new DatabaseConnectError(error);
      }),
    end: () => pool.end(),
  };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: connecting }) });
  const jobsShare = Math.max(1, Math.floor((options.poolSize ?? 10) * JOBS_SHARE));
  const jobs = new Kysely<Database>({ dialect: new PostgresDialect({ pool: gated(connecting.connect, jobsShare) }) });
  return { db, jobs, engine: 'postgres', schema: options.schema ?? 'public', close: () => db.destroy() };
}

/**
 * The share of the pool background jobs may hold at once. Measured (`npm run bench:alerts`, PostgreSQL): with the
 * alert outbox's 50 deliveries of a batch queued for the pool, a `GET /api/alerts` waited behind them at every query.
 */
export const JOBS_SHARE = 0.6;

/**
 * Connections of the pool, at most `limit` checked out through here at once (the others wait their turn). Ending
 * it ends nothing: the pool is the handle's, closed with it.
 */
function gated(connect: () => Promise<pg.PoolClient>, limit: number) {
  let held = 0;
  const waiting: (() => void)[] = [];
  const acquire = () => {
    if (held < limit) {
      held += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => waiting.push(resolve));
  };
  // A freed place goes to the next in line, else it is free.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else held -= 1;
  };
  return {
    async connect() {
      await acquire();
      let client: pg.PoolClient;
      try {
        client = await connect();
      } catch (error) {
        release();
        throw error;
      }
      // The pool gives each checkout its own release: this one frees the place too.
      const giveBack = client.release.bind(client);
      let given = false;
      client.release = (error?: Error | boolean) => {
        if (!given) release();
        given = true;
        giveBack(error);
      };
      return client;
    },
    end: async () => {},
  };
}

/** How often the read thread checkpoints the WAL. */
const SQLITE_CHECKPOINT_EVERY_MS = 1000;

/**
 * Moves SQLite's WAL checkpoints from the main connection, where one ran inside whichever commit passed 1,000
 * pages, to the read thread, once a second. Returns what stops it (closing the main connection checkpoints the
 * rest, as the last connection to a WAL database does).
 */
function checkpointOffThread(sqlite: BetterSqlite.Database, reader: OffThreadReader): () => void {
  sqlite.pragma('wal_autocheckpoint = 0');
  const timer = setInterval(() => reader.checkpoint(), SQLITE_CHECKPOINT_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** How often a running server refreshes SQLite's planner statistics (SQLite's advice: hourly or daily). */
const SQLITE_OPTIMIZE_EVERY_MS = 3600_000;

/**
 * SQLite plans by the statistics it gathered last, at open: a table that had one row then is planned as one
 * until the server restarts. The sessions of a young install did that: each caller lookup read every session
 * (106 µs at 2,000 sessions, against 30 µs by its key). `PRAGMA optimize` re-gathers only for tables that grew
 * or shrank a lot since, within a bounded effort; it runs through Kysely, so it waits for a transaction under
 * way. A failure (the database busy) waits for the next turn. Returns what stops it.
 */
export function keepStatisticsFresh(db: Kysely<Database>, everyMs: number): () => void {
  const timer = setInterval(() => {
    sql`pragma optimize`.execute(db).catch(() => {});
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** A point read of committed rows, beside the Kysely connection: `get(sql, value)` gives the first column, if any. */
export interface SideReader {
  /** The first column of the first row. */
  get(text: string, value: string): unknown;
  /** The first row, whole. */
  row(text: string, values: readonly unknown[]): Record<string, unknown> | undefined;
  /** Every row. */
  all(text: string, values: readonly unknown[]): Record<string, unknown>[];
  close(): void;
}

const sideReaders = new WeakMap<Kysely<Database>, SideReader>();

/**
 * SQLite: a second connection to the file, for the version reads every kept answer starts with (repositories/
 * versions.ts). Kysely's one connection runs queries one at a time behind a queue of promises, which made that
 * read cost as much as the rest of a kept answer (issue 18); this one reads synchronously. In WAL mode it sees
 * exactly what is committed, never a transaction still open on the main connection, so a version it reads is never
 * one that a rollback takes back. Undefined for PostgreSQL, an in-memory database, or a transaction.
 */
export function sideReaderOf(db: Kysely<Database>): SideReader | undefined {
  return sideReaders.get(db);
}

function openSideReader(file: string, busyTimeoutMs = 5000): SideReader {
  const sqlite = new BetterSqlite(file, { fileMustExist: true });
  sqlite.pragma('query_only = ON');
  sqlite.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  // The few version reads there are, prepared once each.
  const plucked = new Map<string, BetterSqlite.Statement>();
  const whole = new Map<string, BetterSqlite.Statement>();
  const prepared = (kept: Map<string, BetterSqlite.Statement>, text: string, pluck: boolean) => {
    let statement = kept.get(text);
    if (!statement) kept.set(text, (statement = pluck ? sqlite.prepare(text).pluck() : sqlite.prepare(text)));
    return statement;
  };
  return {
    get: (text, value) => prepared(plucked, text, true).get(value),
    row: (text, values) => prepared(whole, text, false).get(...values) as Record<string, unknown> | undefined,
    all: (text, values) => prepared(whole, text, false).all(...values) as Record<string, unknown>[],
    close: () => sqlite.close(),
  };
}

/**
 * SQLite: a second read-only connection on a thread of its own (read-worker.mjs), for the reads that take
 * milliseconds (a search made afresh: 10-30 ms at 100,000 services). better-sqlite3 runs a statement to its end on
 * the thread that calls it, so on the server's thread such a read holds up every request meanwhile (issue 31: the
 * mixed benchmark's p99). In WAL mode it reads what is committed, as the side reader does. The thread starts at the
 * first read and ends with the database handle. Undefined for PostgreSQL (its reads already wait on a socket), an
 * in-memory database, or a transaction (whose reads must see its own writes).
 */
export function offThreadReaderOf(db: Kysely<Database>): OffThreadReader | undefined {
  return offThreadReaders.get(db);
}

/** The rows of a long read: on SQLite's read thread where there is one, else on the query's own connection. */
export async function readOffThread<O>(db: Kysely<Database>, query: CompiledQuery<O>): Promise<O[]> {
  const reader = offThreadReaderOf(db);
  return reader ? reader.all<O>(query.sql, query.parameters) : (await db.executeQuery(query)).rows;
}

const offThreadReaders = new WeakMap<Kysely<Database>, OffThreadReader>();

export class OffThreadReader {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: Error) => void }>();
  private next = 0;

  constructor(
    private readonly file: string,
    private readonly busyTimeoutMs = 5000,
  ) {}

  /** Every row `text` reads with `values`. */
  all<T>(text: string, values: readonly unknown[]): Promise<T[]> {
    const id = this.next++;
    return new Promise<T[]>((resolve, reject) => {
      const worker = this.started();
      // A read waiting keeps the process alive; an idle thread does not.
      if (this.waiting.size === 0) worker.ref();
      this.waiting.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      worker.postMessage({ id, text, values });
    });
  }

  /** Asks the thread to checkpoint the WAL (read-worker.mjs); starts it if it is not running. */
  checkpoint(): void {
    this.started().postMessage({ checkpoint: true });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./read-worker.mjs', import.meta.url), {
      workerData: {
        file: this.file,
        busyTimeoutMs: this.busyTimeoutMs,
        cacheKib: SQLITE_CACHE_KIB,
        mmapBytes: SQLITE_MMAP_BYTES,
      },
    });
    worker.on(
      'message',
      ({ id, rows, error }: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
        const waiter = this.waiting.get(id);
        this.waiting.delete(id);
        if (this.waiting.size === 0) worker.unref();
        if (!waiter) return;
        if (error) waiter.reject(Object.assign(new Error(error.message), { code: error.code }));
        else waiter.resolve(rows ?? []);
      },
    );
    // A thread that failed or was ended: its reads fail, and the next read starts a new one.
    const ended = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    // Idle (between reads, or only checkpointing) the thread keeps no process alive.
    worker.unref();
    worker.on('error', ended);
    worker.on('exit', (code) => ended(new Error(`the SQLite read thread ended (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
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

/** A connection to the database could not be opened: the request may be tried again later (503). */
export class DatabaseConnectError extends Error {
  readonly code = 'BEACON_DB_CONNECT';
  constructor(cause: unknown) {
    super(`could not connect to the database: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** PostgreSQL SQLSTATEs that mean the database is (for now) out of reach: admin or crash shutdown, starting up. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Node's socket errors while connecting or talking to the database. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** pg's own messages for a broken connection or a pool that could not hand out one in time. */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * Whether an error means the database cannot be reached right now (down, restarting, connections killed, pool
 * timed out, SQLite locked by another process past its busy timeout), so the request may be tried again later.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  if (error instanceof DatabaseConnectError) return true;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (UNAVAILABLE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || UNAVAILABLE_CODES.has(code)) return true;
    if (code.startsWith('SQLITE_BUSY')) return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
  // Wrapped errors, and the AggregateError of a connect tried on several addresses.
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/** Whether the database answers `select 1` within `timeoutMs`. */
export async function databaseAnswers(db: Kysely<Database>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([sql`select 1`.execute(db).then(() => true), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
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
