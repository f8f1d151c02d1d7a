/**
 * The dependency graph (docs/decisions.md#graph): which services a walk from one service reaches, and the nodes the API
 * answers with. The database finds the services within reach; this module orders, truncates and links them,
 * the same on both engines.
 */

/** Spec: graph default depth 2; docs/decisions.md#graph: 1 to 6, at most 2,000 nodes. */
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

// ---- drawing the graph (the Service Graph screen and its layout worker) ----

/** The edges of an answered graph: each node to its dependencies, among the nodes held. */
export function graphEdgesOf(nodes: ReadonlyArray<Pick<LinkedNode, 'id' | 'dependencies'>>): GraphEdge[] {
  const known = new Set(nodes.map((node) => node.id));
  return nodes.flatMap((node) =>
    node.dependencies.filter((to) => to !== node.id && known.has(to)).map((to) => ({ from: node.id, to })),
  );
}

/**
 * How much layered layout a graph costs, in nodes plus twice the edges: ELK's layered layout grows with the edges
 * (crossing minimisation, dummy nodes for long edges) faster than with the nodes.
 */
export const LAYERED_LAYOUT_BUDGET = 1200;

export type GraphLayoutAlgorithm = 'layered' | 'force';

/**
 * ELK layered (tuned) while it stays well under a second, fcose `draft` beyond (docs/decisions.md#graph). The
 * notes measured ELK at about 1.45 edges a node; service graphs with 3 edges a node cost ELK several seconds at
 * 1,000 nodes, so the budget counts the edges too.
 */
export function graphLayoutAlgorithm(nodeCount: number, edgeCount: number): GraphLayoutAlgorithm {
  return nodeCount + 2 * edgeCount <= LAYERED_LAYOUT_BUDGET ? 'layered' : 'force';
}

/**
 * A layout computed at once, with no engine: the root in the middle and each ring of services one step further
 * out around it (the nearest ring first, then whatever the walk did not reach). The fallback where no worker runs,
 * and a sketch to show while the worker works.
 */
export function ringLayout(
  root: string,
  nodes: readonly string[],
  edges: readonly GraphEdge[],
  spacing = 120,
): Array<{ id: string; x: number; y: number }> {
  const neighbours = new Map<string, string[]>();
  for (const { from, to } of edges) {
    neighbours.set(from, [...(neighbours.get(from) ?? []), to]);
    neighbours.set(to, [...(neighbours.get(to) ?? []), from]);
  }
  const known = new Set(nodes);
  const distance = new Map<string, number>();
  if (known.has(root)) distance.set(root, 0);
  let frontier = known.has(root) ? [root] : [];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const neighbour of neighbours.get(id) ?? []) {
        if (!known.has(neighbour) || distance.has(neighbour)) continue;
        distance.set(neighbour, distance.get(id)! + 1);
        next.push(neighbour);
      }
    }
    frontier = next;
  }
  const farthest = Math.max(0, ...distance.values());
  const rings = new Map<number, string[]>();
  for (const id of nodes) {
    const ring = distance.get(id) ?? farthest + 1;
    rings.set(ring, [...(rings.get(ring) ?? []), id]);
  }
  const positions: Array<{ id: string; x: number; y: number }> = [];
  let radius = 0;
  for (const ring of [...rings.keys()].sort((a, b) => a - b)) {
    const members = rings.get(ring)!;
    if (ring === 0 && members.length === 1) {
      positions.push({ id: members[0]!, x: 0, y: 0 });
      continue;
    }
    // Far enough out for the ring's services to sit `spacing` apart, and at least a step past the last ring.
    radius = Math.max(radius + spacing, (members.length * spacing) / (2 * Math.PI));
    members.forEach((id, index) => {
      const angle = (2 * Math.PI * index) / members.length - Math.PI / 2;
      positions.push({ id, x: Math.round(radius * Math.cos(angle)), y: Math.round(radius * Math.sin(angle)) });
    });
  }
  return positions;
}
