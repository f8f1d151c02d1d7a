/**
 * The reads behind the scorecard evaluators' facts (services/reliability/scorecard-facts.ts assembles them): each
 * takes a chunk of services, checks or teams at once, so a workspace's evaluation stays a few dozen reads.
 */
import type { ServiceRow } from '../schema.js';
import type { Db } from './workspaces.js';

/** The columns of a service its facts are made of. */
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

const FACTS_SERVICE_COLUMNS = [
  'id',
  'workspace_id',
  'name',
  'stage',
  'visibility',
  'owner_team_id',
  'description',
  'icon_asset_id',
  'links',
  'created_at',
] as const satisfies readonly (keyof FactsService)[];

/** The workspace's services (or those of `serviceIds`) as their facts need them. */
export function listFactsServices(
  db: Db,
  workspaceId: string,
  serviceIds?: readonly string[],
): Promise<FactsService[]> {
  return db
    .selectFrom('services')
    .select(FACTS_SERVICE_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .$if(serviceIds !== undefined, (qb) => qb.where('id', 'in', serviceIds!.length ? serviceIds! : ['']))
    .execute();
}

/** The health checks of these services, with what the rules read of them. */
export function listFactsChecks(db: Db, workspaceId: string, serviceIds: readonly string[]) {
  return db
    .selectFrom('health_checks')
    .select(['id', 'service_id', 'name', 'kind', 'disabled', 'paused', 'failing', 'frequency'])
    .where('workspace_id', '=', workspaceId)
    .where('service_id', 'in', serviceIds)
    .execute();
}

/** Per check, the start of its latest result and of its latest failure since `since`. */
export function latestResultTimes(db: Db, workspaceId: string, checkIds: readonly string[], since: number) {
  return db
    .selectFrom('health_check_results')
    .select('check_id')
    .select((eb) => [
      eb.fn.max('start').as('last'),
      eb.fn.max(eb.case().when('success', '=', 0).then(eb.ref('start')).end()).as('last_failure'),
    ])
    .where('workspace_id', '=', workspaceId)
    .where('check_id', 'in', checkIds)
    .where('start', '>=', since)
    .groupBy('check_id')
    .execute();
}

/** The certificate (JSON) of each TLS check's latest result that saw one. */
export function latestCertificates(db: Db, workspaceId: string, tlsCheckIds: readonly string[]) {
  return db
    .selectFrom('health_check_results as r')
    .select(['r.check_id', 'r.cert'])
    .where('r.workspace_id', '=', workspaceId)
    .where('r.check_id', 'in', tlsCheckIds)
    .where('r.cert', 'is not', null)
    .where('r.start', '=', (eb) =>
      eb
        .selectFrom('health_check_results as r2')
        .select((inner) => inner.fn.max('r2.start').as('start'))
        .whereRef('r2.check_id', '=', 'r.check_id')
        .where('r2.cert', 'is not', null),
    )
    .execute();
}

/** The SLOs of these services. */
export function listSlosOf(db: Db, workspaceId: string, serviceIds: readonly string[]) {
  return db
    .selectFrom('service_slos')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('service_id', 'in', serviceIds)
    .execute();
}

/** How many members each of these teams has (teams without any are left out). */
export function countTeamMembers(db: Db, workspaceId: string, teamIds: readonly string[]) {
  return db
    .selectFrom('team_members')
    .select('team_id as key')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('team_id', 'in', teamIds)
    .groupBy('team_id')
    .execute();
}

/** What else the rules read of these services, in parallel: one query per source. */
export async function readFactsSources(db: Db, workspaceId: string, serviceIds: readonly string[]) {
  const [openIncidents, publishedSpecs, withChannel, eolDependencies, specChecks, drift] = await Promise.all([
    db
      .selectFrom('notices')
      .select(['service_id', 'health'])
      .where('workspace_id', '=', workspaceId)
      .where('service_id', 'in', serviceIds)
      .where('type', '=', 'incident')
      .where('open', '=', 1)
      .execute(),
    db
      .selectFrom('pages')
      .select('service_id as key')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('service_id', 'in', serviceIds)
      .where('section', '=', 'open-api-specs')
      .where('published_content', 'is not', null)
      .groupBy('service_id')
      .execute(),
    db
      .selectFrom('service_channels')
      .select('service_id')
      .distinct()
      .where('workspace_id', '=', workspaceId)
      .where('service_id', 'in', serviceIds)
      .execute(),
    db
      .selectFrom('service_dependencies')
      .innerJoin('services as dependency', 'dependency.id', 'service_dependencies.dependency_id')
      .select(['service_dependencies.service_id', 'dependency.name'])
      .where('service_dependencies.workspace_id', '=', workspaceId)
      .where('service_dependencies.service_id', 'in', serviceIds)
      .where('dependency.stage', '=', 'eol')
      .orderBy('dependency.name')
      .execute(),
    db
      .selectFrom('health_checks')
      .select('service_id as key')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('service_id', 'in', serviceIds)
      .where('spec_page_id', 'is not', null)
      .where('disabled', '=', 0)
      .groupBy('service_id')
      .execute(),
    db
      .selectFrom('api_drift')
      .select(['service_id', 'method', 'path', 'operation_id'])
      .where('workspace_id', '=', workspaceId)
      .where('service_id', 'in', serviceIds)
      .orderBy('since')
      .execute(),
  ]);
  return { openIncidents, publishedSpecs, withChannel, eolDependencies, specChecks, drift };
}
