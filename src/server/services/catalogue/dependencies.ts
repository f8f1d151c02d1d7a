import type {
  DependencyItem,
  GraphNode,
  RemoteDependency,
  RemoteService,
  ServiceGraph,
} from '../../../contract/dependencies.js';
import { GRAPH_NODE_LIMIT, linkGraph, remoteNodeId, type GraphEdge, type Reached } from '../../../domain/graph.js';
import { isAdminRole } from '../../../domain/roles.js';
import { isoNow, type ServerContext } from '../../context.js';
import {
  deleteDependency,
  deleteRemote,
  deleteRemoteDependency,
  edgesAmong,
  findGraphRoot,
  findRemoteService,
  insertDependency,
  insertRemote,
  insertRemoteDependency,
  listDependencySide as listDependencySideRows,
  listRemoteDependencies as listRemoteDependencyRows,
  listRemoteDomains,
  listRestrictedTeams,
  readGraphState,
  searchRemoteServices as searchRemoteServiceRows,
  walkDependencies,
  type DependencyRow,
  type DependencySide,
  type RemoteDependencyRow,
} from '../../db/repositories/dependencies.js';
import { findWorkspaceByDomain, type Db } from '../../db/repositories/workspaces.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import type { Caller } from '../accounts/auth.js';
import { editableService, visibleService } from './services.js';
import { AUTOCOMPLETE_LIMIT } from './teams.js';
import { assetUrl } from '../accounts/users.js';
import { graphCacheOf, type GraphAnswer } from '../../cache/graph-cache.js';
import { requireUnmanaged } from './managed-marks.js';
import { serviceScope, viewerOf } from '../../cache/viewer.js';

function toItem(row: DependencyRow): DependencyItem {
  return {
    id: row.id,
    handle: row.handle,
    name: row.name,
    thumbnail_url: assetUrl(row.icon_asset_id),
    health: row.health,
  };
}

function toRemoteDependency(row: RemoteDependencyRow): RemoteDependency {
  const available = row.live_name !== null;
  return {
    workspace: row.remote_domain,
    handle: row.remote_handle,
    name: row.live_name ?? row.remote_name,
    thumbnail_url: available ? assetUrl(row.live_icon_asset_id) : null,
    health: available ? row.live_health : null,
    available,
  };
}

/** A service's dependencies or its dependents, as far as the caller may see them. */
export async function listDependencySide(ctx: ServerContext, caller: Caller, service: string, side: DependencySide) {
  const { row, viewer } = await visibleService(ctx, caller, service);
  const scope = serviceScope(caller, viewer);
  const rows = await listDependencySideRows(ctx.database.db, caller.workspace.id, row.id, scope, side);
  return rows.map(toItem);
}

/**
 * docs/decisions.md#graph: editors of the service add a dependency on a service they can see (else 404, as if missing);
 * not on itself (400), not twice (409). Cycles are allowed.
 */
export async function addDependency(
  ctx: ServerContext,
  caller: Caller,
  service: string,
  dependencyHandle: string,
): Promise<DependencyItem> {
  const { row } = await editableService(ctx, caller, service);
  await requireUnmanaged(ctx, caller.workspace.id, row, 'service', 'change its dependencies');
  const { row: dependency } = await visibleService(ctx, caller, dependencyHandle);
  if (dependency.id === row.id) throw badRequest('A service cannot depend on itself');
  const added = await insertDependency(ctx.database.db, {
    workspace_id: caller.workspace.id,
    service_id: row.id,
    dependency_id: dependency.id,
    created_at: isoNow(ctx),
  });
  if (!added) throw conflict('The service already depends on this service');
  return toItem(dependency);
}

export async function removeDependency(
  ctx: ServerContext,
  caller: Caller,
  service: string,
  dependencyHandle: string,
): Promise<void> {
  const { row } = await editableService(ctx, caller, service);
  await requireUnmanaged(ctx, caller.workspace.id, row, 'service', 'change its dependencies');
  const { row: dependency } = await visibleService(ctx, caller, dependencyHandle);
  if (!(await deleteDependency(ctx.database.db, caller.workspace.id, row.id, dependency.id))) {
    throw notFound('The service does not depend on this service');
  }
}

// ---- linked workspaces ----

function requireWorkspaceAdmin(caller: Caller): void {
  if (!isAdminRole(caller.user.role)) throw forbidden('Only owners and admins can manage remote workspaces');
}

export async function listRemotes(ctx: ServerContext, caller: Caller): Promise<string[]> {
  requireWorkspaceAdmin(caller);
  return listRemoteDomains(ctx.database.db, caller.workspace.id);
}

