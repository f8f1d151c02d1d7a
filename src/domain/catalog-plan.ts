/**
 * Plan before apply (docs/decisions.md#catalogue-as-code, issue 29): what applying a set of descriptor files would do
 * to the catalogue, per entity: create, update (with a field-level diff), unchanged, delete, conflict, error or
 * skipped, and which references cannot be resolved yet. Pure: the server reads the catalogue into {@link
 * CurrentCatalogue}, plans, and applies the plan's writes. One bad entity never blocks the others.
 */
import type { Stage, Visibility } from './catalogue.js';
import type {
  ApiEntity,
  CatalogEntity,
  DescriptorProblem,
  ReadDescriptors,
  ServiceEntity,
  SourcePlace,
  TeamEntity,
} from './descriptors.js';
import { formatSloAnnotation } from './slo.js';

export const PLAN_ACTIONS = ['create', 'update', 'unchanged', 'delete', 'conflict', 'error', 'skipped'] as const;
export type PlanAction = (typeof PLAN_ACTIONS)[number];
export const SOURCE_MODES = ['authoritative', 'seed'] as const;
export type SourceMode = (typeof SOURCE_MODES)[number];

export interface FieldDiff {
  field: string;
  from: unknown;
  to: unknown;
}

/** One line of a plan, as the API answers it. */
export interface PlanChange {
  kind: string;
  handle: string;
  action: PlanAction;
  diff?: FieldDiff[];
  errors?: DescriptorProblem[];
  /** Why a conflict, a skip or a delete. */
  message?: string;
  /** References to what exists neither in Beacon nor in the files: left out until they do. */
  unresolved?: string[];
  /** Where the entity is described. */
  path?: string;
  line?: number;
}

/** Where a managed entity comes from. */
export interface Manager {
  sourceId: string;
  sourceName: string;
  mode: SourceMode;
}

interface CurrentEntity {
  id: string;
  handle: string;
  name: string;
  description: string | null;
  links: Array<{ name: string; url: string }>;
  managedBy: Manager | null;
  /** The file this source last read it from (managed entities). */
  path: string | null;
}

/** A service's SLO, as its annotation and its settings say it. */
export interface PlannedSlo {
  target: number;
  window_days: number;
}

/** A published OpenAPI spec page. */
export interface CurrentSpec {
  handle: string;
  title: string;
  content: string;
}

export interface CurrentService extends CurrentEntity {
  owner: string;
  stage: Stage;
  visibility: Visibility;
  /** `handle`, or `workspace/handle` for another workspace's service. */
  dependsOn: string[];
  /** The endpoint of its check named {@link CATALOG_CHECK_NAME}, the one a health-check-url annotation makes. */
  healthCheckUrl: string | null;
  slo: PlannedSlo | null;
  slackChannel: string | null;
  /** Its published OpenAPI spec pages. */
  specs: readonly CurrentSpec[];
}

/** The name of the HTTP check a `beacon.io/health-check-url` annotation keeps. */
export const CATALOG_CHECK_NAME = 'Health check URL';

export interface CurrentTeam extends CurrentEntity {
  parent: string | null;
  members: string[];
  /** Those of its members who are its admins (a file never removes them). */
  admins: string[];
}

/** The catalogue as a plan compares against it. */
export interface CurrentCatalogue {
  services: readonly CurrentService[];
  teams: readonly CurrentTeam[];
  /** Handles of the workspace's users. */
  users: ReadonlySet<string>;
  /** Domains of the linked remote workspaces. */
  remotes: ReadonlySet<string>;
}

export interface PlanSource {
  id: string;
  name: string;
  mode: SourceMode;
}

/** What applying a change writes: the entity with its references resolved (what is left out is unresolved). */
export interface ServiceWrite {
  kind: 'service';
  action: 'create' | 'update' | 'unchanged';
  id: string | null;
  handle: string;
  name: string;
  description: string | null;
  owner: string;
  stage: Stage;
  visibility: Visibility | null;
  links: Array<{ name: string; url: string }>;
  dependsOn: string[];
  /** What its annotations set; null leaves the setting to the UI. */
  healthCheckUrl: string | null;
  slo: PlannedSlo | null;
  slackChannel: string | null;
  /** The handles of the APIs in the files it provides. */
  apis: string[];
  place: SourcePlace;
}

/** An API's definition published as a spec page of a service that provides it (created or replaced). */
export interface SpecWrite {
  kind: 'spec';
  /** The service's handle. */
  service: string;
  /** The page's handle: the API's. */
  handle: string;
  title: string;
  content: string;
  place: SourcePlace;
}

