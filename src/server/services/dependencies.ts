import type {
  DependencyItem,
  GraphNode,
  RemoteDependency,
  RemoteService,
  ServiceGraph,
} from '../../contract/dependencies.js';
import { GRAPH_NODE_LIMIT, linkGraph, remoteNodeId, type GraphEdge, type Reached } from '../../domain/graph.js';
import { isAdminRole } from '../../domain/roles.js';
import { isoNow, type ServerContext } from '../context.js';
import {
  deleteDependency,
  deleteRemote,
  deleteRemoteDependency,
  edgesAmong,
  findRemoteService,
  insertDependency,
  insertRemote,
  insertRemoteDependency,
  listDependencies as listDependencyRows,
  listDependents as listDependentRows,
  listRemoteDependencies as listRemoteDependencyRows,
  listRemoteDomains,
  searchRemoteServices as searchRemoteServiceRows,
  walkDependencies,
  type DependencyRow,
  type RemoteDependencyRow,
} from '../db/repositories/dependencies.js';
import { findWorkspaceByDomain } from '../db/repositories/workspaces.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import type { Caller } from './auth.js';
import { editableService, visibleService } from './catalogue-services.js';
import { AUTOCOMPLETE_LIMIT } from './teams.js';
import { assetUrl } from './users.js';
import { serviceScope } from './viewer.js';

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

export async function listDependencies(ctx: ServerContext, caller: Caller, service: string) {
  const { row, viewer } = await visibleService(ctx, caller, service);
  const rows = await listDependencyRows(ctx.database.db, caller.workspace.id, row.id, serviceScope(caller, viewer));
  return rows.map(toItem);
}

export async function listDependents(ctx: ServerContext, caller: Caller, service: string) {
  const { row, viewer } = await visibleService(ctx, caller, service);
  const rows = await listDependentRows(ctx.database.db, caller.workspace.id, row.id, serviceScope(caller, viewer));
  return rows.map(toItem);
}

/**
 * DESIGN.md 8: editors of the service add a dependency on a service they can see (else 404, as if missing);
 * not on itself (400), not twice (409). Cycles are allowed.
 */
export async function addDependency(
  ctx: ServerContext,
  caller: Caller,
  service: string,
  dependencyHandle: string,
): Promise<DependencyItem> {
  const { row } = await editableService(ctx, caller, service);
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

/** DESIGN.md 8: a one-way link by domain; unknown 404, this workspace 400, twice 409. Answers the new list. */
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
 * DESIGN.md 8: the walk runs in the database over services the caller can see; remote dependencies of the
 * services reached are leaves one step further out. Nearest first, at most GRAPH_NODE_LIMIT nodes.
 */
export async function getServiceGraph(
  ctx: ServerContext,
  caller: Caller,
  service: string,
  depth: number,
): Promise<ServiceGraph> {
  const { row, viewer } = await visibleService(ctx, caller, service);
  const { db } = ctx.database;
  const workspaceId = caller.workspace.id;
  const walked = await walkDependencies(
    db,
    workspaceId,
    row.id,
    serviceScope(caller, viewer),
    depth,
    GRAPH_NODE_LIMIT + 1,
  );
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
