import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.js';

/**
 * A version of each workspace's service graph (DESIGN.md 8), so a `beacon serve` process may keep the graph
 * answers it computed until any process changes what a graph shows. Triggers bump it in the statement (so the
 * transaction) that makes the change, whichever code path writes:
 *
 * - a service created or deleted, or its handle, name, health, icon, owner team or visibility changed;
 * - a dependency or a remote dependency added or removed;
 * - a workspace linked or unlinked.
 *
 * A graph that shows remote services reads the versions of the linked workspaces too. No foreign key: a
 * workspace's deletion cascades to its services, whose triggers write its row while the workspace goes; the row
 * of a deleted workspace is never read again.
 */

/** The graph's columns of `services`: a change to any other (description, stars, stage) leaves graphs as they are. */
const SERVICE_COLUMNS = ['handle', 'name', 'health', 'icon_asset_id', 'owner_team_id', 'visibility'] as const;

/** Tables whose rows belong to a graph, by their `workspace_id`, and the columns whose update changes one. */
const WATCHED: ReadonlyArray<{ table: string; updates: readonly string[] }> = [
  { table: 'services', updates: SERVICE_COLUMNS },
  { table: 'service_dependencies', updates: ['workspace_id', 'service_id', 'dependency_id'] },
  { table: 'remote_dependencies', updates: ['workspace_id', 'service_id', 'remote_domain', 'remote_handle'] },
  { table: 'workspace_remotes', updates: ['workspace_id', 'remote_workspace_id'] },
];

const changed = (columns: readonly string[], isDistinct: string) =>
  sql.raw(columns.map((c) => `old.${c} ${isDistinct} new.${c}`).join(' or '));

export function graphVersionMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('graph_versions')
        .addColumn('workspace_id', 'text', (c) => c.primaryKey())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();

      if (engine === 'sqlite') {
        const bump = (row: 'new' | 'old') =>
          sql.raw(`insert into graph_versions (workspace_id, version) values (${row}.workspace_id, 1)
            on conflict (workspace_id) do update set version = version + 1;`);
        for (const { table, updates } of WATCHED) {
          const t = sql.table(table);
          await sql`create trigger ${sql.id(`${table}_graph_insert`)} after insert on ${t}
            begin ${bump('new')} end`.execute(db);
          await sql`create trigger ${sql.id(`${table}_graph_delete`)} after delete on ${t}
            begin ${bump('old')} end`.execute(db);
          // A row moved to another workspace changes both graphs (none does today; it costs nothing to say).
          await sql`create trigger ${sql.id(`${table}_graph_update`)}
            after update of ${sql.join(updates.map((c) => sql.id(c)))} on ${t}
            when ${changed(updates, 'is not')}
            begin ${bump('old')} ${bump('new')} end`.execute(db);
        }
        return;
      }

      await sql`create function graph_version_bump() returns trigger language plpgsql as $$
        begin
          if tg_op <> 'INSERT' then
            insert into graph_versions (workspace_id, version) values (old.workspace_id, 1)
              on conflict (workspace_id) do update set version = graph_versions.version + 1;
          end if;
          if tg_op = 'UPDATE' then
            if new.workspace_id = old.workspace_id then
              return null;
            end if;
          end if;
          if tg_op <> 'DELETE' then
            insert into graph_versions (workspace_id, version) values (new.workspace_id, 1)
              on conflict (workspace_id) do update set version = graph_versions.version + 1;
          end if;
          return null;
        end $$`.execute(db);
      for (const { table, updates } of WATCHED) {
        const t = sql.table(table);
        await sql`create trigger ${sql.id(`${table}_graph_write`)} after insert or delete on ${t}
          for each row execute function graph_version_bump()`.execute(db);
        await sql`create trigger ${sql.id(`${table}_graph_update`)}
          after update of ${sql.join(updates.map((c) => sql.id(c)))} on ${t}
          for each row when (${changed(updates, 'is distinct from')}) execute function graph_version_bump()`.execute(
          db,
        );
      }
    },
  };
}
