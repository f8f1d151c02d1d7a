/**
 * A thread that runs long SQLite reads on its own read-only connection (connect.ts offThreadReaderOf), so that a
 * search made afresh does not hold up every other request on the server's thread. Plain JavaScript: a worker
 * starts without the TypeScript loader the server runs under.
 *
 * It also runs the WAL checkpoints (connect.ts turns the main connection's automatic ones off): a checkpoint copies
 * every page written since the last one into the database file and syncs it, which on the server's thread held
 * up the health-check runner for 100-200 ms at a time (issue 26). A read-only connection may checkpoint.
 *
 * Messages in: `{ id, text, values }`, or `{ checkpoint: true }`; out: `{ id, rows }` or
 * `{ id, error: { message, code } }` (a checkpoint answers nothing; one that cannot finish now is tried again at
 * the next).
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite from 'better-sqlite3';

const { file, busyTimeoutMs, cacheKib, mmapBytes } = workerData;
const sqlite = new BetterSqlite(file, { fileMustExist: true });
sqlite.pragma('query_only = ON');
sqlite.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
sqlite.pragma(`cache_size = -${cacheKib}`);
sqlite.pragma(`mmap_size = ${mmapBytes}`);

/** Prepared statements by text (a search's few shapes), as the main connection keeps them. */
const statements = new Map();
const STATEMENTS_KEPT = 100;

function prepared(text) {
  let statement = statements.get(text);
  if (!statement) {
    if (statements.size >= STATEMENTS_KEPT) statements.delete(statements.keys().next().value);
    statements.set(text, (statement = sqlite.prepare(text)));
  }
  return statement;
}

parentPort.on('message', ({ id, text, values, checkpoint }) => {
  if (checkpoint) {
    try {
      sqlite.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Busy or locked: the next one catches up.
    }
    return;
  }
  try {
    parentPort.postMessage({ id, rows: prepared(text).all(...values) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: error.message, code: error.code } });
  }
});
