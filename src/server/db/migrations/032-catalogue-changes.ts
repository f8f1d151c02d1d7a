import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.js';
import { CATALOGUE_TABLES } from './021-catalogue-version.js';

/**
 * What each catalogue version changed (issue 31): every bump of `catalogue_versions` (migration 021) now also
 * writes, in the same statement, the scopes it touched: the ids of the rows (a service, a team and its parent, a user, a
 * managed entity); `services`, `teams` or `users` when the change can move a list (a row in or
 * out, or a column its pages sort or filter by), `{list}:search` when it can move only its searches (a column
 * only searched); `members:{team}` and `member:{user}` for a membership (a team's
 * members, a user's teams); and `stars:{user}` for a user's stars. A process that kept answers reads the changes between the version it last saw and the one a request
 * reads, and drops only the answers that hold one of those ids or lists (cache/catalogue-cache.ts).
 *
 * The last {@link KEPT_VERSIONS} versions of a workspace are kept; a process further behind drops all it kept.
 */
export const KEPT_VERSIONS = 10_000;

/** An expression over the row a trigger sees (`new` or `old`), or a fixed scope. */
type Scopes = (row: string) => string[];

export interface ChangedTable {
  table: string;
  /** The scopes an insert or delete touches. */
  rows: Scopes;
  /** Columns whose update changes an answer: as in migration 021. */
  updates: readonly string[];
  /**
   * Of those, the ones that move a list, by the list they move: `{table}` for what its pages sort or filter by,
   * `{table}:search` for what only its searches read.
   */
  moves?: Readonly<Record<string, readonly string[]>>;
  /**
   * The list whose searches only these columns move, logged with the row's searched text before and after
   * (`text:{list}:{search_text}`), so that only the searches of a term either contains are dropped (migration 033).
   */
  texts?: { list: string; columns: readonly string[] };
  /** The writes that log (default all three): a table whose inserts change no answer leaves them out. */
  events?: readonly ('insert' | 'delete' | 'update')[];
  /** The column holding the row's workspace (default `workspace_id`; the workspaces table's own `id`). */
  workspaceColumn?: string;
}

/** Migration 021's columns of each table, and what 029 watches of managed entities. */
const updatesOf = (table: string) => CATALOGUE_TABLES.find((t) => t.table === table)!.updates;

export const TABLES: readonly ChangedTable[] = [
  {
    table: 'services',
    rows: (r) => [`${r}.id`, `'services'`],
    updates: updatesOf('services'),
    moves: { services: ['handle', 'name', 'owner_team_id', 'visibility'], 'services:search': ['description'] },
  },
  {
    table: 'teams',
    rows: (r) => [`${r}.id`, `${r}.parent_id`, `'teams'`],
    updates: updatesOf('teams'),
    moves: { teams: ['handle', 'name', 'parent_id'], 'teams:search': ['description'] },
  },
  {
    table: 'users',
    rows: (r) => [`${r}.id`, `'users'`],
    updates: updatesOf('users'),
    moves: { users: ['handle', 'name'], 'users:search': ['email'] },
  },
  {
    table: 'team_members',
    rows: (r) => [`'members:' || ${r}.team_id`, `'member:' || ${r}.user_id`],
    updates: updatesOf('team_members'),
  },
  { table: 'stars', rows: (r) => [`'stars:' || ${r}.user_id`], updates: updatesOf('stars') },
  {
    table: 'catalog_entities',
    rows: (r) => [`${r}.entity_id`],
    updates: ['entity_id', 'path', 'state', 'reason', 'state_since'],
  },
];

/** The scopes an update touches: those of the row before and after, and its list when a column it moves changed. */
function updateScopes({ rows, moves, texts }: ChangedTable, isDistinct: string): string[] {
  const scopes = [...new Set([...rows('old'), ...rows('new')])].filter((s) => !/^'[a-z]+'$/.test(s));
  const movedBy = (columns: readonly string[]) => columns.map((c) => `old.${c} ${isDistinct} new.${c}`).join(' or ');
  for (const [list, columns] of Object.entries(moves ?? {})) {
    scopes.push(`case when ${movedBy(columns)} then '${list}' end`);
  }
  if (texts) {
    for (const row of ['old', 'new']) {
      scopes.push(`case when ${movedBy(texts.columns)} then 'text:${texts.list}:' || ${row}.search_text end`);
    }
  }
  return scopes;
}

const ALL_EVENTS = ['insert', 'delete', 'update'] as const;

const scopeRows = (scopes: string[]) => scopes.map((s) => `select ${s} as scope`).join(' union all ');

export function catalogueChangesMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('catalogue_changes')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('catalogue_changes_by_version')
        .on('catalogue_changes')
        .columns(['workspace_id', 'version'])
        .execute();
      await catalogueTriggers(db, engine, TABLES);
    },
  };
}

/** (Re)makes the catalogue triggers of `tables`, each bumping its workspace's version and logging the scopes. */
export async function catalogueTriggers(db: Kysely<unknown>, engine: Engine, tables: readonly ChangedTable[]) {
  if (engine === 'sqlite') await sqliteTriggers(db, tables);
  else await postgresTriggers(db, tables);
}

