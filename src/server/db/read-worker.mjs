/**
 * A thread that runs long SQLite reads on its own read-only connection (connect.ts offThreadReaderOf), so that a
 * search made afresh does not hold up every other request on the server's thread. Plain JavaScript: a worker
 * starts without the TypeScript loader the server runs under.
 *
 * Messages in: `{ id, text, values }`; out: `{ id, rows }` or `{ id, error: { message, code } }`.
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

parentPort.on('message', ({ id, text, values }) => {
  try {
    parentPort.postMessage({ id, rows: prepared(text).all(...values) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: error.message, code: error.code } });
  }
});
