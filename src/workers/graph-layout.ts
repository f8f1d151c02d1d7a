/**
 * The dependency graph's layout (docs/decisions.md#graph), run in the Comlink worker: node ids
 * with their boxes and the edges go in, each node's centre comes out. Nothing else crosses the thread boundary.
 *
 * - Within LAYERED_LAYOUT_BUDGET (src/domain/graph.ts): ELK layered, tuned (thoroughness 1, SIMPLE node
 *   placement, POLYLINE edges), so dependents sit on one side of the service and dependencies on the other.
 * - Beyond it: fcose in `draft` quality (spectral only) on a headless cytoscape, over at most 1.5 edges a node
 *   (`skeletonEdges`), then `spreadOverlaps`, since spectral placement puts services with the same neighbours on
 *   one spot.
 *
 * Each engine is loaded on first use, in its own chunk: the health rollups never load either.
 */
import type { Core, ElementDefinition, LayoutOptions as CytoscapeLayoutOptions } from 'cytoscape';
import { graphLayoutAlgorithm, type GraphLayoutAlgorithm } from '../domain/graph.js';
import type { ElkExtendedEdge, ElkNode, LayoutOptions } from 'elkjs/lib/elk-api.js';

export interface LayoutNode {
  id: string;
  /** The box the node takes, its label included. */
  width: number;
  height: number;
}

export interface LayoutEdge {
  from: string;
  to: string;
}

export interface GraphLayoutInput {
  nodes: LayoutNode[];
  edges: LayoutEdge[];
  /** Where the layers run for the layered layout: RIGHT on wide screens, DOWN on narrow ones. */
  direction?: 'RIGHT' | 'DOWN';
  /** Picked from the graph's size (graphLayoutAlgorithm) unless given: the benchmark compares the two. */
  algorithm?: GraphLayoutAlgorithm;
}

/** A node's centre. */
export interface NodePosition {
  id: string;
  x: number;
  y: number;
}

/** Where an edge bends on its way (the layered layout routes edges that skip layers around the nodes between). */
export interface EdgeRoute {
  from: string;
  to: string;
  points: Array<{ x: number; y: number }>;
}

/** What comes back: positions only. */
export interface GraphLayout {
  nodes: NodePosition[];
  routes: EdgeRoute[];
}

/** The edges worth laying out: both ends known, no self-loops, each pair once. */
export function usableEdges(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]): LayoutEdge[] {
  const known = new Set(nodes.map((node) => node.id));
  const seen = new Set<string>();
  const kept: LayoutEdge[] = [];
  for (const edge of edges) {
    const key = `${edge.from}\u0000${edge.to}`;
    if (edge.from === edge.to || !known.has(edge.from) || !known.has(edge.to) || seen.has(key)) continue;
    seen.add(key);
    kept.push(edge);
  }
  return kept;
}

/** Each node once (the first box wins), so neither engine meets a duplicate id. */
function uniqueNodes(nodes: readonly LayoutNode[]): LayoutNode[] {
  const seen = new Set<string>();
  return nodes.filter((node) => (seen.has(node.id) ? false : (seen.add(node.id), true)));
}

export async function layoutGraph(input: GraphLayoutInput): Promise<GraphLayout> {
  const nodes = uniqueNodes(input.nodes);
  if (nodes.length === 0) return { nodes: [], routes: [] };
  if (nodes.length === 1) return { nodes: [{ id: nodes[0]!.id, x: 0, y: 0 }], routes: [] };
  const edges = usableEdges(nodes, input.edges);
  return (input.algorithm ?? graphLayoutAlgorithm(nodes.length, edges.length)) === 'layered'
    ? layered(nodes, edges, input.direction ?? 'RIGHT')
    : { nodes: await force(nodes, edges), routes: [] };
}

// ---- ELK layered ----

interface Elk {
  layout(graph: ElkNode, args?: { layoutOptions?: LayoutOptions }): Promise<ElkNode>;
}

let elk: Promise<Elk> | undefined;