export interface TeamWrite {
  kind: 'team';
  action: 'create' | 'update' | 'unchanged';
  id: string | null;
  handle: string;
  name: string;
  description: string | null;
  parent: string | null;
  /** Members to add (the existing users the file names). */
  members: string[];
  /** Members to remove: an authoritative file's team keeps only those it names, and its admins. */
  removeMembers: string[];
  place: SourcePlace;
}

/** How each handle this source describes stands after the apply (the managed rows). */
export interface EntityStanding {
  kind: 'service' | 'team';
  handle: string;
  id: string | null;
  state: 'synced' | 'errored' | 'orphaned' | 'conflict';
  reason: string | null;
  place: SourcePlace;
  /** The settings its annotations decide (a synced service of an authoritative source). */
  settings: AnnotatedSetting[];
}

export interface CatalogPlan {
  changes: PlanChange[];
  writes: Array<ServiceWrite | TeamWrite>;
  specs: SpecWrite[];
  /** Entities to orphan (a source's, gone from its files). */
  orphans: Array<{ kind: 'service' | 'team'; id: string; handle: string }>;
  standings: EntityStanding[];
}

const KIND_WORDS = { service: 'service', team: 'team' } as const;
const sortedRefs = (refs: readonly string[]) => [...new Set(refs)].sort();
const blankToNull = (text: string | null) => (text?.trim() ? text : null);
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A set of entities by handle, and by the previous names they declare. */
function byHandle<T extends { handle: string }>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((item) => [item.handle, item]));
}

function diffOf(pairs: Array<[string, unknown, unknown]>): FieldDiff[] {
  return pairs.filter(([, from, to]) => !sameJson(from, to)).map(([field, from, to]) => ({ field, from, to }));
}

/**
 * Whether this plan may write an existing entity, or the conflict that says who owns it. Without a source, a
 * plan writes hand-made entities; a source writes its own, and a seed source leaves existing ones as they are.
 */
function ownership(
  current: CurrentEntity,
  source: PlanSource | null,
  kind: 'service' | 'team',
): 'mine' | 'leave' | string {
  const manager = current.managedBy;
  if (manager && manager.mode === 'authoritative' && manager.sourceId !== source?.id) {
    return `The ${KIND_WORDS[kind]} ${current.handle} is managed in ${manager.sourceName}: change it there`;
  }
  if (!source) return 'mine';
  if (source.mode === 'seed') return 'leave';
  if (manager?.sourceId === source.id) return 'mine';
  return `A ${KIND_WORDS[kind]} made in Beacon already has the handle ${current.handle}: rename or delete it first`;
}

/** Finds the current entity an entity describes: by its handle, else by a name it had before (a rename). */
function existingOf<T extends CurrentEntity>(
  entity: { handle: string; previousNames: string[] },
  current: ReadonlyMap<string, T>,
  claimed: ReadonlySet<string>,
): T | undefined {
  const same = current.get(entity.handle);
  if (same) return same;
  for (const previous of entity.previousNames) {
    const found = current.get(previous);
    if (found && !claimed.has(previous)) return found;
  }
  return undefined;
}