/** SQLite: the triggers of migrations 021 and 029 again, each writing its changes after its bump. */
async function sqliteTriggers(db: Kysely<unknown>, tables: readonly ChangedTable[]): Promise<void> {
  for (const spec of tables) {
    const { table, rows, updates } = spec;
    const events = spec.events ?? ALL_EVENTS;
    const bumpAndLog = (row: string, scopes: string[]) => {
      const workspace = `${row}.${spec.workspaceColumn ?? 'workspace_id'}`;
      return `
        insert into catalogue_versions (workspace_id, version) values (${workspace}, 1)
          on conflict (workspace_id) do update set version = version + 1;
        insert into catalogue_changes (workspace_id, version, scope)
          select v.workspace_id, v.version, s.scope from catalogue_versions v, (${scopeRows(scopes)}) s
          where v.workspace_id = ${workspace} and s.scope is not null;
        delete from catalogue_changes where workspace_id = ${workspace}
          and version <= (select version from catalogue_versions where workspace_id = ${workspace}) - ${KEPT_VERSIONS};`;
    };
    for (const event of ALL_EVENTS) {
      await sql`drop trigger if exists ${sql.id(`${table}_catalogue_${event}`)}`.execute(db);
    }
    const t = sql.table(table);
    if (events.includes('insert'))
      await sql`create trigger ${sql.id(`${table}_catalogue_insert`)} after insert on ${t}
        begin ${sql.raw(bumpAndLog('new', rows('new')))} end`.execute(db);
    if (events.includes('delete'))
      await sql`create trigger ${sql.id(`${table}_catalogue_delete`)} after delete on ${t}
        begin ${sql.raw(bumpAndLog('old', rows('old')))} end`.execute(db);
    if (!events.includes('update')) continue;
    const changed = updates.map((c) => `old.${c} is not new.${c}`).join(' or ');
    await sql`create trigger ${sql.id(`${table}_catalogue_update`)}
      after update of ${sql.join(updates.map((c) => sql.id(c)))} on ${t}
      when ${sql.raw(changed)}
      begin ${sql.raw(bumpAndLog('new', updateScopes(spec, 'is not')))} end`.execute(db);
  }
}

/**
 * PostgreSQL: inserts and deletes once per statement from their transition tables (an import writes thousands of
 * rows in one, migration 029), one version for the statement with every row's scopes; updates per row, filtered by
 * column as before (they come one at a time, and transition tables allow no column list).
 */
async function postgresTriggers(db: Kysely<unknown>, tables: readonly ChangedTable[]): Promise<void> {
  for (const spec of tables) {
    const { table, rows, updates } = spec;
    const events = spec.events ?? ALL_EVENTS;
    const ws = sql.raw(spec.workspaceColumn ?? 'workspace_id');
    for (const name of ['write', 'insert', 'delete', 'update']) {
      await sql`drop trigger if exists ${sql.id(`${table}_catalogue_${name}`)} on ${sql.table(table)}`.execute(db);
    }
    for (const [event, transition] of [
      ['insert', 'new'],
      ['delete', 'old'],
    ] as const) {
      if (!events.includes(event)) continue;
      const fn = `${table}_catalogue_${event}_rows`;
      await sql`create or replace function ${sql.id(fn)}() returns trigger language plpgsql as $$
        declare
          w record;
        begin
          with bumped as (
            insert into catalogue_versions (workspace_id, version)
              select distinct ${ws}, 1 from ${sql.raw(`${transition}_rows`)}
              on conflict (workspace_id) do update set version = catalogue_versions.version + 1
              returning workspace_id, version
          )
          insert into catalogue_changes (workspace_id, version, scope)
            select distinct b.workspace_id, b.version, s.scope
            from ${sql.raw(`${transition}_rows`)} r join bumped b on b.workspace_id = r.${ws}
            cross join lateral (${sql.raw(scopeRows(rows('r')))}) s
            where s.scope is not null;
          -- One delete per workspace with its bound as a value, which the index serves: a join with the bound
          -- read per row scanned the whole log for each statement (100,000 services seeded in 430 s).
          for w in select v.workspace_id, v.version from catalogue_versions v
              where v.workspace_id in (select distinct ${ws} from ${sql.raw(`${transition}_rows`)}) loop
            delete from catalogue_changes where workspace_id = w.workspace_id
              and version <= w.version - ${sql.raw(String(KEPT_VERSIONS))};
          end loop;
          return null;
        end $$`.execute(db);
      await sql`create trigger ${sql.id(`${table}_catalogue_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
        referencing ${sql.raw(transition)} table as ${sql.raw(`${transition}_rows`)}
        for each statement execute function ${sql.id(fn)}()`.execute(db);
    }
    if (!events.includes('update')) continue;
    const fn = `${table}_catalogue_update_row`;
    await sql`create or replace function ${sql.id(fn)}() returns trigger language plpgsql as $$
      declare
        bumped bigint;
      begin
        insert into catalogue_versions (workspace_id, version) values (new.${ws}, 1)
          on conflict (workspace_id) do update set version = catalogue_versions.version + 1
          returning version into bumped;
        insert into catalogue_changes (workspace_id, version, scope)
          select new.${ws}, bumped, s.scope from (${sql.raw(scopeRows(updateScopes(spec, 'is distinct from')))}) s
          where s.scope is not null;
        delete from catalogue_changes where workspace_id = new.${ws}
          and version <= bumped - ${sql.raw(String(KEPT_VERSIONS))};
        return null;
      end $$`.execute(db);
    const changed = updates.map((c) => `old.${c} is distinct from new.${c}`).join(' or ');
    await sql`create trigger ${sql.id(`${table}_catalogue_update`)}
      after update of ${sql.join(updates.map((c) => sql.id(c)))} on ${sql.table(table)}
      for each row when (${sql.raw(changed)}) execute function ${sql.id(fn)}()`.execute(db);
  }
}
