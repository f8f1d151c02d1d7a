/**
 * The workspace as descriptor files (docs/decisions.md#catalogue-as-code, `beacon catalog export`): one file per team,
 * its Group and the Components it owns, in the format {@link readDescriptors} reads, so planning an export answers "no
 * changes".
 */
import { stringify } from 'yaml';
import type { CurrentCatalogue, CurrentService, CurrentSpec, CurrentTeam } from './catalog-plan.js';
import type { Stage } from './catalogue.js';
import { ANNOTATIONS, LIFECYCLE_STAGES, type DescriptorFile } from './descriptors.js';
import { formatSloAnnotation } from './slo.js';

const LIFECYCLES = Object.fromEntries(Object.entries(LIFECYCLE_STAGES).map(([life, stage]) => [stage, life])) as Record<
  Stage,
  string
>;

const API_VERSION = 'backstage.io/v1alpha1';

function metadataOf(entity: { handle: string; name: string; description: string | null }, annotations: object) {
  return {
    name: entity.handle,
    ...(entity.name !== entity.handle ? { title: entity.name } : {}),
    ...(entity.description ? { description: entity.description } : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
}

function groupOf(team: CurrentTeam) {
  return {
    apiVersion: API_VERSION,
    kind: 'Group',
    metadata: metadataOf(team, {}),
    spec: {
      type: 'team',
      ...(team.parent ? { parent: `group:${team.parent}` } : {}),
      children: [],
      ...(team.members.length > 0 ? { members: [...team.members].sort() } : {}),
    },
  };
}

function componentOf(service: CurrentService, apis: readonly string[]) {
  const annotations = {
    [ANNOTATIONS.visibility]: service.visibility,
    ...(service.healthCheckUrl ? { [ANNOTATIONS.healthCheckUrl]: service.healthCheckUrl } : {}),
    ...(service.slo ? { [ANNOTATIONS.slo]: formatSloAnnotation(service.slo) } : {}),
    ...(service.slackChannel ? { [ANNOTATIONS.slackChannel]: service.slackChannel } : {}),
  };
  const metadata = {
    ...metadataOf(service, annotations),
    ...(service.links.length > 0 ? { links: service.links.map((link) => ({ url: link.url, title: link.name })) } : {}),
  };
  const dependsOn = [...service.dependsOn].sort().map((ref) => `component:${ref}`);
  return {
    apiVersion: API_VERSION,
    kind: 'Component',
    metadata,
    spec: {
      type: 'service',
      lifecycle: LIFECYCLES[service.stage],
      owner: `group:${service.owner}`,
      ...(dependsOn.length > 0 ? { dependsOn } : {}),
      ...(apis.length > 0 ? { providesApis: apis.map((api) => `api:${api}`) } : {}),
    },
  };
}

/**
 * The published spec pages as APIs, one per page handle, provided by the services that publish it. A handle whose
 * pages differ between services has no one definition to write: those pages stay out of the export (planning it
 * leaves them as they are).
 */
function apisOf(services: readonly CurrentService[]) {
  const byHandle = new Map<string, Array<{ service: CurrentService; spec: CurrentSpec }>>();
  for (const service of services) {
    for (const spec of service.specs)
      byHandle.set(spec.handle, [...(byHandle.get(spec.handle) ?? []), { service, spec }]);
  }
  const apis = [...byHandle.entries()]
    .filter(([, pages]) =>
      pages.every(({ spec }) => spec.title === pages[0]!.spec.title && spec.content === pages[0]!.spec.content),
    )
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([handle, pages]) => ({ handle, pages }));
  const provided = new Map<string, string[]>();
  for (const { handle, pages } of apis) {
    for (const { service } of pages) provided.set(service.id, [...(provided.get(service.id) ?? []), handle]);
  }
  const files = apis.map(({ handle, pages }) => {
    const [{ service, spec }] = pages as [{ service: CurrentService; spec: CurrentSpec }];
    const api = {
      apiVersion: API_VERSION,
      kind: 'API',
      metadata: metadataOf({ handle, name: spec.title, description: null }, {}),
      spec: {
        type: 'openapi',
        lifecycle: LIFECYCLES[service.stage],
        owner: `group:${service.owner}`,
        definition: spec.content,
      },
    };
    return { path: `apis/${handle}.yaml`, content: stringify(api, { lineWidth: 0 }) };
  });
  return { files, provided };
}

/**
 * `teams/{team}.yaml` per team (its Group first, then its services by handle), `apis/{api}.yaml` per published spec,
 * and a Location naming them all.
 */
export function exportDescriptors(catalogue: Pick<CurrentCatalogue, 'services' | 'teams'>): DescriptorFile[] {
  const byOwner = new Map<string, CurrentService[]>();
  for (const service of [...catalogue.services].sort((a, b) => a.handle.localeCompare(b.handle))) {
    byOwner.set(service.owner, [...(byOwner.get(service.owner) ?? []), service]);
  }
  const teams = [...catalogue.teams].sort((a, b) => a.handle.localeCompare(b.handle));
  const apis = apisOf(catalogue.services);
  const files = [
    ...teams.map((team) => ({
      path: `teams/${team.handle}.yaml`,
      content: [
        groupOf(team),
        ...(byOwner.get(team.handle) ?? []).map((service) => componentOf(service, apis.provided.get(service.id) ?? [])),
      ]
        .map((doc) => stringify(doc, { lineWidth: 0 }))
        .join('---\n'),
    })),
    ...apis.files,
  ];
  const location = {
    apiVersion: API_VERSION,
    kind: 'Location',
    metadata: { name: 'beacon-export' },
    spec: { targets: files.map((file) => `./${file.path}`) },
  };
  return [{ path: 'catalog-info.yaml', content: stringify(location, { lineWidth: 0 }) }, ...files];
}
