import { expose, wrap } from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { graphLayoutAlgorithm, LAYERED_LAYOUT_BUDGET } from '../../../src/domain/graph.js';
import {
  layoutGraph,
  skeletonEdges,
  spreadOverlaps,
  usableEdges,
  type LayoutEdge,
  type LayoutNode,
} from '../../../src/workers/graph-layout.js';
import { healthWorkerApi, type HealthWorkerApi } from '../../../src/workers/health-worker-api.js';

/** The node positions of a layout. */
const positionsOf = async (input: Parameters<typeof layoutGraph>[0]) => (await layoutGraph(input)).nodes;

const box = (id: string): LayoutNode => ({ id, width: 80, height: 60 });

/** Every node placed once, at finite coordinates. */
function expectEveryNodePlaced(nodes: LayoutNode[], positions: Array<{ id: string; x: number; y: number }>) {
  expect(positions.map((p) => p.id).sort()).toEqual(nodes.map((n) => n.id).sort());
  for (const { x, y } of positions) {
    expect(Number.isFinite(x)).toBe(true);
    expect(Number.isFinite(y)).toBe(true);
  }
}

/** Two boxes overlap when their centres are closer than half their sizes on both axes. */
function overlaps(a: { x: number; y: number }, b: { x: number; y: number }) {
  return Math.abs(a.x - b.x) < 80 && Math.abs(a.y - b.y) < 60;
}

