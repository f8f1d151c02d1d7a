import { z } from 'zod';
import { GRAPH_DEFAULT_DEPTH, GRAPH_MAX_DEPTH } from '../domain/graph.js';
import { health } from './catalogue.js';
import { line } from './common.js';

/** Dependencies, dependents, linked workspaces and the graph (spec/catalogue.md 2.1, 4, 7; docs/decisions.md#graph). */

const handle = line().min(1).max(64);
/** A workspace's subdomain label. */
const workspaceDomain = line().min(1).max(63);

/**
 * A service in a dependency list: `{ id, handle, name, thumbnail_url, health }`
 * (docs/api.md#dependencies-and-the-graph).
 */
export const dependencyItem = z
  .object({
    id: z.string(),
    handle: z.string(),
    name: z.string(),
    thumbnail_url: z.string().nullable(),
    health,
  })
  .meta({ id: 'DependencyItem' });
export type DependencyItem = z.infer<typeof dependencyItem>;

/** The spec's reference shape: `{ "service": { "id": "<dependency handle>" } }`. */
export const dependencyCreate = z.strictObject({ service: z.strictObject({ id: handle }) });
export const dependencyParams = z.strictObject({ service: handle, dependency: handle });

/** GET /remotes: the linked workspaces' domains. */
export const remoteList = z.array(z.string());
export const remoteCreate = z.strictObject({ remote: workspaceDomain });
export const remoteParams = z.strictObject({ remote: workspaceDomain });

/** A public service of a linked workspace, live (read at request time). */
export const remoteService = z
  .object({
    workspace: z.string(),
    handle: z.string(),
    name: z.string(),
    thumbnail_url: z.string().nullable(),
    health,
  })
  .meta({ id: 'RemoteService' });
export type RemoteService = z.infer<typeof remoteService>;

/**
 * A remote dependency: the remote service while it is reachable (its workspace still linked, the service still
 * there and public); else `available: false`, no health, and the name last known (docs/decisions.md#graph).
 */
export const remoteDependency = z
  .object({
    workspace: z.string(),
    handle: z.string(),
    name: z.string(),
    thumbnail_url: z.string().nullable(),
    health: health.nullable(),
    available: z.boolean(),
  })
  .meta({ id: 'RemoteDependency' });
export type RemoteDependency = z.infer<typeof remoteDependency>;

export const remoteDependencyCreate = z.strictObject({ workspace: workspaceDomain, service: handle });
export const remoteDependencyParams = z.strictObject({
  service: handle,
  workspace: workspaceDomain,
  remote: handle,
});

export const remoteSearchQuery = z.strictObject({ q: line().max(100).default('') });

export const graphQuery = z.strictObject({
  depth: z.coerce.number().int().min(1).max(GRAPH_MAX_DEPTH).default(GRAPH_DEFAULT_DEPTH),
});

/**
 * A node of the graph: a local node's id is its handle, a remote node's `{workspace}:{handle}`
 * (docs/decisions.md#graph). `workspace` is null for local nodes.
 */
export const graphNode = z
  .object({
    id: z.string(),
    handle: z.string(),
    name: z.string(),
    workspace: z.string().nullable(),
    health: health.nullable(),
    thumbnail_url: z.string().nullable(),
    dependencies: z.array(z.string()),
    dependents: z.array(z.string()),
  })
  .meta({ id: 'GraphNode' });
export type GraphNode = z.infer<typeof graphNode>;

export const serviceGraph = z
  .object({ nodes: z.array(graphNode), truncated: z.boolean() })
  .meta({ id: 'ServiceGraph' });
export type ServiceGraph = z.infer<typeof serviceGraph>;
