import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { keepStatisticsFresh, offThreadReaderOf, openDatabase, readOffThread } from '../../../src/server/db/connect.js';

/** What connect.ts adds to a SQLite connection: a read thread, and statistics kept fresh while it runs. */
describe('SQLite connection (connect.ts)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'beacon-sqlite-'));
  const handle = openDatabase({ engine: 'sqlite', file: join(dir, 'beacon.sqlite') });
  afterAll(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads what is committed, never what a transaction still holds open', async () => {
    const { db } = handle;
    await sql`create table things (id integer primary key, name text)`.execute(db);
    await sql`insert into things (name) values ('one'), ('two')`.execute(db);
    const reader = offThreadReaderOf(db)!;
    expect(await reader.all('select name from things order by id', [])).toEqual([{ name: 'one' }, { name: 'two' }]);
    await db.transaction().execute(async (trx) => {
      await sql`insert into things (name) values ('three')`.execute(trx);
      expect(await reader.all('select count(*) as n from things where name <> ?', ['none'])).toEqual([{ n: 2 }]);
      // Inside a transaction there is no read thread: the read sees the transaction's own write.
      expect(offThreadReaderOf(trx)).toBeUndefined();
    });
    expect(await reader.all('select count(*) as n from things', [])).toEqual([{ n: 3 }]);
  });

  it('runs a Kysely query there with its parameters, and fails a bad statement without harm to the next', async () => {
    const { db } = handle;
    const rows = await readOffThread(
      db,
      db
        .selectFrom('things' as never)
        .select(sql<string>`name`.as('name'))
        .where(sql`id`, '=', 2)
        .compile(),
    );
    expect(rows).toEqual([{ name: 'two' }]);
    const reader = offThreadReaderOf(db)!;
    await expect(reader.all('select * from nowhere', [])).rejects.toThrow(/no such table/);
    // It is read-only: a write is refused there.
    await expect(reader.all("insert into things (name) values ('x') returning id", [])).rejects.toThrow(
      /readonly|read-only/i,
    );
    expect(await reader.all('select count(*) as n from things', [])).toEqual([{ n: 3 }]);
  });

  it("checkpoints the WAL on the read thread, not inside a commit on the server's thread", async () => {
    const { db } = handle;
    const file = join(dir, 'beacon.sqlite');
    await sql`create table pages (id integer primary key, body text)`.execute(db);
    const before = statSync(file).size;
    // About 2,000 pages in one commit: past the 1,000 after which SQLite's own checkpoint would run in it.
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 2000)
      insert into pages (body) select randomblob(4000) from n`.execute(db);
    expect(statSync(file).size).toBe(before);
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 4_000_000), {
      timeout: 5000,
      interval: 50,
    });
  });

  it('starts a new thread after its thread ended', async () => {
    const reader = offThreadReaderOf(handle.db)!;
    await reader.close();
    expect(await reader.all('select count(*) as n from things', [])).toEqual([{ n: 3 }]);
  });

  it('re-plans a lookup by key once a table analysed small has grown (keepStatisticsFresh)', async () => {
    const { db } = handle;
    await sql`create table grown (id text primary key, kind_id text)`.execute(db);
    await sql`create table kinds_of (id text primary key, name text)`.execute(db);
    await sql`insert into kinds_of values ('k', 'kind')`.execute(db);
    await sql`insert into grown values ('t0', 'k')`.execute(db);
    await sql`analyze`.execute(db);
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 5000)
      insert into grown select 't' || i, 'k' from n`.execute(db);
    const plan = async () =>
      (
        await sql<{
          detail: string;
        }>`explain query plan select grown.*, kinds_of.name from grown join kinds_of on kinds_of.id = grown.kind_id where grown.id = ${'t5'}`.execute(
          db,
        )
      ).rows.map((row) => row.detail);
    // Planned by the statistics of one row: every thing is read.
    expect(await plan()).toContain('SCAN grown');
    const stop = keepStatisticsFresh(db, 5);
    try {
      await vi.waitFor(async () => expect((await plan()).join(' ')).toMatch(/SEARCH grown USING INDEX/), {
        timeout: 5000,
      });
    } finally {
      stop();
    }
  });

  it('is not there for an in-memory database', () => {
    const memory = openDatabase({ engine: 'sqlite', file: ':memory:' });
    expect(offThreadReaderOf(memory.db)).toBeUndefined();
    return memory.close();
  });
});