/**
 * docs/decisions.md#graph: a one-way link by domain; unknown 404, this workspace 400, twice 409. Answers the new list.
 */
export async function linkRemote(ctx: ServerContext, caller: Caller, domain: string): Promise<string[]> {
  requireWorkspaceAdmin(caller);
  const { db } = ctx.database;
  const remote = await findWorkspaceByDomain(db, domain.toLowerCase());
  if (!remote) throw notFound('The remote workspace was not found');
  if (remote.id === caller.workspace.id) throw badRequest('A workspace cannot link to itself');
  const linked = await insertRemote(db, {
    workspace_id: caller.workspace.id,
    remote_workspace_id: remote.id,
    created_at: isoNow(ctx),
  });
  if (!linked) throw conflict('The remote workspace is already linked');
  return listRemoteDomains(db, caller.workspace.id);
}

export async function unlinkRemote(ctx: ServerContext, caller: Caller, domain: string): Promise<void> {
  requireWorkspaceAdmin(caller);
  const { db } = ctx.database;
  const remote = await findWorkspaceByDomain(db, domain.toLowerCase());
  if (!remote || !(await deleteRemote(db, caller.workspace.id, remote.id))) {
    throw notFound('The remote workspace is not linked');
  }
}

// ---- remote dependencies ----

export async function searchRemoteServices(ctx: ServerContext, caller: Caller, q: string): Promise<RemoteService[]> {
  const rows = await searchRemoteServiceRows(ctx.database.db, caller.workspace.id, q, AUTOCOMPLETE_LIMIT);
  return rows.map((row) => ({
    workspace: row.domain,
    handle: row.handle,
    name: row.name,
    thumbnail_url: assetUrl(row.icon_asset_id),
    health: row.health,
  }));
}

export async function listRemoteDependencies(
  ctx: ServerContext,
  caller: Caller,
  service: string,
): Promise<RemoteDependency[]> {
  const { row } = await visibleService(ctx, caller, service);
  const rows = await listRemoteDependencyRows(ctx.database.db, caller.workspace.id, [row.id]);
  return rows.map(toRemoteDependency);
}

/** Only a public service of a linked workspace can be added (anything else is 404, as if missing). */
export async function addRemoteDependency(
  ctx: ServerContext,
  caller: Caller,
  service: string,
  target: { workspace: string; service: string },
): Promise<RemoteDependency> {
  const { row } = await editableService(ctx, caller, service);
  await requireUnmanaged(ctx, caller.workspace.id, row, 'service', 'change its dependencies');
  const { db } = ctx.database;
  const remote = await findRemoteService(db, caller.workspace.id, target.workspace.toLowerCase(), target.service);
  if (!remote) throw notFound('The remote service was not found');
  const added = await insertRemoteDependency(db, {
    workspace_id: caller.workspace.id,
    service_id: row.id,
    remote_domain: remote.domain,
    remote_handle: remote.handle,
    remote_name: remote.name,
    created_at: isoNow(ctx),
  });
  if (!added) throw conflict('The service already depends on this remote service');
  return {
    workspace: remote.domain,
    handle: remote.handle,
    name: remote.name,
    thumbnail_url: assetUrl(remote.icon_asset_id),
    health: remote.health,
    available: true,
  };
}

export async function removeRemoteDependency(
  ctx: ServerContext,
  caller: Caller,
  service: string,
  target: { workspace: string; remote: string },
): Promise<void> {
  const { row } = await editableService(ctx, caller, service);
  await requireUnmanaged(ctx, caller.workspace.id, row, 'service', 'change its dependencies');
  const removed = await deleteRemoteDependency(
    ctx.database.db,
    caller.workspace.id,
    row.id,
    target.workspace.toLowerCase(),
    target.remote,
  );
  if (!removed) throw notFound('The service does not depend on this remote service');
}

// ---- the graph ----

/**
 * docs/decisions.md#graph: the graph from `service`, as JSON bytes ready to send, from the process's graph cache when
 * no process changed the workspace's graph (or a linked workspace's) since it was computed for the viewer's class.
 * Per request, on a hit: the caller and viewer (both cached) and a read of the versions and the user's teams,
 * shared with the requests that wait for the same read (FreshReads: never one that started before the request).
 */