export function planCatalog(read: ReadDescriptors, current: CurrentCatalogue, source: PlanSource | null): CatalogPlan {
  const plan: CatalogPlan = { changes: [], writes: [], specs: [], orphans: [], standings: [] };
  const services = byHandle(current.services);
  const teams = byHandle(current.teams);
  const described = read.entities.filter((e): e is ServiceEntity | TeamEntity => e.kind !== 'api');
  const describedHandles = {
    service: new Set(described.filter((e) => e.kind === 'service').map((e) => e.handle)),
    team: new Set(described.filter((e) => e.kind === 'team').map((e) => e.handle)),
  };
  // Teams first: a service's owner may be a team the same files create.
  const knownTeams = new Set([...teams.keys(), ...describedHandles.team]);
  const knownServices = new Set([...services.keys(), ...describedHandles.service]);
  const apis = read.entities.filter((e): e is ApiEntity => e.kind === 'api');
  const knownApis = new Set(apis.map((api) => api.handle));

  for (const entity of described) {
    if (entity.kind === 'team') planTeam(plan, entity, teams, describedHandles.team, knownTeams, current, source);
  }
  // Services the files describe as they are but this plan may not write (another's): their APIs are compared too.
  const held: ServiceWrite[] = [];
  for (const entity of described) {
    if (entity.kind === 'service') {
      const known = { teams: knownTeams, services: knownServices, apis: knownApis };
      const write = planService(plan, entity, services, describedHandles.service, known, current, source);
      if (write) held.push(write);
    }
  }
  const servicesById = new Map(apis.length > 0 ? current.services.map((s) => [s.id, s]) : []);
  for (const api of apis) planApi(plan, api, servicesById, held);
  for (const errored of read.errored) {
    plan.changes.push({
      kind: errored.kind ?? 'unknown',
      handle: errored.handle ?? '',
      action: 'error',
      errors: errored.errors,
      ...(errored.errors[0] ? { path: errored.errors[0].path, line: errored.errors[0].line } : {}),
    });
    const existing = errored.handle
      ? errored.kind === 'service'
        ? services.get(errored.handle)
        : errored.kind === 'team'
          ? teams.get(errored.handle)
          : undefined
      : undefined;
    // Said on the source's list too, for a new entity as for one that keeps its last good version.
    if (source && errored.handle && (errored.kind === 'service' || errored.kind === 'team') && errored.errors[0]) {
      const [first] = errored.errors;
      plan.standings.push({
        kind: errored.kind,
        handle: errored.handle,
        id: existing?.managedBy?.sourceId === source.id ? existing.id : null,
        state: 'errored',
        reason: `${first.path}:${first.line}: ${first.message}`,
        place: { path: first.path, line: first.line },
        settings: [],
      });
    }
  }
  for (const skipped of read.skipped) {
    plan.changes.push({
      kind: skipped.kind,
      handle: skipped.name,
      action: 'skipped',
      message: skipped.reason,
      path: skipped.path,
      line: skipped.line,
    });
  }
  for (const problem of read.problems) {
    plan.changes.push({ kind: 'file', handle: '', action: 'error', errors: [problem], ...problem });
  }
  if (source?.mode === 'authoritative') planDeletes(plan, read, current, source);
  return plan;
}

const placeOf = (entity: CatalogEntity) => ({ path: entity.place.path, line: entity.place.line });

function planTeam(
  plan: CatalogPlan,
  entity: TeamEntity,
  teams: ReadonlyMap<string, CurrentTeam>,
  described: ReadonlySet<string>,
  knownTeams: ReadonlySet<string>,
  current: CurrentCatalogue,
  source: PlanSource | null,
): void {
  const existing = existingOf(entity, teams, described);
  const unresolved: string[] = [];
  let parent = entity.parent;
  if (parent !== null && (!knownTeams.has(parent) || parent === entity.handle)) {
    unresolved.push(`group:${parent}`);
    parent = null;
  }
  const named = entity.members ?? [];
  const members = sortedRefs(named.filter((handle) => current.users.has(handle)));
  for (const handle of named) if (!current.users.has(handle)) unresolved.push(`user:${handle}`);
  // An authoritative file that names members says who they are (a team's admins stay); otherwise it only adds.
  const exact = entity.members !== null && source?.mode === 'authoritative';
  const removeMembers =
    exact && existing ? existing.members.filter((m) => !members.includes(m) && !existing.admins.includes(m)) : [];
  const write: TeamWrite = {
    kind: 'team',
    action: 'create',
    id: existing?.id ?? null,
    handle: entity.handle,
    name: entity.name,
    description: blankToNull(entity.description),
    parent,
    members,
    removeMembers: sortedRefs(removeMembers),
    place: entity.place,
  };
  const diff = (team: CurrentTeam) =>
    diffOf([
      ['handle', team.handle, write.handle],
      ['name', team.name, write.name],
      ['description', team.description, write.description],
      ['parent', team.parent, write.parent],
      [
        'members',
        sortedRefs(team.members),
        sortedRefs([...team.members, ...members].filter((m) => !write.removeMembers.includes(m))),
      ],
    ]);
  planEntity(plan, 'team', write, existing, diff, unresolved, source);
}