describe('the graph layout', () => {
  it('places a single node at the origin, and nothing for no nodes', async () => {
    expect(await layoutGraph({ nodes: [box('solo')], edges: [] })).toEqual({
      nodes: [{ id: 'solo', x: 0, y: 0 }],
      routes: [],
    });
    expect(await layoutGraph({ nodes: [], edges: [] })).toEqual({ nodes: [], routes: [] });
  });

  it('lays a service, its dependents and its dependencies out in layers, left to right', async () => {
    const nodes = ['web', 'mobile', 'api', 'db', 'cache'].map(box);
    const edges: LayoutEdge[] = [
      { from: 'web', to: 'api' },
      { from: 'mobile', to: 'api' },
      { from: 'api', to: 'db' },
      { from: 'api', to: 'cache' },
    ];
    const positions = await positionsOf({ nodes, edges });
    expectEveryNodePlaced(nodes, positions);
    const at = new Map(positions.map((p) => [p.id, p]));
    // Arrows point from a service to its dependencies: dependents left of the service, dependencies right.
    expect(at.get('web')!.x).toBeLessThan(at.get('api')!.x);
    expect(at.get('mobile')!.x).toBeLessThan(at.get('api')!.x);
    expect(at.get('db')!.x).toBeGreaterThan(at.get('api')!.x);
    expect(at.get('cache')!.x).toBeGreaterThan(at.get('api')!.x);
    for (const a of positions) for (const b of positions) if (a !== b) expect(overlaps(a, b)).toBe(false);
  });

  it('routes an edge that skips a layer around the service between, as bend points', async () => {
    const nodes = ['a', 'b', 'c'].map(box);
    const edges: LayoutEdge[] = [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'a', to: 'c' },
    ];
    const { nodes: positions, routes } = await layoutGraph({ nodes, edges });
    const at = new Map(positions.map((p) => [p.id, p]));
    const skip = routes.find((route) => route.from === 'a' && route.to === 'c');
    expect(skip?.points.length).toBeGreaterThan(0);
    // It passes the middle layer off b's box.
    const b = at.get('b')!;
    const passing = skip!.points.filter((p) => Math.abs(p.x - b.x) < 40);
    for (const p of passing) expect(Math.abs(p.y - b.y)).toBeGreaterThanOrEqual(30);
  });

  it('runs the layers downwards when asked (narrow screens)', async () => {
    const nodes = ['a', 'b'].map(box);
    const positions = await positionsOf({ nodes, edges: [{ from: 'a', to: 'b' }], direction: 'DOWN' });
    const at = new Map(positions.map((p) => [p.id, p]));
    expect(at.get('a')!.y).toBeLessThan(at.get('b')!.y);
  });

  it('handles cycles, self-loops, duplicate and dangling edges, and disconnected nodes', async () => {
    const nodes = ['a', 'b', 'c', 'd', 'lonely'].map(box);
    const edges: LayoutEdge[] = [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
      { from: 'c', to: 'd' },
      { from: 'd', to: 'd' },
      { from: 'a', to: 'b' },
      { from: 'a', to: 'missing' },
    ];
    const positions = await positionsOf({ nodes, edges });
    expectEveryNodePlaced(nodes, positions);
    expect(usableEdges(nodes, edges)).toEqual([
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
      { from: 'c', to: 'd' },
    ]);
  });

  it('gives the same positions for the same graph', async () => {
    const nodes = Array.from({ length: 40 }, (_, i) => box(`s${i}`));
    const edges = nodes.slice(1).map((node, i) => ({ from: `s${Math.floor(i / 3)}`, to: node.id }));
    expect(await positionsOf({ nodes, edges })).toEqual(await positionsOf({ nodes, edges }));
  });

  it('switches to fcose draft beyond the layered budget, and no two services overlap', async () => {
    expect(graphLayoutAlgorithm(LAYERED_LAYOUT_BUDGET, 0)).toBe('layered');
    expect(graphLayoutAlgorithm(LAYERED_LAYOUT_BUDGET - 1, 1)).toBe('force');
    const nodes = Array.from({ length: 700 }, (_, i) => box(`n${i}`));
    const edges = nodes.slice(1).map((node, i) => ({ from: `n${Math.floor(i / 2)}`, to: node.id }));
    edges.push({ from: 'n600', to: 'n0' });
    expect(graphLayoutAlgorithm(nodes.length, edges.length)).toBe('force');
    const positions = await positionsOf({ nodes, edges });
    expectEveryNodePlaced(nodes, positions);
    // Spectral placement stacks the leaves of one parent; the spreading gives each its own cell.
    expect(new Set(positions.map((p) => `${p.x},${p.y}`)).size).toBe(nodes.length);
  });

  it('lays big dense graphs out from a skeleton that keeps every connection', () => {
    const nodes = ['a', 'b', 'c', 'd', 'e'].map(box);
    const edges: LayoutEdge[] = [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'a' },
      { from: 'a', to: 'c' },
      { from: 'b', to: 'c' },
      { from: 'd', to: 'e' },
      { from: 'c', to: 'd' },
    ];
    expect(skeletonEdges(nodes, edges, 10)).toEqual(edges);
    // The four that join the five services come first, then the others in order up to the limit.
    expect(skeletonEdges(nodes, edges, 5)).toEqual([
      { from: 'a', to: 'b' },
      { from: 'a', to: 'c' },
      { from: 'd', to: 'e' },
      { from: 'c', to: 'd' },
      { from: 'b', to: 'a' },
    ]);
    expect(skeletonEdges(nodes, edges, 2)).toHaveLength(4);
  });

  it('spreads stacked nodes onto free cells around their spot, nearest the centre first', () => {
    const stacked = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, x: 0, y: 0 }));
    const spread = spreadOverlaps([...stacked, { id: 'far', x: 1000, y: 0 }], { width: 10, height: 10 });
    expect(spread.map((p) => p.id)).toEqual(['a', 'b', 'c', 'd', 'e', 'far']);
    const cells = spread.map((p) => `${p.x},${p.y}`);
    expect(new Set(cells).size).toBe(6);
    // The five stay together, within a cell of each other's ring; the far one stays far.
    const [a, ...others] = spread.slice(0, 5);
    for (const p of others) expect(Math.max(Math.abs(p.x - a!.x), Math.abs(p.y - a!.y))).toBeLessThanOrEqual(20);
    expect(spread[5]!.x - a!.x).toBeGreaterThan(900);
    expect(spreadOverlaps([], { width: 10, height: 10 })).toEqual([]);
  });
});

describe('the worker API', () => {
  let channel: MessageChannel | null = null;
  afterEach(() => {
    channel?.port1.close();
    channel?.port2.close();
    channel = null;
  });

  it('answers layouts over Comlink with positions only', async () => {
    channel = new MessageChannel();
    expose(healthWorkerApi, channel.port1);
    const remote = wrap<HealthWorkerApi>(channel.port2);
    const nodes = ['a', 'b', 'c'].map(box);
    const edges = [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
    ];
    const layout = await remote.layoutGraph({ nodes, edges });
    expect(layout).toEqual(await layoutGraph({ nodes, edges }));
    for (const position of layout.nodes) expect(Object.keys(position).sort()).toEqual(['id', 'x', 'y']);
  });
});