export async function getServiceGraph(
  ctx: ServerContext,
  caller: Caller,
  service: string,
  depth: number,
): Promise<GraphAnswer> {
  const { db } = ctx.database;
  const workspaceId = caller.workspace.id;
  const scope = serviceScope(caller, await viewerOf(ctx, caller));
  // The memberships come with the versions, as they are now: the walk's visibility must not lag behind them.
  const asked = scope.all || scope.teamId !== undefined ? null : scope.userId;
  const { answers: cache, states } = graphCacheOf(ctx);
  const { versions, teams } = await states.read(`${workspaceId}\u0000${asked ?? ''}`, () =>
    readGraphState(db, workspaceId, asked),
  );
  const restricted = await cache.restrictedTeams(workspaceId, versions, () => listRestrictedTeams(db, workspaceId));
  const mine = new Set(scope.teamId !== undefined ? [scope.teamId] : teams);
  const visibleTeams = scope.all ? restricted : restricted.filter((team) => mine.has(team));
  const key = `${visibleTeams.join(',')}\u0000${depth}\u0000${service}`;
  return cache.answer(workspaceId, versions, key, async () =>
    Buffer.from(JSON.stringify(await walkServiceGraph(ctx, workspaceId, service, depth, visibleTeams))),
  );
}

/** The depth walked first: as far as most graphs are asked for (the default is 2), in one query. */
const FIRST_WALK_DEPTH = 3;

/**
 * The nearest GRAPH_NODE_LIMIT services within `depth` steps, and one more when there are more (the caller
 * truncates). A walk that fills the limit at some depth is the walk to every greater depth (the nearest come
 * first), so beyond FIRST_WALK_DEPTH the walk goes one step further only while it left room: a hub reaches
 * the limit within three steps and never walks the whole workspace for depth 6 (tens of ms instead of hundreds).
 */
async function walkWithin(db: Db, rootId: string, visibleTeams: readonly string[], depth: number) {
  for (let step = Math.min(depth, FIRST_WALK_DEPTH); ; step++) {
    const walked = await walkDependencies(db, rootId, visibleTeams, step, GRAPH_NODE_LIMIT + 1);
    if (step >= depth || walked.length > GRAPH_NODE_LIMIT) return walked;
  }
}

/**
 * The graph as the walk finds it, for a viewer who sees the owner-only services of `visibleTeams` (the answer
 * depends on nothing else of the viewer, so the cache may share it): the walk runs in the database; remote
 * dependencies of the services reached are leaves one step further out. Nearest first, at most GRAPH_NODE_LIMIT.
 */
async function walkServiceGraph(
  ctx: ServerContext,
  workspaceId: string,
  service: string,
  depth: number,
  visibleTeams: readonly string[],
): Promise<ServiceGraph> {
  const { db } = ctx.database;
  const row = await findGraphRoot(db, workspaceId, service);
  if (!row || (row.visibility === 'owner' && !visibleTeams.includes(row.owner_team_id))) {
    throw notFound('The service was not found');
  }
  const walked = await walkWithin(db, row.id, visibleTeams, depth);
  const ids = walked.map((node) => node.id);
  const [edgeRows, remoteRows] = await Promise.all([
    edgesAmong(db, workspaceId, ids),
    listRemoteDependencyRows(db, workspaceId, ids),
  ]);

  const handleOf = new Map(walked.map((node) => [node.id, node.handle]));
  const depthOf = new Map(walked.map((node) => [node.handle, node.depth]));
  const details = new Map<string, Omit<GraphNode, 'dependencies' | 'dependents'>>();
  const reached = new Map<string, number>();
  const edges: GraphEdge[] = edgeRows.map((edge) => ({
    from: handleOf.get(edge.service_id)!,
    to: handleOf.get(edge.dependency_id)!,
  }));
  for (const node of walked) {
    reached.set(node.handle, node.depth);
    details.set(node.handle, {
      id: node.handle,
      handle: node.handle,
      name: node.name,
      workspace: null,
      health: node.health,
      thumbnail_url: assetUrl(node.icon_asset_id),
    });
  }
  for (const remote of remoteRows) {
    const from = handleOf.get(remote.service_id)!;
    // A remote service is one step past the service that depends on it: within the depth or not at all.
    if (depthOf.get(from)! >= depth) continue;
    const id = remoteNodeId(remote.remote_domain, remote.remote_handle);
    const item = toRemoteDependency(remote);
    // A remote service reached from several services is as near as the nearest of them.
    reached.set(id, Math.min(reached.get(id) ?? Infinity, depthOf.get(from)! + 1));
    if (!details.has(id)) {
      details.set(id, {
        id,
        handle: item.handle,
        name: item.name,
        workspace: item.workspace,
        health: item.health,
        thumbnail_url: item.thumbnail_url,
      });
    }
    edges.push({ from, to: id });
  }
  const nearest: Reached[] = [...reached].map(([id, d]) => ({ id, depth: d }));
  const { nodes, truncated } = linkGraph(nearest, edges, GRAPH_NODE_LIMIT);
  return { nodes: nodes.map((node) => ({ ...details.get(node.id)!, ...node })), truncated };
}
