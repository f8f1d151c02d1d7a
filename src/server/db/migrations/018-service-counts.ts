import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.js';

/**
 * How many services each team owns in a workspace, apart for owner-only ones (issue 18): the `total` of a
 * services page is then a sum over a few rows, not a count over every service (3.6 ms at 100,000). Triggers keep
 * it in the statement (so the transaction) that creates, deletes or moves a service, whichever code path writes;
 * the rows of services existing before are counted once here.
 */
export function serviceCountsMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('service_counts')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('owner_team_id', 'text', (c) => c.notNull())
        .addColumn('owner_only', 'integer', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('service_counts_key', ['workspace_id', 'owner_team_id', 'owner_only'])
        .execute();
      await sql`insert into service_counts (workspace_id, owner_team_id, owner_only, n)
        select workspace_id, owner_team_id, case when visibility = 'owner' then 1 else 0 end, count(*)
        from services group by 1, 2, 3`.execute(db);

      const add = (row: 'new' | 'old', delta: number) =>
        sql.raw(`insert into service_counts (workspace_id, owner_team_id, owner_only, n)
          values (${row}.workspace_id, ${row}.owner_team_id, case when ${row}.visibility = 'owner' then 1 else 0 end, ${delta})
          on conflict (workspace_id, owner_team_id, owner_only) do update set n = service_counts.n + (${delta});`);
      const moved =
        'old.workspace_id <> new.workspace_id or old.owner_team_id <> new.owner_team_id or old.visibility <> new.visibility';

      if (engine === 'sqlite') {
        await sql`create trigger services_count_insert after insert on services begin ${add('new', 1)} end`.execute(db);
        await sql`create trigger services_count_delete after delete on services begin ${add('old', -1)} end`.execute(
          db,
        );
        await sql`create trigger services_count_update after update of workspace_id, owner_team_id, visibility on services
          when ${sql.raw(moved)} begin ${add('old', -1)} ${add('new', 1)} end`.execute(db);
        return;
      }
      await sql`create function service_count_change() returns trigger language plpgsql as $$
        begin
          if tg_op <> 'INSERT' then ${add('old', -1)} end if;
          if tg_op <> 'DELETE' then ${add('new', 1)} end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger services_count_write after insert or delete on services
        for each row execute function service_count_change()`.execute(db);
      await sql`create trigger services_count_update after update of workspace_id, owner_team_id, visibility on services
        for each row when (${sql.raw(moved)}) execute function service_count_change()`.execute(db);
    },
  };
}
