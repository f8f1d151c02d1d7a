import { describe, expect, it } from 'vitest';
import type { ServiceGraph } from '../../../src/contract/dependencies.js';
import { graphEdgesOf } from '../../../src/domain/graph.js';
import {
  graphElements,
  healthColour,
  initialViewport,
  layoutInput,
  letterImage,
  READABLE_ZOOM,
  nodeLabel,
  segmentsOf,
  UNKNOWN_HEALTH_COLOUR,
} from '../../../src/app/dependencies/graph-elements.js';

const node = (id: string, extra: Partial<ServiceGraph['nodes'][number]> = {}): ServiceGraph['nodes'][number] => ({
  id,
  handle: id.split(':').pop()!,
  name: id,
  workspace: null,
  health: null,
  thumbnail_url: null,
  dependencies: [],
  dependents: [],
  ...extra,
});

const graph: ServiceGraph = {
  truncated: false,
  nodes: [
    node('checkout', { name: 'Checkout', health: 'warning', dependencies: ['ledger', 'cloud:storage'] }),
    node('ledger', { name: 'Ledger', health: 'critical', thumbnail_url: '/api/assets/1' }),
    node('cloud:storage', { name: 'Object Storage', workspace: 'cloud', health: 'good' }),
  ],
};

describe('the graph drawing', () => {
  it('colours nodes by health as the spec says, grey when unknown', () => {
    expect(healthColour('good')).toBe('#15803d');
    expect(healthColour('maintenance')).toBe('#1d4ed8');
    expect(healthColour('warning')).toBe('#c2410c');
    expect(healthColour('error')).toBe('#a16207');
    expect(healthColour('critical')).toBe('#b91c1c');
    expect(healthColour(null)).toBe(UNKNOWN_HEALTH_COLOUR);
  });

  it('labels remote services with their workspace and cuts long names', () => {
    expect(nodeLabel({ name: 'Object Storage', workspace: 'cloud' })).toBe('Object Storage\n(cloud)');
    expect(nodeLabel({ name: 'A very long service name indeed', workspace: null })).toBe('A very long service n…');
  });

  it('makes one initial-letter icon per letter', () => {
    expect(letterImage('ledger')).toBe(letterImage('Legacy'));
    expect(decodeURIComponent(letterImage('ledger'))).toContain('>L</text>');
    expect(decodeURIComponent(letterImage('  42 things'))).toContain('>4</text>');
    expect(letterImage('ledger')).not.toBe(letterImage('checkout'));
  });

  it('gives the layout a bigger box for the service itself, labels included', () => {
    const input = layoutInput(graph, graphEdgesOf(graph.nodes), 'checkout', 'RIGHT');
    const boxes = new Map(input.nodes.map((box) => [box.id, box]));
    expect(boxes.get('checkout')!.height).toBeGreaterThan(boxes.get('ledger')!.height);
    expect(boxes.get('cloud:storage')!.height).toBeGreaterThan(boxes.get('ledger')!.height);
    expect(input.edges).toHaveLength(2);
    expect(input.direction).toBe('RIGHT');
  });

  it('builds cytoscape nodes and edges at the layout positions', () => {
    const edges = graphEdgesOf(graph.nodes);
    const elements = graphElements(graph, edges, 'checkout', {
      nodes: [
        { id: 'checkout', x: 0, y: 0 },
        { id: 'ledger', x: 200, y: 0 },
        { id: 'cloud:storage', x: 200, y: 100 },
      ],
      routes: [{ from: 'checkout', to: 'ledger', points: [{ x: 100, y: 60 }] }],
    });
    const data = new Map(elements.map((element) => [element.data.id, element]));
    expect(data.get('checkout')).toMatchObject({ classes: ['h-warning', 'root'], data: { colour: '#c2410c' } });
    expect(data.get('ledger')).toMatchObject({
      classes: ['h-critical', 'thumbnail'],
      data: { image: '/api/assets/1', remote: 0 },
    });
    expect(data.get('cloud:storage')).toMatchObject({
      classes: ['h-good', 'remote'],
      data: { remote: 1, label: 'Object Storage\n(cloud)' },
    });
    // The node sits above its label, in the box the layout placed.
    expect(data.get('ledger')!.position!.y).toBeLessThan(0);
    expect(data.get('checkout→ledger')).toMatchObject({
      classes: ['routed'],
      data: { source: 'checkout', target: 'ledger' },
    });
    expect(data.get('checkout→ledger')!.data.weights).toBeTypeOf('string');
    expect(data.get('checkout→cloud:storage')!.classes).toBeUndefined();
  });

  it('turns bend points into segment weights and distances along the edge', () => {
    // Left to right; a bend halfway, 50 below the line: cytoscape's distances are positive to the right-hand normal.
    expect(segmentsOf({ x: 0, y: 0 }, { x: 100, y: 0 }, [{ x: 50, y: 50 }])).toEqual({
      weights: '0.5',
      distances: '50',
    });
    // Points come back in order from the source, and bends on the line need none.
    expect(
      segmentsOf({ x: 0, y: 0 }, { x: 100, y: 0 }, [
        { x: 75, y: -20 },
        { x: 25, y: -20 },
      ]),
    ).toEqual({ weights: '0.25 0.75', distances: '-20 -20' });
    expect(segmentsOf({ x: 0, y: 0 }, { x: 100, y: 0 }, [{ x: 50, y: 1 }])).toBeNull();
    expect(segmentsOf({ x: 0, y: 0 }, { x: 0, y: 0 }, [{ x: 50, y: 50 }])).toBeNull();
  });

  it('opens a big graph on the service at a readable zoom, and a graph that fits whole in the middle', () => {
    const spread = Array.from({ length: 100 }, (_, i) => ({
      id: `s${i}`,
      x: (i % 10) * 300,
      y: Math.floor(i / 10) * 300,
    }));
    const big = initialViewport(spread, 's55', 800, 600);
    expect(big.zoom).toBe(READABLE_ZOOM);
    // s55 (1500, 1500) at the centre of the 800x600 canvas.
    expect(big.pan).toEqual({ x: 400 - 1500 * READABLE_ZOOM, y: 300 - 1500 * READABLE_ZOOM });
    const small = initialViewport(
      [
        { id: 'a', x: 0, y: 0 },
        { id: 'b', x: 200, y: 0 },
      ],
      'a',
      800,
      600,
    );
    expect(small.zoom).toBe(1.2);
    expect(small.pan).toEqual({ x: 400 - 100 * 1.2, y: 300 });
  });
});
