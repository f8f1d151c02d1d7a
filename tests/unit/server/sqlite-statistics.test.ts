import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { keepStatisticsFresh, openDatabase } from '../../../src/server/db/connect.js';

describe('SQLite planner statistics on a running server (connect.ts keepStatisticsFresh)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'beacon-stats-'));
  const handle = openDatabase({ engine: 'sqlite', file: join(dir, 'beacon.sqlite') });
  afterAll(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('re-plans a lookup by key once a table analysed small has grown', async () => {
    const { db } = handle;
    await sql`create table things (id text primary key, kind_id text)`.execute(db);
    await sql`create table kinds (id text primary key, name text)`.execute(db);
    await sql`insert into kinds values ('k', 'kind')`.execute(db);
    await sql`insert into things values ('t0', 'k')`.execute(db);
    await sql`analyze`.execute(db);
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 5000)
      insert into things select 't' || i, 'k' from n`.execute(db);
    const plan = async () =>
      (
        await sql<{
          detail: string;
        }>`explain query plan select things.*, kinds.name from things join kinds on kinds.id = things.kind_id where things.id = ${'t5'}`.execute(
          db,
        )
      ).rows.map((row) => row.detail);
    // Planned by the statistics of one row: every thing is read.
    expect(await plan()).toContain('SCAN things');
    const stop = keepStatisticsFresh(db, 5);
    try {
      await vi.waitFor(async () => expect((await plan()).join(' ')).toMatch(/SEARCH things USING INDEX/), {
        timeout: 5000,
      });
    } finally {
      stop();
    }
  });
});
