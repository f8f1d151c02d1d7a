/** What the health feature offers the other features: the service's health tab and cards, a team's health, its worker. */
export { healthChecksSection } from './health-sections.js';
export { OverallHealthCard } from './overall-health-card.js';
export { ServiceHealthHistory, ViewHealthChecksButton } from './daily-health-bars.js';
export { inWorker as inHealthWorker } from './rollup-client.js';
export { createHealthCheck } from './health-api.js';
