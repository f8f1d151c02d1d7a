import { describe, expect, it } from 'vitest';
import {
  graphEdgesOf,
  graphLayoutAlgorithm,
  LAYERED_LAYOUT_BUDGET,
  ringLayout,
  type GraphEdge,
} from '../../../src/domain/graph.js';

describe('graphEdgesOf', () => {
  it('links each node to its dependencies among the nodes held, never to itself', () => {
    const nodes = [
      { id: 'a', dependencies: ['b', 'gone', 'a'] },
      { id: 'b', dependencies: ['a'] },
      { id: 'c', dependencies: [] },
    ];
    expect(graphEdgesOf(nodes)).toEqual([
      { from: 'a', to: 'b' },
      { from: 'b', to: 'a' },
    ]);
  });
});

describe('graphLayoutAlgorithm', () => {
  it('lays small graphs out in layers and large or dense ones by force', () => {
    expect(graphLayoutAlgorithm(30, 40)).toBe('layered');
    expect(graphLayoutAlgorithm(LAYERED_LAYOUT_BUDGET, 0)).toBe('layered');
    expect(graphLayoutAlgorithm(1000, 3000)).toBe('force');
    expect(graphLayoutAlgorithm(300, 600)).toBe('force');
  });
});

describe('ringLayout', () => {
  const edges: GraphEdge[] = [
    { from: 'root', to: 'a' },
    { from: 'b', to: 'root' },
    { from: 'a', to: 'c' },
  ];

  it('puts the root in the middle and each step further out on a wider ring', () => {
    const positions = ringLayout('root', ['root', 'a', 'b', 'c', 'island'], edges, 100);
    const at = new Map(positions.map((p) => [p.id, Math.hypot(p.x, p.y)]));
    expect(positions).toHaveLength(5);
    expect(at.get('root')).toBe(0);
    expect(at.get('a')).toBeCloseTo(at.get('b')!, 0);
    expect(at.get('c')!).toBeGreaterThan(at.get('a')!);
    expect(at.get('island')!).toBeGreaterThan(at.get('c')!);
  });

  it('places a lone node, and nodes when the root is missing', () => {
    expect(ringLayout('solo', ['solo'], [])).toEqual([{ id: 'solo', x: 0, y: 0 }]);
    expect(ringLayout('missing', ['a', 'b'], [])).toHaveLength(2);
  });
});
