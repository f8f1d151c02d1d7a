/**
 * What the health worker offers (DESIGN.md 6: rollups off the main thread). The domain functions do the work;
 * this module only names them, so a test can expose it over a MessageChannel without a worker.
 */
import { rollupDailyHealth } from '../domain/health.js';

export const healthWorkerApi = {
  rollupDailyHealth,
};

export type HealthWorkerApi = typeof healthWorkerApi;