function loadElk(): Promise<Elk> {
  elk ??= import('elkjs/lib/elk.bundled.js').then((module) => {
    // The bundle is CommonJS: the constructor is the module itself or its default, by bundler.
    const loaded = module as unknown as { default?: unknown };
    const Elk = (loaded.default ?? loaded) as new () => Elk;
    const scope = globalThis as { onmessage?: unknown };
    const before = scope.onmessage;
    const instance = new Elk();
    // In a worker, elk's bundle claims `self.onmessage` for a protocol of its own; Comlink listens on the same
    // port, so give the handler back.
    if ('onmessage' in scope) scope.onmessage = before ?? null;
    return instance;
  });
  return elk;
}

const LAYERED_OPTIONS: LayoutOptions = {
  'elk.algorithm': 'layered',
  'elk.layered.thoroughness': '1',
  'elk.layered.nodePlacement.strategy': 'SIMPLE',
  'elk.edgeRouting': 'POLYLINE',
  'elk.spacing.nodeNode': '20',
  'elk.layered.spacing.nodeNodeBetweenLayers': '56',
  'elk.spacing.componentComponent': '40',
};

async function layered(nodes: LayoutNode[], edges: LayoutEdge[], direction: 'RIGHT' | 'DOWN'): Promise<GraphLayout> {
  const engine = await loadElk();
  const graph: ElkNode = {
    id: '__root__',
    layoutOptions: { ...LAYERED_OPTIONS, 'elk.direction': direction },
    children: nodes.map(({ id, width, height }) => ({ id, width, height })),
    edges: edges.map(({ from, to }, index) => ({ id: `e${index}`, sources: [from], targets: [to] })),
  };
  const laid = await engine.layout(graph);
  const routes: EdgeRoute[] = [];
  for (const edge of (laid.edges ?? []) as ElkExtendedEdge[]) {
    const points = (edge.sections ?? []).flatMap((section) => section.bendPoints ?? []);
    const link = edges[Number(edge.id.slice(1))];
    if (link && points.length > 0) routes.push({ ...link, points: points.map(({ x, y }) => ({ x, y })) });
  }
  return {
    nodes: (laid.children ?? []).map((child) => ({
      id: child.id,
      x: (child.x ?? 0) + (child.width ?? 0) / 2,
      y: (child.y ?? 0) + (child.height ?? 0) / 2,
    })),
    routes,
  };
}

// ---- fcose draft ----

let fcose: Promise<(options: { elements: ElementDefinition[] }) => Core> | undefined;

function loadFcose() {
  fcose ??= Promise.all([import('cytoscape'), import('cytoscape-fcose')]).then(([cytoscapeModule, fcoseModule]) => {
    const cytoscape = cytoscapeModule.default;
    cytoscape.use(fcoseModule.default);
    return ({ elements }: { elements: ElementDefinition[] }) =>
      // Spectral placement reads the edges only (the boxes are made room for afterwards), so no style.
      cytoscape({ headless: true, styleEnabled: false, elements });
  });
  return fcose;
}

/**
 * fcose's time grows with the edges (cytoscape builds each, spectral placement walks them). Beyond this many a
 * node, the placement reads a skeleton of the graph: the edges that connect it first, then the others in order.
 */
export const FORCE_EDGES_PER_NODE = 1.5;

/** At most `limit` edges: a spanning forest (every connection kept), then the rest in their order. */
export function skeletonEdges(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[], limit: number): LayoutEdge[] {
  if (edges.length <= limit) return [...edges];
  const parent = new Map(nodes.map((node) => [node.id, node.id]));
  const rootOf = (id: string): string => {
    let at = id;
    while (parent.get(at) !== at) {
      const up = parent.get(parent.get(at)!)!;
      parent.set(at, up);
      at = up;
    }
    return at;
  };
  const kept: LayoutEdge[] = [];
  const rest: LayoutEdge[] = [];
  for (const edge of edges) {
    const [a, b] = [rootOf(edge.from), rootOf(edge.to)];
    if (a === b) rest.push(edge);
    else {
      parent.set(a, b);
      kept.push(edge);
    }
  }
  return [...kept, ...rest.slice(0, Math.max(0, limit - kept.length))];
}

