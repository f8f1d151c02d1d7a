/**
 * What the Service Graph draws (spec/catalogue.md 2.1): the boxes the layout places, and cytoscape's elements and
 * style. Pure, so it is tested without a canvas.
 */
import type { ElementDefinition, StylesheetJson } from 'cytoscape';
import type { ServiceGraph } from '../../contract/dependencies.js';
import { HEALTHS, healthLabel, type Health } from '../../domain/catalogue.js';
import type { GraphEdge } from '../../domain/graph.js';
import { HEALTH_COLOURS } from '../components/health-colours.js';
import type { EdgeRoute, GraphLayout, GraphLayoutInput } from './graph-layout-client.js';

type GraphNode = ServiceGraph['nodes'][number];

/** Spec: "otherwise grey" (no health known: a remote service out of reach). Keeps 4.5:1 against white. */
export const UNKNOWN_HEALTH_COLOUR = '#6b7280';
export const ROOT_SIZE = 64;
export const NODE_SIZE = 40;
const FONT_SIZE = 12;
const LINE_HEIGHT = 15;
const LABEL_GAP = 6;
/** Longer names are cut with an ellipsis: a label stays within about 150 px. */
const LABEL_CHARS = 22;

export function healthColour(health: Health | null): string {
  return health ? HEALTH_COLOURS[health] : UNKNOWN_HEALTH_COLOUR;
}

export function healthText(health: Health | null): string {
  return health ? healthLabel(health) : 'Unknown';
}

function shorten(text: string): string {
  return text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1).trimEnd()}…` : text;
}

/** The name, and a remote service's workspace on a second line. */
export function nodeLabel(node: Pick<GraphNode, 'name' | 'workspace'>): string {
  return node.workspace ? `${shorten(node.name)}\n(${shorten(node.workspace)})` : shorten(node.name);
}

/** How a node is named in words: "Ledger (acme)" for a remote service. */
export function nodeName(node: Pick<GraphNode, 'name' | 'workspace'>): string {
  return node.workspace ? `${node.name} (${node.workspace})` : node.name;
}

function sizeOf(node: GraphNode, root: string): number {
  return node.id === root ? ROOT_SIZE : NODE_SIZE;
}

/** The space the label takes under the node. */
function labelHeight(node: GraphNode): number {
  return LABEL_GAP + (node.workspace ? 2 : 1) * LINE_HEIGHT;
}

/** What the layout places: each node's box, its label under it included. */
export function layoutInput(
  graph: ServiceGraph,
  edges: readonly GraphEdge[],
  root: string,
  direction: 'RIGHT' | 'DOWN',
): GraphLayoutInput {
  return {
    nodes: graph.nodes.map((node) => {
      const size = sizeOf(node, root);
      const longest = Math.max(
        ...nodeLabel(node)
          .split('\n')
          .map((line) => line.length),
      );
      return {
        id: node.id,
        width: Math.round(Math.max(size, longest * FONT_SIZE * 0.6 + 8)),
        height: size + labelHeight(node),
      };
    }),
    edges: [...edges],
    direction,
  };
}

const letterImages = new Map<string, string>();

/** An initial-letter icon, white on the node's colour, as an SVG image (a node has one text label: its name). */
export function letterImage(name: string): string {
  const letter = (name.trim().match(/[\p{L}\p{N}]/u)?.[0] ?? '?').toUpperCase();
  let image = letterImages.get(letter);
  if (!image) {
    const escaped = letter.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">` +
      `<text x="50" y="50" dy="0.35em" text-anchor="middle" font-family="Inter, system-ui, sans-serif" ` +
      `font-size="50" font-weight="600" fill="#ffffff">${escaped}</text></svg>`;
    image = `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`;
    letterImages.set(letter, image);
  }
  return image;
}

/**
 * An edge's bends as cytoscape's segments: for each point, how far along the line from source to target it lies
 * (weight) and how far off it (distance; positive to the right of the direction of travel, y pointing down).
 */
export function segmentsOf(
  source: { x: number; y: number },
  target: { x: number; y: number },
  points: ReadonlyArray<{ x: number; y: number }>,
): { weights: string; distances: string } | null {
  const dx = target.x - source.x;
  const dy = target.y - source.y;
  const length = Math.hypot(dx, dy);
  if (length === 0 || points.length === 0) return null;
  const segments = points
    .map(({ x, y }) => ({
      weight: ((x - source.x) * dx + (y - source.y) * dy) / (length * length),
      distance: ((x - source.x) * -dy + (y - source.y) * dx) / length,
    }))
    .sort((a, b) => a.weight - b.weight);
  // Bends all but on the line change nothing: draw it straight.
  if (segments.every(({ distance }) => Math.abs(distance) < 4)) return null;
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    weights: segments.map(({ weight }) => round(weight)).join(' '),
    distances: segments.map(({ distance }) => round(distance)).join(' '),
  };
}