/** Plans a service; answers its write when the plan holds it unchanged without writing it (another's). */
function planService(
  plan: CatalogPlan,
  entity: ServiceEntity,
  services: ReadonlyMap<string, CurrentService>,
  described: ReadonlySet<string>,
  known: { teams: ReadonlySet<string>; services: ReadonlySet<string>; apis: ReadonlySet<string> },
  current: CurrentCatalogue,
  source: PlanSource | null,
): ServiceWrite | null {
  const existing = existingOf(entity, services, described);
  if (!known.teams.has(entity.owner)) {
    plan.changes.push({
      kind: 'service',
      handle: entity.handle,
      action: 'error',
      errors: [{ ...entity.place, message: `The owner team ${entity.owner} is neither in Beacon nor in the files` }],
      ...placeOf(entity),
    });
    return null;
  }
  const unresolved: string[] = [];
  const dependsOn: string[] = [];
  for (const dependency of entity.dependsOn) {
    if (dependency.workspace === null) {
      if (known.services.has(dependency.handle) && dependency.handle !== entity.handle) {
        dependsOn.push(dependency.handle);
      } else unresolved.push(`component:${dependency.handle}`);
    } else if (current.remotes.has(dependency.workspace)) {
      dependsOn.push(`${dependency.workspace}/${dependency.handle}`);
    } else unresolved.push(`component:${dependency.workspace}/${dependency.handle}`);
  }
  for (const api of entity.providesApis) if (!known.apis.has(api)) unresolved.push(`api:${api}`);
  const write: ServiceWrite = {
    kind: 'service',
    action: 'create',
    id: existing?.id ?? null,
    handle: entity.handle,
    name: entity.name,
    description: blankToNull(entity.description),
    owner: entity.owner,
    stage: entity.stage,
    visibility: entity.visibility,
    links: entity.links,
    dependsOn: sortedRefs(dependsOn),
    healthCheckUrl: entity.healthCheckUrl,
    slo: entity.slo,
    slackChannel: entity.slackChannel,
    apis: sortedRefs(entity.providesApis.filter((api) => known.apis.has(api))),
    place: entity.place,
  };
  // Without an annotation, its setting is the UI's.
  const diff = (service: CurrentService) =>
    diffOf([
      ['handle', service.handle, write.handle],
      ['name', service.name, write.name],
      ['description', service.description, write.description],
      ['owner', service.owner, write.owner],
      ['stage', service.stage, write.stage],
      // Without the annotation, the visibility is the UI's to set.
      ['visibility', service.visibility, write.visibility ?? service.visibility],
      ['links', service.links, write.links],
      ['depends_on', sortedRefs(service.dependsOn), write.dependsOn],
      ['health_check_url', service.healthCheckUrl, write.healthCheckUrl ?? service.healthCheckUrl],
      ['slo', sloText(service.slo), sloText(write.slo ?? service.slo)],
      ['slack_channel', service.slackChannel, write.slackChannel ?? service.slackChannel],
    ]);
  return planEntity(plan, 'service', write, existing, diff, unresolved, source) ? write : null;
}

/**
 * One entity's line, write and standing; answers true when it is another's (a source's, or Beacon's for a source)
 * and the files describe it as it is: unchanged, not written. Only a change of another's entity is a conflict.
 */
function planEntity<W extends ServiceWrite | TeamWrite, C extends CurrentEntity>(
  plan: CatalogPlan,
  kind: 'service' | 'team',
  write: W,
  existing: C | undefined,
  diffWith: (current: C) => FieldDiff[],
  unresolved: string[],
  source: PlanSource | null,
): boolean {
  const place = { path: write.place.path, line: write.place.line };
  const extra = unresolved.length > 0 ? { unresolved } : {};
  if (!existing) {
    const diff = diffOf(Object.entries(write).flatMap(([field, to]) => creationField(field, to)));
    plan.changes.push({ kind, handle: write.handle, action: 'create', diff, ...extra, ...place });
    plan.writes.push(write);
    if (source) plan.standings.push(standing(kind, write, null, 'synced', null));
    return false;
  }
  const owner = ownership(existing, source, kind);
  if (owner === 'leave') {
    plan.changes.push({
      kind,
      handle: write.handle,
      action: 'unchanged',
      message: 'Seeded: Beacon owns it now',
      ...place,
    });
    if (source && existing.managedBy?.sourceId === source.id) {
      plan.standings.push(standing(kind, write, existing.id, 'synced', null));
    }
    return false;
  }
  const diff = diffWith(existing);
  if (owner !== 'mine') {
    // The source still may not have it: its list says so, whatever this plan answers.
    if (source) plan.standings.push(standing(kind, write, null, 'conflict', owner));
    if (diff.length > 0) {
      plan.changes.push({ kind, handle: write.handle, action: 'conflict', message: owner, ...place });
      return false;
    }
    const manager = existing.managedBy ? `Managed in ${existing.managedBy.sourceName}` : 'Made in Beacon';
    plan.changes.push({ kind, handle: write.handle, action: 'unchanged', message: manager, ...extra, ...place });
    return true;
  }
  const action = diff.length > 0 ? 'update' : 'unchanged';
  plan.changes.push({ kind, handle: write.handle, action, ...(diff.length ? { diff } : {}), ...extra, ...place });
  plan.writes.push({ ...write, action });
  if (source) plan.standings.push(standing(kind, write, existing.id, 'synced', null));
  return false;
}

