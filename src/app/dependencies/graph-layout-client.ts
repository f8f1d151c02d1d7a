/**
 * The graph's layout, computed in the app's one Comlink worker (docs/decisions.md#graph): node boxes and edges go over,
 * node centres (and the bends of routed edges) come back. Where no worker runs, a ring layout computed here stands
 * in (no layout engine is loaded on this thread).
 */
import { ringLayout } from '../../domain/graph.js';
import type { EdgeRoute, GraphLayout, GraphLayoutInput, NodePosition } from '../../workers/graph-layout.js';
import { inHealthWorker } from '../health/index.js';

export type { EdgeRoute, GraphLayout, GraphLayoutInput, NodePosition };

export function layoutGraphOffThread(input: GraphLayoutInput, root: string): Promise<GraphLayout> {
  return inHealthWorker(
    (remote) => remote.layoutGraph(input),
    () => ({
      nodes: ringLayout(
        root,
        input.nodes.map((node) => node.id),
        input.edges,
        Math.max(...input.nodes.map((node) => Math.max(node.width, node.height)), 1),
      ),
      routes: [],
    }),
  );
}