/** cytoscape's elements: the layout's centres, moved up so the node and its label sit in the box together. */
export function graphElements(
  graph: ServiceGraph,
  edges: readonly GraphEdge[],
  root: string,
  layout: GraphLayout,
): ElementDefinition[] {
  const at = new Map(layout.nodes.map((position) => [position.id, position]));
  const nodes: ElementDefinition[] = graph.nodes.map((node) => {
    const centre = at.get(node.id) ?? { x: 0, y: 0 };
    const position = { x: centre.x, y: centre.y - labelHeight(node) / 2 };
    // Fixed looks go by class (parsed once per stylesheet); only the label and the image are per node.
    const classes = [`h-${node.health ?? 'unknown'}`];
    if (node.id === root) classes.push('root');
    if (node.workspace) classes.push('remote');
    if (node.thumbnail_url) classes.push('thumbnail');
    return {
      group: 'nodes',
      data: {
        id: node.id,
        handle: node.handle,
        label: nodeLabel(node),
        colour: healthColour(node.health),
        image: node.thumbnail_url ?? letterImage(node.name),
        remote: node.workspace ? 1 : 0,
      },
      classes,
      position,
    };
  });
  const routes = new Map<string, EdgeRoute>(layout.routes.map((route) => [`${route.from}\u0000${route.to}`, route]));
  const links: ElementDefinition[] = edges.map(({ from, to }) => {
    const route = routes.get(`${from}\u0000${to}`);
    // Measured from the boxes' centres, as the layout routed it: the route then moves with the nodes.
    const [source, target] = [at.get(from), at.get(to)];
    const segments = route && source && target ? segmentsOf(source, target, route.points) : null;
    return {
      group: 'edges',
      data: { id: `${from}\u2192${to}`, source: from, target: to, ...segments },
      ...(segments ? { classes: ['routed'] } : {}),
    };
  });
  return [...nodes, ...links];
}

/**
 * Where a big graph's drawing starts: on the service itself, at a zoom its labels are read at (or everything, if
 * that is no smaller), so the first frames draw its neighbourhood only. cytoscape's own fit would measure every
 * label first.
 */
export function initialViewport(
  nodes: ReadonlyArray<{ id: string; x: number; y: number }>,
  root: string,
  width: number,
  height: number,
): { zoom: number; pan: { x: number; y: number } } {
  const xs = nodes.map((node) => node.x);
  const ys = nodes.map((node) => node.y);
  const margin = ROOT_SIZE;
  const spanX = Math.max(...xs) - Math.min(...xs) + 2 * margin;
  const spanY = Math.max(...ys) - Math.min(...ys) + 2 * margin;
  const fitZoom = Math.min(width / spanX, height / spanY);
  const middle = { x: (Math.max(...xs) + Math.min(...xs)) / 2, y: (Math.max(...ys) + Math.min(...ys)) / 2 };
  if (fitZoom >= READABLE_ZOOM) {
    const zoom = Math.min(1.2, fitZoom);
    return { zoom, pan: { x: width / 2 - middle.x * zoom, y: height / 2 - middle.y * zoom } };
  }
  const zoom = READABLE_ZOOM;
  const centre = nodes.find((node) => node.id === root) ?? middle;
  return { zoom, pan: { x: width / 2 - centre.x * zoom, y: height / 2 - centre.y * zoom } };
}

/** Labels are drawn from a zoom of 0.6 (min-zoomed-font-size 7 of a 12 px font); this one reads comfortably. */
export const READABLE_ZOOM = 0.85;

/** Above this many edges, straight lines: bezier edges cost more to draw, and a big graph is seen zoomed out. */
const CURVED_EDGE_LIMIT = 400;

export function graphStyle(edgeCount: number): StylesheetJson {
  return [
    {
      selector: 'node',
      style: {
        width: NODE_SIZE,
        height: NODE_SIZE,
        'background-color': UNKNOWN_HEALTH_COLOUR,
        'background-image': 'data(image)',
        'background-fit': 'cover',
        'background-clip': 'node',
        'border-width': 2,
        'border-color': '#ffffff',
        label: 'data(label)',
        'font-family': 'Inter, system-ui, sans-serif',
        'font-size': FONT_SIZE,
        color: '#1f2937',
        'text-valign': 'bottom',
        'text-halign': 'center',
        'text-margin-y': LABEL_GAP - 2,
        'text-wrap': 'wrap',
        'line-height': LINE_HEIGHT / FONT_SIZE,
        'text-background-color': '#ffffff',
        'text-background-opacity': 0.85,
        'text-background-padding': '1px',
        'text-background-shape': 'roundrectangle',
        // Labels too small to read are not drawn: a big graph zoomed out draws much faster.
        'min-zoomed-font-size': 7,
      },
    },
    ...HEALTHS.map((health) => ({ selector: `.h-${health}`, style: { 'background-color': HEALTH_COLOURS[health] } })),
    {
      // A thumbnail covers the fill; the ring keeps the health colour in sight.
      selector: '.thumbnail',
      style: { 'border-width': 4, 'border-color': 'data(colour)' },
    },
    {
      // A service of a linked workspace: a dashed ring.
      selector: '.remote',
      style: { 'outline-width': 2, 'outline-style': 'dashed', 'outline-color': '#374151', 'outline-offset': 2 },
    },
    {
      // The service the graph is drawn from.
      selector: '.root',
      style: {
        width: ROOT_SIZE,
        height: ROOT_SIZE,
        'font-weight': 'bold',
        'font-size': FONT_SIZE + 1,
        'outline-width': 3,
        'outline-style': 'solid',
        'outline-color': '#1f2937',
        'outline-offset': 2,
      },
    },
    {
      selector: 'edge',
      style: {
        width: 1.5,
        'curve-style': edgeCount > CURVED_EDGE_LIMIT ? 'straight' : 'bezier',
        // Many edges fade a little, so the services stay in front of them.
        opacity: edgeCount > CURVED_EDGE_LIMIT ? 0.5 : 1,
        'line-color': '#94a3b8',
        'target-arrow-color': '#64748b',
        'target-arrow-shape': 'triangle',
        'arrow-scale': 0.9,
      },
    },
    {
      // An edge the layered layout routed around the services between its ends.
      selector: '.routed',
      style: {
        'curve-style': 'round-segments',
        'segment-weights': 'data(weights)',
        'segment-distances': 'data(distances)',
        'segment-radii': [12],
        'edge-distances': 'node-position',
      },
    },
  ];
}