async function force(nodes: LayoutNode[], all: LayoutEdge[]): Promise<NodePosition[]> {
  const edges = skeletonEdges(nodes, all, Math.ceil(FORCE_EDGES_PER_NODE * nodes.length));
  const create = await loadFcose();
  const cy = create({
    elements: [
      ...nodes.map(({ id }) => ({ group: 'nodes' as const, data: { id } })),
      ...edges.map(({ from, to }, index) => ({
        group: 'edges' as const,
        data: { id: `e${index}`, source: from, target: to },
      })),
    ],
  });
  try {
    cy.layout({
      name: 'fcose',
      quality: 'draft',
      randomize: true,
      animate: false,
      fit: false,
      packComponents: false,
    } as CytoscapeLayoutOptions).run();
    const positions = cy.nodes().map((node) => {
      const { x, y } = node.position();
      return { id: node.id(), x, y };
    });
    const cell = {
      width: Math.max(...nodes.map((node) => node.width)),
      height: Math.max(...nodes.map((node) => node.height)),
    };
    return spreadOverlaps(positions, cell);
  } finally {
    cy.destroy();
  }
}

/**
 * Spectral placement (fcose draft) puts services with the same neighbours on the same spot. This pass spreads the
 * drawing to room for every box, then snaps each node to a grid of `cell`-sized cells, nearest the centre first,
 * moving a node whose cell is taken to the nearest free cell around it: no two boxes overlap and the overall
 * shape stays.
 */
export function spreadOverlaps(positions: NodePosition[], cell: { width: number; height: number }): NodePosition[] {
  if (positions.length === 0) return [];
  const xs = positions.map((p) => p.x);
  const ys = positions.map((p) => p.y);
  const cx = xs.reduce((sum, x) => sum + x, 0) / positions.length;
  const cy = ys.reduce((sum, y) => sum + y, 0) / positions.length;
  // Room for every box twice over; a drawing already that sparse keeps its size.
  const width = Math.max(Math.max(...xs) - Math.min(...xs), cell.width);
  const height = Math.max(Math.max(...ys) - Math.min(...ys), cell.height);
  const scale = Math.max(1, Math.sqrt((2 * positions.length * cell.width * cell.height) / (width * height)));
  const grid = positions.map((p) => ({
    id: p.id,
    gx: ((p.x - cx) * scale) / cell.width,
    gy: ((p.y - cy) * scale) / cell.height,
  }));
  grid.sort((a, b) => Math.hypot(a.gx, a.gy) - Math.hypot(b.gx, b.gy) || (a.id < b.id ? -1 : 1));
  const taken = new Set<number>();
  // Cells as one number: rows and columns stay far below 2^20 for the 5,000 nodes this is used for.
  const key = (col: number, row: number) => (col + 1048576) * 2097152 + (row + 1048576);
  const placed = new Map<string, NodePosition>();
  for (const { id, gx, gy } of grid) {
    const homeCol = Math.round(gx);
    const homeRow = Math.round(gy);
    let best: [number, number] | null = null;
    for (let ring = 0; best === null; ring++) {
      let bestDistance = Infinity;
      const consider = (col: number, row: number) => {
        if (taken.has(key(col, row))) return;
        const distance = (col - gx) ** 2 + (row - gy) ** 2;
        if (distance < bestDistance) {
          bestDistance = distance;
          best = [col, row];
        }
      };
      if (ring === 0) consider(homeCol, homeRow);
      // The ring's cells only: the inner ones are all taken.
      for (let step = -ring; step <= ring; step++) {
        consider(homeCol + step, homeRow - ring);
        consider(homeCol + step, homeRow + ring);
        if (step !== -ring && step !== ring) {
          consider(homeCol - ring, homeRow + step);
          consider(homeCol + ring, homeRow + step);
        }
      }
    }
    const [col, row] = best as [number, number];
    taken.add(key(col, row));
    placed.set(id, { id, x: col * cell.width, y: row * cell.height });
  }
  return positions.map((position) => placed.get(position.id)!);
}
