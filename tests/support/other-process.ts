import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { TestDatabase } from './database.js';

/** One statement, with `?` for each value (numbered for PostgreSQL). */
export interface Statement {
  sql: string;
  values?: readonly unknown[];
}

/** Opens its own connection, runs the statements in one transaction, and exits. Plain JS: node runs it as is. */
const WRITER = `
const { statements, url, schema, file } = JSON.parse(process.env.BEACON_WRITE);
if (url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, options: '-c search_path=' + schema });
  await client.connect();
  await client.query('begin');
  for (const { sql, values } of statements) {
    let n = 0;
    await client.query(sql.replace(/\\?/g, () => '$' + ++n), values ?? []);
  }
  await client.query('commit');
  await client.end();
} else {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  db.transaction(() => {
    for (const { sql, values } of statements) db.prepare(sql).run(...(values ?? []));
  })();
  db.close();
}
`;

/**
 * Writes to the test server's database from another OS process, as another `beacon serve` (or a psql session)
 * would: nothing in the server's process sees the write being made, only what it finds in the database.
 */
export async function writeElsewhere(database: TestDatabase, statements: readonly Statement[]): Promise<void> {
  const spec = database.env.DATABASE_URL
    ? { url: database.env.DATABASE_URL, schema: database.env.BEACON_DATABASE_SCHEMA }
    : { file: join(database.dataDir, 'beacon.sqlite') };
  const child = spawn(process.execPath, ['--input-type=module', '-e', WRITER], {
    env: { ...process.env, BEACON_WRITE: JSON.stringify({ ...spec, statements }) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`the other process failed (${code}): ${errors}`);
}
