/**
 * The Comlink worker computing daily-health rollups (docs/decisions.md#offline); started by
 * src/app/health/rollup-client.ts.
 */
import { expose } from 'comlink';
import { healthWorkerApi } from './health-worker-api.js';

expose(healthWorkerApi);
