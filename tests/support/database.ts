import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createPostgresSchema, dropPostgresSchema, openDatabase } from '../../src/server/db/connect.js';

export type TestEngine = 'sqlite' | 'postgres';

export const TEST_ENGINE: TestEngine = process.env.BEACON_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
export const TEST_POSTGRES_URL = process.env.BEACON_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  /** Environment-style settings for loadConfig. */
  env: Record<string, string>;
  dataDir: string;
  drop(): Promise<void>;
}

/** A fresh, empty database for one test file: a temporary SQLite file, or a new PostgreSQL schema. */
export async function freshDatabase(engine: TestEngine = TEST_ENGINE): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'beacon-test-'));
  if (engine === 'sqlite') {
    return {
      env: { BEACON_DATA_DIR: dataDir },
      dataDir,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  await (commitsUnflushed ??= commitWithoutWaitingForTheDisk(TEST_POSTGRES_URL));
  await createPostgresSchema(TEST_POSTGRES_URL, schema);
  return {
    env: { BEACON_DATA_DIR: dataDir, DATABASE_URL: TEST_POSTGRES_URL, BEACON_DATABASE_SCHEMA: schema },
    dataDir,
    drop: async () => {
      await dropPostgresSchema(TEST_POSTGRES_URL, schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let commitsUnflushed: Promise<void> | undefined;

/**
 * Commits on the test database answer before the write-ahead log reaches the disk (`synchronous_commit = off`,
 * set on the database, so every connection of every test and process takes it). Nothing the tests assert
 * depends on a commit surviving a crash of PostgreSQL itself; each commit otherwise waits a few ms for an fsync,
 * and the suites commit tens of thousands of times.
 */
async function commitWithoutWaitingForTheDisk(url: string): Promise<void> {
  const handle = openDatabase({ engine: 'postgres', url, poolSize: 1 });
  try {
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(handle.db);
    await sql`alter database ${sql.id(rows[0]!.name)} set synchronous_commit = off`.execute(handle.db);
  } catch {
    // Two workers setting it at once may collide ("tuple concurrently updated"): the other one set it; and a
    // database that refuses only makes the tests wait for the disk.
  } finally {
    await handle.close();
  }
}
