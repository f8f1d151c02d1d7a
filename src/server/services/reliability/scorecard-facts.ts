/**
 * What the scorecard evaluators read of many services at once (domain/scorecards.ts ServiceFacts): one query per
 * source for a chunk of services, not one per service, so a full evaluation of a workspace stays a few dozen reads.
 * The SLO status reads the transition logs of a chunk's services with an SLO together (slo.ts sloHealthLogs).
 */
import { operationLabel } from '../../../domain/api-drift.js';
import type { CheckFacts, ServiceFacts } from '../../../domain/scorecards.js';
import type { Health } from '../../../domain/catalogue.js';
import { sloStatus } from '../../../domain/slo.js';
import { chunks } from '../../db/repositories/chunks.js';
import type { Db } from '../../db/repositories/workspaces.js';
import type { ServiceRow } from '../../db/schema.js';
import { sloHealthLogs, sloOf } from './slo.js';

const CHUNK = 400;
/** The longest look back a rule makes at check results: `no_failing_checks` allows a week. */
const RESULTS_LOOKBACK_MS = 7 * 86_400_000;

export type FactsService = Pick<
  ServiceRow,
  | 'id'
  | 'workspace_id'
  | 'name'
  | 'stage'
  | 'visibility'
  | 'owner_team_id'
  | 'description'
  | 'icon_asset_id'
  | 'links'
  | 'created_at'
>;

const num = (value: number | string | null | undefined) =>
  value === null || value === undefined ? null : Number(value);

async function checkFacts(db: Db, workspaceId: string, serviceIds: string[], now: number) {
  const byService = new Map<string, CheckFacts[]>();
  const checks = await db
    .selectFrom('health_checks')
    .select(['id', 'service_id', 'name', 'kind', 'disabled', 'paused', 'failing', 'frequency'])
    .where('workspace_id', '=', workspaceId)
    .where('service_id', 'in', serviceIds)
    .execute();
  if (checks.length === 0) return byService;
  const since = now - RESULTS_LOOKBACK_MS;
  const latest = new Map<string, { last: number | null; lastFailure: number | null }>();
  const certs = new Map<string, number>();
  for (const ids of chunks(
    checks.map((c) => c.id),
    CHUNK,
  )) {
    const rows = await db
      .selectFrom('health_check_results')
      .select('check_id')
      .select((eb) => [
        eb.fn.max('start').as('last'),
        eb.fn.max(eb.case().when('success', '=', 0).then(eb.ref('start')).end()).as('last_failure'),
      ])
      .where('workspace_id', '=', workspaceId)
      .where('check_id', 'in', ids)
      .where('start', '>=', since)
      .groupBy('check_id')
      .execute();
    for (const row of rows) latest.set(row.check_id, { last: num(row.last), lastFailure: num(row.last_failure) });
    const tls = checks.filter((c) => c.kind === 'tls' && ids.includes(c.id)).map((c) => c.id);
    if (tls.length > 0) {
      // The certificate of each TLS check's latest result that saw one.
      const seen = await db
        .selectFrom('health_check_results as r')
        .select(['r.check_id', 'r.cert'])
        .where('r.workspace_id', '=', workspaceId)
        .where('r.check_id', 'in', tls)
        .where('r.cert', 'is not', null)
        .where('r.start', '=', (eb) =>
          eb
            .selectFrom('health_check_results as r2')
            .select((inner) => inner.fn.max('r2.start').as('start'))
            .whereRef('r2.check_id', '=', 'r.check_id')
            .where('r2.cert', 'is not', null),
        )
        .execute();
      for (const row of seen) {
        const notAfter = Date.parse((JSON.parse(row.cert!) as { not_after: string }).not_after);
        if (Number.isFinite(notAfter)) certs.set(row.check_id, notAfter);
      }
    }
  }
  for (const check of checks) {
    const results = latest.get(check.id);
    const notAfter = certs.get(check.id);
    const facts: CheckFacts = {
      name: check.name,
      kind: check.kind,
      running: !check.disabled && !check.paused,
      failing: Boolean(check.failing),
      frequency: check.frequency,
      lastResultAt: results?.last ?? null,
      lastFailureAt: results?.lastFailure ?? null,
      cert: notAfter === undefined ? null : { notAfter },
    };
    byService.set(check.service_id, [...(byService.get(check.service_id) ?? []), facts]);
  }
  return byService;
}