const sloText = (slo: PlannedSlo | null) => (slo ? formatSloAnnotation(slo) : null);

/** The API's names of a write's fields; the APIs a service provides show on their own lines. */
const CREATION_FIELDS: Readonly<Record<string, string | null>> = {
  kind: null,
  action: null,
  id: null,
  place: null,
  apis: null,
  removeMembers: null,
  dependsOn: 'depends_on',
  healthCheckUrl: 'health_check_url',
  slackChannel: 'slack_channel',
};

/** A created entity's diff: every field it gets, from nothing. */
function creationField(field: string, to: unknown): Array<[string, unknown, unknown]> {
  const name = field in CREATION_FIELDS ? CREATION_FIELDS[field] : field;
  if (!name || to === null || (Array.isArray(to) && to.length === 0)) return [];
  return [[name, null, name === 'slo' ? sloText(to as PlannedSlo) : to]];
}

/** A definition as a plan line shows it: its size and a short fingerprint (FNV-1a), not its text. */
export function definitionSummary(content: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < content.length; i += 1) hash = Math.imul(hash ^ content.charCodeAt(i), 0x01000193);
  const lines = content.split('\n').length;
  return `${lines} ${lines === 1 ? 'line' : 'lines'} #${(hash >>> 0).toString(16).padStart(8, '0')}`;
}

/**
 * An API's definition becomes a published spec page (its handle the API's) on each service the plan writes that
 * provides it. Its line says which services get it, and whether its title or definition change. A providing service
 * the plan holds without writing (`held`, another's) must have the page as it is, else the API is a conflict.
 */
function planApi(
  plan: CatalogPlan,
  api: ApiEntity,
  servicesById: ReadonlyMap<string, CurrentService>,
  held: readonly ServiceWrite[],
): void {
  const place = placeOf(api);
  const provides = (write: ServiceWrite | TeamWrite): write is ServiceWrite =>
    write.kind === 'service' && write.apis.includes(api.handle);
  const providers = plan.writes.filter(provides);
  const pageOf = (write: ServiceWrite) =>
    (write.id === null ? undefined : servicesById.get(write.id))?.specs.find((s) => s.handle === api.handle);
  const isStale = (page: CurrentSpec | undefined) =>
    !page || page.title !== api.name || page.content !== api.definition;
  const others = held.filter(provides);
  const changed = others.filter((write) => isStale(pageOf(write)));
  if (changed.length > 0) {
    const message = `Its definition would change on ${changed.map((w) => w.handle).join(', ')}, not this plan's to change`;
    plan.changes.push({ kind: 'api', handle: api.handle, action: 'conflict', message, ...place });
    return;
  }
  if (providers.length === 0 && others.length > 0) {
    plan.changes.push({ kind: 'api', handle: api.handle, action: 'unchanged', ...place });
    return;
  }
  if (providers.length === 0) {
    plan.changes.push({
      kind: 'api',
      handle: api.handle,
      action: 'skipped',
      message: "No component this plan writes provides it: name it in a component's spec.providesApis",
      ...place,
    });
    return;
  }
  const pages = providers.map((write) => ({ write, page: pageOf(write) }));
  const has = pages.filter(({ page }) => page).map(({ write }) => write.handle);
  const first = pages.find(({ page }) => page)?.page;
  const diff = diffOf([
    ['services', has, providers.map((write) => write.handle)],
    ['title', first?.title ?? null, api.name],
    ['definition', first ? definitionSummary(first.content) : null, definitionSummary(api.definition)],
  ]);
  const stale = pages.filter(({ page }) => isStale(page));
  for (const { write } of stale) {
    plan.specs.push({
      kind: 'spec',
      service: write.handle,
      handle: api.handle,
      title: api.name,
      content: api.definition,
      place: api.place,
    });
  }
  const action = has.length === 0 ? 'create' : stale.length > 0 ? 'update' : 'unchanged';
  plan.changes.push({ kind: 'api', handle: api.handle, action, ...(action === 'unchanged' ? {} : { diff }), ...place });
}

/** The settings a service's annotations decide, which only its file may change. */
export const ANNOTATED_SETTINGS = ['health_check_url', 'slo', 'slack_channel'] as const;
export type AnnotatedSetting = (typeof ANNOTATED_SETTINGS)[number];

