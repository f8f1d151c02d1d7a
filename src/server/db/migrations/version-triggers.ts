import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.js';

/** A table whose rows belong to a workspace (by `workspace_id`), and the columns whose update counts as a change. */
export interface VersionedTable {
  table: string;
  updates: readonly string[];
}

const changed = (columns: readonly string[], isDistinct: string) =>
  sql.raw(columns.map((c) => `old.${c} ${isDistinct} new.${c}`).join(' or '));

/**
 * A `{name}_versions` table (a version per workspace) and triggers that bump a workspace's row in the very
 * statement, so the transaction, that inserts, deletes or (in `updates`) changes a row of `tables`, whichever code
 * path writes. A process may then keep what it read from those tables for as long as the version is the one it
 * read first. No foreign key: a deleted workspace's rows cascade, and their triggers write its row while it goes;
 * that row is never read again.
 */
export async function createVersionTriggers(
  db: Kysely<unknown>,
  engine: Engine,
  name: string,
  tables: readonly VersionedTable[],
  options: { perStatement?: boolean } = {},
): Promise<void> {
  await db.schema
    .createTable(`${name}_versions`)
    .addColumn('workspace_id', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await addVersionTriggers(db, engine, name, tables, options);
}

/**
 * Triggers on more tables for a version {@link createVersionTriggers} made. Per statement (PostgreSQL) makes its
 * own functions, so a version's tables may be watched either way.
 */
export async function addVersionTriggers(
  db: Kysely<unknown>,
  engine: Engine,
  name: string,
  tables: readonly VersionedTable[],
  options: { perStatement?: boolean } = {},
): Promise<void> {
  const versions = `${name}_versions`;
  if (engine === 'sqlite') {
    const bump = (row: 'new' | 'old') =>
      sql.raw(`insert into ${versions} (workspace_id, version) values (${row}.workspace_id, 1)
        on conflict (workspace_id) do update set version = version + 1;`);
    for (const { table, updates } of tables) {
      const t = sql.table(table);
      await sql`create trigger ${sql.id(`${table}_${name}_insert`)} after insert on ${t}
        begin ${bump('new')} end`.execute(db);
      await sql`create trigger ${sql.id(`${table}_${name}_delete`)} after delete on ${t}
        begin ${bump('old')} end`.execute(db);
      if (updates.length === 0) continue;
      // A row moved to another workspace changes both (none moves today; it costs nothing to say).
      await sql`create trigger ${sql.id(`${table}_${name}_update`)}
        after update of ${sql.join(updates.map((c) => sql.id(c)))} on ${t}
        when ${changed(updates, 'is not')}
        begin ${bump('old')} ${bump('new')} end`.execute(db);
    }
    return;
  }

  if (options.perStatement) {
    await createStatementTriggers(db, versions, name, tables);
    return;
  }

  const bumpFunction = sql.id(`${name}_version_bump`);
  await sql`create or replace function ${bumpFunction}() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        insert into ${sql.raw(versions)} (workspace_id, version) values (old.workspace_id, 1)
          on conflict (workspace_id) do update set version = ${sql.raw(versions)}.version + 1;
      end if;
      if tg_op = 'UPDATE' then
        if new.workspace_id = old.workspace_id then
          return null;
        end if;
      end if;
      if tg_op <> 'DELETE' then
        insert into ${sql.raw(versions)} (workspace_id, version) values (new.workspace_id, 1)
          on conflict (workspace_id) do update set version = ${sql.raw(versions)}.version + 1;
      end if;
      return null;
    end $$`.execute(db);
  for (const { table, updates } of tables) {
    const t = sql.table(table);
    await sql`create trigger ${sql.id(`${table}_${name}_write`)} after insert or delete on ${t}
      for each row execute function ${bumpFunction}()`.execute(db);
    if (updates.length === 0) continue;
    await sql`create trigger ${sql.id(`${table}_${name}_update`)}
      after update of ${sql.join(updates.map((c) => sql.id(c)))} on ${t}
      for each row when (${changed(updates, 'is distinct from')}) execute function ${bumpFunction}()`.execute(db);
  }
}

/**
 * PostgreSQL, for tables written in bulk (an evaluation writes thousands of rows in one statement): one bump per
 * workspace and statement, from the statement's transition tables. Bumping the same row once per written row
 * would leave a chain of thousands of dead versions of it in the transaction, each found by walking the chain (a
 * first evaluation of 30,000 results took 32 s instead of 8). Transition tables allow no column list, so any
 * update counts as a change; these tables are updated only when what they hold changed.
 */
async function createStatementTriggers(
  db: Kysely<unknown>,
  versions: string,
  name: string,
  tables: readonly VersionedTable[],
): Promise<void> {
  await createStatementFunctions(db, versions, name);
  for (const { table } of tables) {
    for (const event of ['insert', 'update', 'delete'] as const) await statementTrigger(db, name, table, event);
  }
}

/** A trigger bumping `name` once per `event` statement on `table`, from its transition table. */
async function statementTrigger(
  db: Kysely<unknown>,
  name: string,
  table: string,
  event: 'insert' | 'update' | 'delete',
): Promise<void> {
  const transition = event === 'delete' ? 'old' : 'new';
  await sql`create trigger ${sql.id(`${table}_${name}_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
    referencing ${sql.raw(transition)} table as ${sql.raw(`${transition}_rows`)}
    for each statement execute function ${sql.id(`${name}_version_bump_${transition}`)}()`.execute(db);
}

/**
 * PostgreSQL: the inserts and deletes of `tables`, watched per row by {@link createVersionTriggers}, bump `name`
 * once per statement instead (an import inserts 10,000 services and 30,000 dependencies in runs of 500: per row,
 * each run bumped one version row 500 times, and an import took 75 s instead of a few). Updates stay per row,
 * filtered by column: they come one at a time.
 */
export async function bumpInsertsAndDeletesPerStatement(
  db: Kysely<unknown>,
  name: string,
  tables: readonly string[],
): Promise<void> {
  await createStatementFunctions(db, `${name}_versions`, name);
  for (const table of tables) {
    await sql`drop trigger ${sql.id(`${table}_${name}_write`)} on ${sql.table(table)}`.execute(db);
    for (const event of ['insert', 'delete'] as const) await statementTrigger(db, name, table, event);
  }
}

async function createStatementFunctions(db: Kysely<unknown>, versions: string, name: string): Promise<void> {
  for (const transition of ['new', 'old'] as const) {
    await sql`create or replace function ${sql.id(`${name}_version_bump_${transition}`)}() returns trigger language plpgsql as $$
      begin
        insert into ${sql.raw(versions)} (workspace_id, version)
          select distinct workspace_id, 1 from ${sql.raw(`${transition}_rows`)}
          on conflict (workspace_id) do update set version = ${sql.raw(versions)}.version + 1;
        return null;
      end $$`.execute(db);
  }
}
