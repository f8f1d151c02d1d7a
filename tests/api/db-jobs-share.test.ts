/**
 * Background jobs hold only their share of the PostgreSQL pool (db/connect.ts JOBS_SHARE): however much they queue,
 * a request's query still finds a connection at once.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresSchema,
  dropPostgresSchema,
  openDatabase,
  type DatabaseHandle,
} from '../../src/server/db/connect.js';
import { TEST_ENGINE, TEST_POSTGRES_URL } from '../support/database.js';
import { until } from '../support/until.js';

describe.runIf(TEST_ENGINE === 'postgres')('the jobs’ share of the PostgreSQL pool', () => {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    await createPostgresSchema(TEST_POSTGRES_URL, schema);
    // A pool of 5: the jobs may hold 3 of them at once.
    handle = openDatabase({ engine: 'postgres', url: TEST_POSTGRES_URL, schema, poolSize: 5 });
  });
  afterAll(async () => {
    await handle.close();
    await dropPostgresSchema(TEST_POSTGRES_URL, schema);
  });

  /** The queries of this pool sleeping in the database now. */
  const sleeping = async () =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from pg_stat_activity
          where application_name = ${`beacon/${schema}`} and query like 'select pg_sleep%' and state = 'active'`.execute(
          handle.db,
        )
      ).rows[0]!.n,
    );

  it('runs at most its share of job queries at once, and a request’s query meanwhile', async () => {
    let done = false;
    const jobs = Promise.all(Array.from({ length: 6 }, () => sql`select pg_sleep(0.5)`.execute(handle.jobs))).then(
      () => (done = true),
    );
    await until(async () => ((await sleeping()) === 3 ? true : undefined));
    // Asked while three sleep and three wait: the request's own query answers at once.
    const started = performance.now();
    await sql`select 1`.execute(handle.db);
    expect(performance.now() - started).toBeLessThan(400);
    // Never more than three sleep at once, until all six are done.
    let most = 0;
    while (!done) {
      most = Math.max(most, await sleeping());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await jobs;
    expect(most).toBe(3);
    expect(await sleeping()).toBe(0);
  });

  it('gives a place back when a job’s query fails', async () => {
    const failures = await Promise.allSettled(
      Array.from({ length: 4 }, () => sql`select * from no_such_table`.execute(handle.jobs)),
    );
    expect(failures.every((result) => result.status === 'rejected')).toBe(true);
    const jobs = Array.from({ length: 3 }, () => sql`select pg_sleep(0.3)`.execute(handle.jobs));
    await until(async () => ((await sleeping()) === 3 ? true : undefined));
    await Promise.all(jobs);
  });
});
