import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkGraph, remoteNodeId, walkGraph, type GraphEdge } from '../../../src/domain/graph.js';

const edges = (...pairs: Array<[string, string]>): GraphEdge[] => pairs.map(([from, to]) => ({ from, to }));
const depths = (reached: Array<{ id: string; depth: number }>) =>
  Object.fromEntries(reached.map(({ id, depth }) => [id, depth]));

describe('walkGraph', () => {
  const chain = edges(['a', 'b'], ['b', 'c'], ['c', 'd'], ['x', 'a'], ['y', 'x']);

  it('follows dependencies downstream and dependents upstream, each to the depth', () => {
    expect(depths(walkGraph('a', chain, 1))).toEqual({ a: 0, b: 1, x: 1 });
    expect(depths(walkGraph('a', chain, 2))).toEqual({ a: 0, b: 1, c: 2, x: 1, y: 2 });
  });

  it('does not turn around: the other dependents of a dependency are not reached', () => {
    const shared = edges(['a', 'db'], ['other', 'db']);
    expect(depths(walkGraph('a', shared, 3))).toEqual({ a: 0, db: 1 });
  });

  it('ends cycles at nodes already reached, each at its nearest distance', () => {
    const cycle = edges(['a', 'b'], ['b', 'c'], ['c', 'a']);
    // Downstream a->b->c; upstream a<-c<-b: c is one step upstream, nearer than two down.
    expect(depths(walkGraph('a', cycle, 6))).toEqual({ a: 0, b: 1, c: 1 });
    expect(depths(walkGraph('a', edges(['a', 'a']), 2))).toEqual({ a: 0 });
  });

  it('reaches only the root when it has no edges', () => {
    expect(walkGraph('lonely', chain, 6)).toEqual([{ id: 'lonely', depth: 0 }]);
  });
});

describe('linkGraph', () => {
  it('links each node to its dependencies and dependents among the kept nodes, once', () => {
    const { nodes, truncated } = linkGraph(
      [
        { id: 'a', depth: 0 },
        { id: 'b', depth: 1 },
      ],
      edges(['a', 'b'], ['a', 'b'], ['b', 'gone']),
    );
    expect(truncated).toBe(false);
    expect(nodes).toEqual([
      { id: 'a', dependencies: ['b'], dependents: [] },
      { id: 'b', dependencies: [], dependents: ['a'] },
    ]);
  });

  it('keeps the nearest nodes (ties by id) and says it truncated', () => {
    const reached = [
      { id: 'far', depth: 2 },
      { id: 'root', depth: 0 },
      { id: 'b', depth: 1 },
      { id: 'a', depth: 1 },
    ];
    const { nodes, truncated } = linkGraph(reached, edges(['root', 'a'], ['a', 'far']), 3);
    expect(nodes.map((node) => node.id)).toEqual(['root', 'a', 'b']);
    expect(nodes[1]!.dependencies).toEqual([]);
    expect(truncated).toBe(true);
  });

  it('never keeps more than the limit, always the root first, for any graph', () => {
    const id = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
    fc.assert(
      fc.property(fc.array(fc.tuple(id, id), { maxLength: 20 }), fc.integer({ min: 1, max: 6 }), (pairs, limit) => {
        const graph = edges(...pairs);
        const reached = walkGraph('a', graph, 6);
        const { nodes, truncated } = linkGraph(reached, graph, limit);
        expect(nodes.length).toBe(Math.min(limit, reached.length));
        expect(truncated).toBe(reached.length > limit);
        expect(nodes[0]!.id).toBe('a');
        const kept = new Set(nodes.map((node) => node.id));
        for (const node of nodes) for (const to of node.dependencies) expect(kept.has(to)).toBe(true);
      }),
    );
  });
});

describe('remoteNodeId', () => {
  it('prefixes the handle with its workspace', () => {
    expect(remoteNodeId('otherco', 'status-page')).toBe('otherco:status-page');
  });
});
