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
import {
  countTeamMembers,
  latestCertificates,
  latestResultTimes,
  listFactsChecks,
  listSlosOf,
  readFactsSources,
  type FactsService,
} from '../../db/repositories/scorecard-facts.js';
import { sloHealthLogs, sloOf } from './slo.js';

const CHUNK = 400;
/** The longest look back a rule makes at check results: `no_failing_checks` allows a week. */
const RESULTS_LOOKBACK_MS = 7 * 86_400_000;

const num = (value: number | string | null | undefined) =>
  value === null || value === undefined ? null : Number(value);

async function checkFacts(db: Db, workspaceId: string, serviceIds: string[], now: number) {
  const byService = new Map<string, CheckFacts[]>();
  const checks = await listFactsChecks(db, workspaceId, serviceIds);
  if (checks.length === 0) return byService;
  const since = now - RESULTS_LOOKBACK_MS;
  const latest = new Map<string, { last: number | null; lastFailure: number | null }>();
  const certs = new Map<string, number>();
  for (const ids of chunks(
    checks.map((c) => c.id),
    CHUNK,
  )) {
    const rows = await latestResultTimes(db, workspaceId, ids, since);
    for (const row of rows) latest.set(row.check_id, { last: num(row.last), lastFailure: num(row.last_failure) });
    const tls = checks.filter((c) => c.kind === 'tls' && ids.includes(c.id)).map((c) => c.id);
    if (tls.length > 0) {
      // The certificate of each TLS check's latest result that saw one.
      const seen = await latestCertificates(db, workspaceId, tls);
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
  const rows = await listSlosOf(
    db,
    workspaceId,
    services.map((s) => s.id),
  );
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
    const rows = await countTeamMembers(db, workspaceId, ids);
    for (const [team, n] of countBy(rows)) members.set(team, n);
  }
  for (const chunk of chunks(services, CHUNK)) {
    const ids = chunk.map((s) => s.id);
    const [checks, slos, sources] = await Promise.all([
      checkFacts(db, workspaceId, ids, now),
      sloFacts(db, workspaceId, chunk, now),
      readFactsSources(db, workspaceId, ids),
    ]);
    const { openIncidents: incidents, publishedSpecs: specs, withChannel: channels, eolDependencies: eol } = sources;
    const { specChecks, drift } = sources;
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
