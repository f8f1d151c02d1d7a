import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.js';

/**
 * What a scorecard rule reads changed (issue 48 item 7): triggers log, in the statement that writes it, the service
 * (or the team) a write of a fact concerns, in a workspace that has a scorecard, whichever process or script writes.
 * Each process's refresh (jobs/scorecard-sweep.ts) takes the rows it finds and evaluates those services, so a result
 * follows its facts within a second, on both engines. Time alone (a budget burning, a result growing stale) is the
 * sweep's.
 */

/** SQL over the row a trigger sees (`new`, `old`, or PostgreSQL's transition row `r`). */
type Expression = (row: string) => string;

interface Watched {
  table: string;
  /** The service the row concerns; a team's for memberships. */
  service?: Expression;
  team?: Expression;
  /** The writes that log (default insert and delete). */
  events?: readonly ('insert' | 'delete')[];
  /** Columns whose update logs. */
  updates?: readonly string[];
  /** A further condition on the row (may read other tables). */
  only?: Expression;
}

/** How long a check's latest result is read as current (domain/scorecards.ts resultFreshFor), in SQL. */
const freshForMs = (check: string) => `(3 * ${check}.frequency + 300) * 1000`;

/** One entry per fact of domain/scorecards.ts ServiceFacts (scorecard-facts.ts gathers them). */
export const WATCHED: readonly Watched[] = [
  // stage, visibility, team (applies-to, live_has_check), description, icon, links (field_set, has_link); a rename
  // is the stored name. A dependency's stage reaches its dependents through the refresh.
  {
    table: 'services',
    service: (r) => `${r}.id`,
    events: ['insert'],
    updates: ['name', 'stage', 'visibility', 'owner_team_id', 'description', 'icon_asset_id', 'links'],
  },
  { table: 'service_dependencies', service: (r) => `${r}.service_id` },
  { table: 'service_slos', service: (r) => `${r}.service_id`, updates: ['target_thousandths', 'window_days'] },
  // The SLO's availability (slo_met) moves with a service's health.
  {
    table: 'health_transitions',
    service: (r) => `${r}.service_id`,
    events: ['insert'],
    only: (r) => `exists (select 1 from service_slos o where o.service_id = ${r}.service_id)`,
  },
  {
    table: 'health_checks',
    service: (r) => `${r}.service_id`,
    updates: ['name', 'kind', 'disabled', 'paused', 'failing', 'frequency', 'spec_page_id'],
  },
  // A result is a new fact when it failed (no_failing_checks), saw another certificate (cert_days_left), or is the
  // first current one of its check (a check without a recent result is unknown). Others only move its time.
  {
    table: 'health_check_results',
    service: (r) => `(select c.service_id from health_checks c where c.id = ${r}.check_id)`,
    events: ['insert'],
    only: (r) => `(${r}.success = 0
      or (${r}.cert is not null and coalesce((select p.cert from health_check_results p
        where p.check_id = ${r}.check_id and p.start < ${r}.start and p.cert is not null
        order by p.start desc limit 1), '') <> ${r}.cert)
      or not exists (select 1 from health_check_results p, health_checks c
        where c.id = ${r}.check_id and p.check_id = ${r}.check_id and p.start < ${r}.start
        and p.start >= ${r}.start - ${freshForMs('c')}))`,
  },
  { table: 'notices', service: (r) => `${r}.service_id`, updates: ['type', 'open', 'health'] },
  {
    table: 'pages',
    service: (r) => `${r}.service_id`,
    updates: ['published_content'],
    only: (r) => `${r}.section = 'open-api-specs'`,
  },
  { table: 'service_channels', service: (r) => `${r}.service_id` },
  { table: 'api_drift', service: (r) => `${r}.service_id`, updates: ['operation_id', 'method', 'path'] },
  // team_size: every service of the team.
  { table: 'team_members', team: (r) => `${r}.team_id` },
];

/** The touch of `row`, when its workspace has a scorecard (and the spec's condition holds). */
function touch(spec: Watched, row: string, from = ''): string {
  const conditions = [`exists (select 1 from scorecards s where s.workspace_id = ${row}.workspace_id)`];
  if (spec.only) conditions.push(spec.only(row));
  return `insert into scorecard_touches (workspace_id, service_id, team_id)
    select distinct ${row}.workspace_id, ${spec.service?.(row) ?? 'null'}, ${spec.team?.(row) ?? 'null'}${from}
    where ${conditions.join(' and ')};`;
}

export function scorecardTouchesMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('scorecard_touches')
        .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
          engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('service_id', 'text')
        .addColumn('team_id', 'text')
        .execute();
      for (const spec of WATCHED) {
        if (engine === 'sqlite') await sqliteTriggers(db, spec);
        else await postgresTriggers(db, spec);
      }
    },
  };
}

async function sqliteTriggers(db: Kysely<unknown>, spec: Watched): Promise<void> {
  const t = sql.table(spec.table);
  for (const event of spec.events ?? ['insert', 'delete']) {
    const row = event === 'insert' ? 'new' : 'old';
    await sql`create trigger ${sql.id(`${spec.table}_scorecard_${event}`)} after ${sql.raw(event)} on ${t}
      begin ${sql.raw(touch(spec, row))} end`.execute(db);
  }
  if (!spec.updates?.length) return;
  await sql`create trigger ${sql.id(`${spec.table}_scorecard_update`)}
    after update of ${sql.join(spec.updates.map((c) => sql.id(c)))} on ${t}
    when ${sql.raw(spec.updates.map((c) => `old.${c} is not new.${c}`).join(' or '))}
    begin ${sql.raw(touch(spec, 'new'))} end`.execute(db);
}

/**
 * PostgreSQL: inserts and deletes once per statement from their transition tables (an import or a runner's batch
 * writes hundreds of rows in one); updates per row, filtered by column.
 */
async function postgresTriggers(db: Kysely<unknown>, spec: Watched): Promise<void> {
  for (const event of spec.events ?? ['insert', 'delete']) {
    const transition = event === 'insert' ? 'new' : 'old';
    const fn = sql.id(`${spec.table}_scorecard_${event}_rows`);
    await sql`create function ${fn}() returns trigger language plpgsql as $$
      begin ${sql.raw(touch(spec, 'r', ` from ${transition}_rows r`))} return null; end $$`.execute(db);
    await sql`create trigger ${sql.id(`${spec.table}_scorecard_${event}`)} after ${sql.raw(event)}
      on ${sql.table(spec.table)} referencing ${sql.raw(transition)} table as ${sql.raw(`${transition}_rows`)}
      for each statement execute function ${fn}()`.execute(db);
  }
  if (!spec.updates?.length) return;
  const fn = sql.id(`${spec.table}_scorecard_update_row`);
  await sql`create function ${fn}() returns trigger language plpgsql as $$
    begin ${sql.raw(touch(spec, 'new'))} return null; end $$`.execute(db);
  await sql`create trigger ${sql.id(`${spec.table}_scorecard_update`)}
    after update of ${sql.join(spec.updates.map((c) => sql.id(c)))} on ${sql.table(spec.table)}
    for each row when (${sql.raw(spec.updates.map((c) => `old.${c} is distinct from new.${c}`).join(' or '))})
    execute function ${fn}()`.execute(db);
}
