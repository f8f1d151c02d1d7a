/**
 * What the health worker offers (rollups off the main thread and graph layouts: docs/decisions.md#offline and #graph).
 * The domain functions do the work; this module only names them, so a test can expose it over a MessageChannel
 * without a worker.
 */
import { rollupDailyHealth } from '../domain/health.js';
import type { GraphLayout, GraphLayoutInput } from './graph-layout.js';

export const healthWorkerApi = {
  rollupDailyHealth,
  /**
   * The graph's node positions (and the bends of edges routed around nodes). The layout module (and elk or cytoscape behind it) loads on the first layout, so
   * a worker that only rolls up health never downloads them.
   */
  async layoutGraph(input: GraphLayoutInput): Promise<GraphLayout> {
    const { layoutGraph } = await import('./graph-layout.js');
    return layoutGraph(input);
  },
};

export type HealthWorkerApi = typeof healthWorkerApi;
