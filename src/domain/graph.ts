/**
 * The dependency graph (DESIGN.md 8): which services a walk from one service reaches, and the nodes the API
 * answers with. The database finds the services within reach; this module orders, truncates and links them,
 * the same on both engines.
 */

/** Spec: graph default depth 2; DESIGN.md 8: 1 to 6, at most 2,000 nodes. */
export const GRAPH_DEFAULT_DEPTH = 2;
export const GRAPH_MAX_DEPTH = 6;
export const GRAPH_NODE_LIMIT = 2000;

/** A remote node's id: `{workspace}:{handle}` (spec: "handles possibly prefixed with a workspace"). */
export const remoteNodeId = (workspace: string, handle: string): string => `${workspace}:${handle}`;

/** An edge from a service to one of its dependencies, by node id. */
export interface GraphEdge {
  from: string;
  to: string;
}

/** A node the walk reached, `depth` steps from the root (the root is 0). */
export interface Reached {
  id: string;
  depth: number;
}

export interface LinkedNode {
  id: string;
  dependencies: string[];
  dependents: string[];
}

/**
 * Walks from `root` along dependencies (downstream) and along dependents (upstream), each direction up to
 * `depth` steps: what depends on me, and what I depend on, transitively. Cycles end where a node was already
 * reached. The in-memory twin of the database walk, for the tests and for callers holding the edges.
 */
export function walkGraph(root: string, edges: readonly GraphEdge[], depth: number): Reached[] {
  const downstream = new Map<string, string[]>();
  const upstream = new Map<string, string[]>();
  for (const { from, to } of edges) {
    downstream.set(from, [...(downstream.get(from) ?? []), to]);
    upstream.set(to, [...(upstream.get(to) ?? []), from]);
  }
  const reached = new Map<string, number>([[root, 0]]);
  for (const next of [downstream, upstream]) {
    let frontier = [root];
    const seen = new Set([root]);
    for (let step = 1; step <= depth && frontier.length > 0; step++) {
      const following: string[] = [];
      for (const id of frontier) {
        for (const neighbour of next.get(id) ?? []) {
          if (seen.has(neighbour)) continue;
          seen.add(neighbour);
          following.push(neighbour);
          if ((reached.get(neighbour) ?? Infinity) > step) reached.set(neighbour, step);
        }
      }
      frontier = following;
    }
  }
  return [...reached].map(([id, d]) => ({ id, depth: d }));
}

/**
 * The graph's nodes: the reached ones nearest first (ties by id, so a truncated graph is the same each time),
 * at most `limit`, each with its dependencies and dependents among the kept nodes.
 */
export function linkGraph(
  reached: readonly Reached[],
  edges: readonly GraphEdge[],
  limit: number = GRAPH_NODE_LIMIT,
): { nodes: LinkedNode[]; truncated: boolean } {
  const ordered = [...reached].sort((a, b) => a.depth - b.depth || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const kept = ordered.slice(0, limit);
  const nodes = new Map<string, LinkedNode>(kept.map(({ id }) => [id, { id, dependencies: [], dependents: [] }]));
  const seen = new Set<string>();
  for (const { from, to } of edges) {
    const source = nodes.get(from);
    const target = nodes.get(to);
    const key = `${from}\u0000${to}`;
    if (!source || !target || seen.has(key)) continue;
    seen.add(key);
    source.dependencies.push(to);
    target.dependents.push(from);
  }
  return { nodes: [...nodes.values()], truncated: ordered.length > limit };
}
