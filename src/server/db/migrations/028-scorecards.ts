import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.js';
import { createVersionTriggers, type VersionedTable } from './version-triggers.js';

/**
 * What a scorecard read shows besides the catalogue: the definitions, the results and the exemptions. Every write
 * to them bumps the workspace's scorecard version, so a process may keep those reads' answers while it stays
 * (cache/catalogue-cache.ts), whichever process evaluates.
 */
export const SCORECARD_TABLES: readonly VersionedTable[] = [
  {
    table: 'scorecards',
    updates: ['handle', 'name', 'description', 'applies_to', 'levels', 'rules', 'evaluated_at', 'updated_at'],
  },
  {
    table: 'scorecard_results',
    updates: ['owner_team_id', 'service_name', 'owner_only', 'level_rank', 'score', 'rules', 'evaluated_at'],
  },
  { table: 'scorecard_exemptions', updates: ['reason', 'expires_at'] },
];

/**
 * Scorecards (docs/decisions.md#slos-and-scorecards, issue 28): the definitions (levels and rules as JSON, applies-to
 * by team id), each service's current results, every change of a result (the history trends replay), and exemptions.
 */
export function scorecardsMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('scorecards')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('handle', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('applies_to', 'text', (c) => c.notNull())
        .addColumn('levels', 'text', (c) => c.notNull())
        .addColumn('rules', 'text', (c) => c.notNull())
        // When every service was last evaluated (epoch ms): the time a result unchanged since is true as of.
        .addColumn('evaluated_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('scorecards_handle', ['workspace_id', 'handle'])
        .execute();

      await db.schema
        .createTable('scorecard_results')
        .addColumn('scorecard_id', 'text', (c) => c.notNull().references('scorecards.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('owner_team_id', 'text', (c) => c.notNull())
        .addColumn('service_name', 'text', (c) => c.notNull())
        // 1 for an owner-only service: counts leave it out for those who may not see it.
        .addColumn('owner_only', 'integer', (c) => c.notNull())
        // The reached level's position (-1: none), so a filter on the level is an index range.
        .addColumn('level_rank', 'integer', (c) => c.notNull())
        .addColumn('score', 'integer')
        .addColumn('rules', 'text', (c) => c.notNull())
        .addColumn('evaluated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('scorecard_results_pk', ['scorecard_id', 'service_id'])
        .execute();
      // The matrix's pages: by name within a scorecard, optionally within a team or a level.
      await db.schema
        .createIndex('scorecard_results_by_name')
        .on('scorecard_results')
        .columns(['scorecard_id', 'service_name', 'service_id'])
        .execute();
      await db.schema
        .createIndex('scorecard_results_by_team')
        .on('scorecard_results')
        .columns(['scorecard_id', 'owner_team_id', 'service_name'])
        .execute();
      await db.schema
        .createIndex('scorecard_results_by_level')
        .on('scorecard_results')
        .columns(['scorecard_id', 'level_rank', 'service_name', 'service_id'])
        .execute();
      await db.schema
        .createIndex('scorecard_results_by_service')
        .on('scorecard_results')
        .columns(['workspace_id', 'service_id'])
        .execute();

      await countResults(db, engine);

      await db.schema
        .createTable('scorecard_result_changes')
        .addColumn('scorecard_id', 'text', (c) => c.notNull().references('scorecards.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('level_rank', 'integer', (c) => c.notNull())
        .addColumn('score', 'integer')
        .addColumn('rules', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('scorecard_result_changes_by_time')
        .on('scorecard_result_changes')
        .columns(['scorecard_id', 'at'])
        .execute();

      await db.schema
        .createTable('scorecard_exemptions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('scorecard_id', 'text', (c) => c.notNull().references('scorecards.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('rule_key', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('scorecard_exemptions_by_service')
        .on('scorecard_exemptions')
        .columns(['scorecard_id', 'service_id', 'rule_key'])
        .execute();

      await createVersionTriggers(db, engine, 'scorecard', SCORECARD_TABLES, { perStatement: true });
    },
  };
}

/**
 * How many results each scorecard has per owner team, visibility and level (as service_counts does for services,
 * migration 018): a page's `total` and a scorecard's level spread are sums over a few rows, not counts over every
 * result (8 ms a request at 10,000 services). Triggers keep it in the statement that writes the results.
 */
async function countResults(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('scorecard_counts')
    .addColumn('scorecard_id', 'text', (c) => c.notNull().references('scorecards.id').onDelete('cascade'))
    .addColumn('owner_team_id', 'text', (c) => c.notNull())
    .addColumn('owner_only', 'integer', (c) => c.notNull())
    .addColumn('level_rank', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('scorecard_counts_key', ['scorecard_id', 'owner_team_id', 'owner_only', 'level_rank'])
    .execute();
  const add = (row: 'new' | 'old', delta: number) =>
    sql.raw(`insert into scorecard_counts (scorecard_id, owner_team_id, owner_only, level_rank, n)
      values (${row}.scorecard_id, ${row}.owner_team_id, ${row}.owner_only, ${row}.level_rank, ${delta})
      on conflict (scorecard_id, owner_team_id, owner_only, level_rank) do update set n = scorecard_counts.n + (${delta});`);
  if (engine === 'sqlite') {
    const moved =
      'old.owner_team_id <> new.owner_team_id or old.owner_only <> new.owner_only or old.level_rank <> new.level_rank';
    await sql`create trigger scorecard_results_count_insert after insert on scorecard_results begin ${add('new', 1)} end`.execute(
      db,
    );
    await sql`create trigger scorecard_results_count_delete after delete on scorecard_results begin ${add('old', -1)} end`.execute(
      db,
    );
    await sql`create trigger scorecard_results_count_update after update of owner_team_id, owner_only, level_rank on scorecard_results
      when ${sql.raw(moved)} begin ${add('old', -1)} ${add('new', 1)} end`.execute(db);
    return;
  }
  // PostgreSQL: once per statement, from its transition tables. A row trigger would update the same few count rows
  // once per result, and a first evaluation (30,000 results in one transaction) then walks ever longer chains of
  // their dead versions: 12 s to save, against 2 s this way.
  const tally = (rows: 'new_rows' | 'old_rows', sign: '' | '-') =>
    sql.raw(`insert into scorecard_counts (scorecard_id, owner_team_id, owner_only, level_rank, n)
      select scorecard_id, owner_team_id, owner_only, level_rank, ${sign}count(*) from ${rows}
      group by scorecard_id, owner_team_id, owner_only, level_rank
      on conflict (scorecard_id, owner_team_id, owner_only, level_rank) do update set n = scorecard_counts.n + excluded.n;`);
  const counting = [
    ['insert', 'new table as new_rows', tally('new_rows', '')],
    ['delete', 'old table as old_rows', tally('old_rows', '-')],
    [
      'update',
      'old table as old_rows new table as new_rows',
      sql.join([tally('old_rows', '-'), tally('new_rows', '')], sql.raw(' ')),
    ],
  ] as const;
  for (const [event, transitions, body] of counting) {
    await sql`create function ${sql.id(`scorecard_counts_${event}`)}() returns trigger language plpgsql as $$
      begin ${body} return null; end $$`.execute(db);
    await sql`create trigger ${sql.id(`scorecard_results_count_${event}`)} after ${sql.raw(event)} on scorecard_results
      referencing ${sql.raw(transitions)} for each statement execute function ${sql.id(`scorecard_counts_${event}`)}()`.execute(
      db,
    );
  }
}