function annotatedSettings(write: ServiceWrite | TeamWrite): AnnotatedSetting[] {
  if (write.kind !== 'service') return [];
  const set = { health_check_url: write.healthCheckUrl, slo: write.slo, slack_channel: write.slackChannel };
  return ANNOTATED_SETTINGS.filter((setting) => set[setting] !== null);
}

function standing(
  kind: 'service' | 'team',
  write: ServiceWrite | TeamWrite,
  id: string | null,
  state: EntityStanding['state'],
  reason: string | null,
): EntityStanding {
  const settings = state === 'synced' ? annotatedSettings(write) : [];
  return { kind, handle: write.handle, id, state, reason, place: write.place, settings };
}

/**
 * An authoritative source's entities that its files no longer describe are deleted (orphaned, then removed after
 * the grace period). Not those of a file that could not be read, nor those described but in error: an unreadable
 * file is not an empty one.
 */
function planDeletes(plan: CatalogPlan, read: ReadDescriptors, current: CurrentCatalogue, source: PlanSource): void {
  const unreadable = new Set(read.problems.map((problem) => problem.path));
  const kept = new Set(plan.standings.map((s) => `${s.kind}:${s.handle}`));
  for (const errored of read.errored) if (errored.handle) kept.add(`${errored.kind}:${errored.handle}`);
  const handleById = new Map<string, string>();
  for (const entity of [...current.services, ...current.teams]) handleById.set(entity.id, entity.handle);
  // Planned writes of existing entities keep them, by the handle they had (a rename's old one).
  const renamedFrom = new Set(
    plan.writes.flatMap((write) => (write.id === null ? [] : [`${write.kind}:${handleById.get(write.id)}`])),
  );
  for (const [kind, list] of [
    ['service', current.services],
    ['team', current.teams],
  ] as const) {
    for (const entity of list) {
      const key = `${kind}:${entity.handle}`;
      if (entity.managedBy?.sourceId !== source.id || kept.has(key) || renamedFrom.has(key)) continue;
      if (entity.path !== null && unreadable.has(entity.path)) {
        plan.changes.push({
          kind,
          handle: entity.handle,
          action: 'error',
          message: `Kept: its file ${entity.path} could not be read`,
          path: entity.path,
        });
        continue;
      }
      plan.changes.push({
        kind,
        handle: entity.handle,
        action: 'delete',
        message: 'No longer in the files: removed after the grace period unless a file describes it again',
        ...(entity.path ? { path: entity.path } : {}),
      });
      plan.orphans.push({ kind, id: entity.id, handle: entity.handle });
    }
  }
}

/** How many changes of each action a plan has. */
export function countActions(changes: readonly PlanChange[]): Record<PlanAction, number> {
  const counts = Object.fromEntries(PLAN_ACTIONS.map((action) => [action, 0])) as Record<PlanAction, number>;
  for (const change of changes) counts[change.action] += 1;
  return counts;
}

const show = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value ?? null));

/** A plan as a person reads it (the CLI's output): one line per change that does something, then the counts. */
export function formatPlan(changes: readonly PlanChange[]): string {
  const lines: string[] = [];
  const sign: Record<PlanAction, string> = {
    create: '+',
    update: '~',
    unchanged: '=',
    delete: '-',
    conflict: '!',
    error: '✗',
    skipped: '·',
  };
  for (const change of changes) {
    if (change.action === 'unchanged') continue;
    const where = change.path ? ` (${change.path}${change.line ? `:${change.line}` : ''})` : '';
    lines.push(`${sign[change.action]} ${change.action} ${change.kind} ${change.handle}${where}`.trimEnd());
    for (const diff of change.diff ?? []) lines.push(`    ${diff.field}: ${show(diff.from)} -> ${show(diff.to)}`);
    for (const error of change.errors ?? []) lines.push(`    ${error.path}:${error.line}: ${error.message}`);
    if (change.message) lines.push(`    ${change.message}`);
    if (change.unresolved?.length) lines.push(`    unresolved, left out for now: ${change.unresolved.join(', ')}`);
  }
  const counts = countActions(changes);
  const summary = PLAN_ACTIONS.filter((action) => counts[action] > 0).map((action) => `${counts[action]} ${action}`);
  const doing = counts.create + counts.update + counts.delete;
  lines.push(doing === 0 ? `No changes. ${summary.join(', ')}`.trim() : `Plan: ${summary.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
