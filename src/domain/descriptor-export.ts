/**
 * The workspace as descriptor files (DESIGN.md 15, `beacon catalog export`): one file per team, its Group and the
 * Components it owns, in the format {@link readDescriptors} reads, so planning an export answers "no changes".
 */
import { stringify } from 'yaml';
import type { CurrentCatalogue, CurrentService, CurrentTeam } from './catalog-plan.js';
import type { Stage } from './catalogue.js';
import { ANNOTATIONS, LIFECYCLE_STAGES, type DescriptorFile } from './descriptors.js';

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

function componentOf(service: CurrentService) {
  const metadata = {
    ...metadataOf(service, { [ANNOTATIONS.visibility]: service.visibility }),
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
    },
  };
}

/** `teams/{team}.yaml` per team (its Group first, then its services by handle), and a Location naming them all. */
export function exportDescriptors(catalogue: Pick<CurrentCatalogue, 'services' | 'teams'>): DescriptorFile[] {
  const byOwner = new Map<string, CurrentService[]>();
  for (const service of [...catalogue.services].sort((a, b) => a.handle.localeCompare(b.handle))) {
    byOwner.set(service.owner, [...(byOwner.get(service.owner) ?? []), service]);
  }
  const teams = [...catalogue.teams].sort((a, b) => a.handle.localeCompare(b.handle));
  const files = teams.map((team) => ({
    path: `teams/${team.handle}.yaml`,
    content: [groupOf(team), ...(byOwner.get(team.handle) ?? []).map(componentOf)]
      .map((doc) => stringify(doc, { lineWidth: 0 }))
      .join('---\n'),
  }));
  const location = {
    apiVersion: API_VERSION,
    kind: 'Location',
    metadata: { name: 'beacon-export' },
    spec: { targets: files.map((file) => `./${file.path}`) },
  };
  return [{ path: 'catalog-info.yaml', content: stringify(location, { lineWidth: 0 }) }, ...files];
}