async function sloFacts(db: Db, workspaceId: string, services: FactsService[], now: number) {
  const byService = new Map<string, ServiceFacts['slo']>();
  const rows = await db
    .selectFrom('service_slos')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where(
      'service_id',
      'in',
      services.map((s) => s.id),
    )
    .execute();
  const serviceOf = new Map(services.map((s) => [s.id, s]));
  const slos = rows.map((row) => ({ service: serviceOf.get(row.service_id)!, slo: sloOf(row) }));
  const logs = await sloHealthLogs(db, workspaceId, slos, now);
  for (const { service, slo } of slos) {
    const status = sloStatus(slo, logs.get(service.id)!);
    byService.set(service.id, {
      target: slo.target,
      availability: status.availability,
      leftSeconds: status.budget.left_seconds,
      exhaustedAt: status.exhausted_at,
    });
  }
  return byService;
}

function countBy<K>(rows: ReadonlyArray<{ key: K; n: number | string }>): Map<K, number> {
  return new Map(rows.map((row) => [row.key, Number(row.n)]));
}

/** The facts of each of `services` (all of one workspace) at `now`, by service id. */
export async function gatherFacts(
  db: Db,
  workspaceId: string,
  services: readonly FactsService[],
  now: number,
): Promise<Map<string, ServiceFacts>> {
  const facts = new Map<string, ServiceFacts>();
  const teamIds = [...new Set(services.map((s) => s.owner_team_id))];
  const members = new Map<string, number>();
  for (const ids of chunks(teamIds, CHUNK)) {
    const rows = await db
      .selectFrom('team_members')
      .select('team_id as key')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('team_id', 'in', ids)
      .groupBy('team_id')
      .execute();
    for (const [team, n] of countBy(rows)) members.set(team, n);
  }
  for (const chunk of chunks(services, CHUNK)) {
    const ids = chunk.map((s) => s.id);
    const [checks, slos, incidents, specs, channels, eol, specChecks, drift] = await Promise.all([
      checkFacts(db, workspaceId, ids, now),
      sloFacts(db, workspaceId, chunk, now),
      db
        .selectFrom('notices')
        .select(['service_id', 'health'])
        .where('workspace_id', '=', workspaceId)
        .where('service_id', 'in', ids)
        .where('type', '=', 'incident')
        .where('open', '=', 1)
        .execute(),
      db
        .selectFrom('pages')
        .select('service_id as key')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('service_id', 'in', ids)
        .where('section', '=', 'open-api-specs')
        .where('published_content', 'is not', null)
        .groupBy('service_id')
        .execute(),
      db
        .selectFrom('service_channels')
        .select('service_id')
        .distinct()
        .where('workspace_id', '=', workspaceId)
        .where('service_id', 'in', ids)
        .execute(),
      db
        .selectFrom('service_dependencies')
        .innerJoin('services as dependency', 'dependency.id', 'service_dependencies.dependency_id')
        .select(['service_dependencies.service_id', 'dependency.name'])
        .where('service_dependencies.workspace_id', '=', workspaceId)
        .where('service_dependencies.service_id', 'in', ids)
        .where('dependency.stage', '=', 'eol')
        .orderBy('dependency.name')
        .execute(),
      db
        .selectFrom('health_checks')
        .select('service_id as key')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('service_id', 'in', ids)
        .where('spec_page_id', 'is not', null)
        .where('disabled', '=', 0)
        .groupBy('service_id')
        .execute(),
      db
        .selectFrom('api_drift')
        .select(['service_id', 'method', 'path', 'operation_id'])
        .where('workspace_id', '=', workspaceId)
        .where('service_id', 'in', ids)
        .orderBy('since')
        .execute(),
    ]);
    const specCheckCounts = countBy(specChecks);
    const specCounts = countBy(specs);
    const withChannel = new Set(channels.map((row) => row.service_id));
    for (const service of chunk) {
      facts.set(service.id, {
        now,
        stage: service.stage,
        visibility: service.visibility,
        teamId: service.owner_team_id,
        description: service.description,
        hasIcon: service.icon_asset_id !== null,
        links: JSON.parse(service.links) as ServiceFacts['links'],
        slo: slos.get(service.id) ?? null,
        checks: checks.get(service.id) ?? [],
        // An incident opened without a health is read as a warning.
        openIncidents: incidents
          .filter((row) => row.service_id === service.id)
          .map((row): Health => row.health ?? 'warning'),
        publishedSpecs: specCounts.get(service.id) ?? 0,
        teamMembers: members.get(service.owner_team_id) ?? 0,
        hasChannel: withChannel.has(service.id),
        eolDependencies: eol.filter((row) => row.service_id === service.id).map((row) => row.name),
        apiDrift: {
          specChecks: specCheckCounts.get(service.id) ?? 0,
          drifting: drift.filter((row) => row.service_id === service.id).map(operationLabel),
        },
      });
    }
  }
  return facts;
}
