import { z } from 'zod';
import { serviceParams } from '../catalogue.js';
import {
  aggregateReportQuery,
  dailyHealthEntry,
  healthCheck,
  healthCheckAggregate,
  healthCheckCreate,
  healthCheckParams,
  healthCheckResult,
  healthCheckTest,
  healthCheckUpdate,
  heartbeatParams,
  heartbeatQuery,
  reportRange,
} from '../health.js';
import { defineOperations } from '../operation.js';

const tags = ['health'];

/** Health checks and the health reports (spec/catalogue.md section 7; docs/decisions.md#api-conventions). */
export const healthOperations = defineOperations({
  listHealthChecks: {
    method: 'GET',
    path: '/services/:service/health-checks',
    summary: 'The health checks of a service the viewer may see',
    tags,
    access: 'beacon.health-check.read',
    params: serviceParams,
    response: z.array(healthCheck),
    errors: [401, 403, 404],
  },
  createHealthCheck: {
    method: 'POST',
    path: '/services/:service/health-checks',
    summary: 'Add a health check; left-out fields take the spec defaults (editors of the service)',
    tags,
    access: 'beacon.health-check.manage',
    params: serviceParams,
    body: healthCheckCreate,
    response: healthCheck,
    status: 201,
    errors: [400, 401, 403, 404],
  },
  updateHealthCheck: {
    method: 'PATCH',
    path: '/health-checks/:id',
    summary: "Replace a health check's settings, full body (editors of its service)",
    tags,
    access: 'beacon.health-check.manage',
    params: healthCheckParams,
    body: healthCheckUpdate,
    response: healthCheck,
    errors: [400, 401, 403, 404],
  },
  testHealthCheck: {
    method: 'POST',
    path: '/services/:service/health-checks/actions/test',
    summary:
      'Run a check once through the same guard as the shared runner and answer its result (every assertion ' +
      'with its actual value); nothing is saved. Editors of the service; rate-limited per workspace',
    tags,
    access: 'beacon.health-check.manage',
    params: serviceParams,
    body: healthCheckTest,
    response: healthCheckResult,
    errors: [400, 401, 403, 404, 429],
  },
  rotateHeartbeatPingUrl: {
    method: 'POST',
    path: '/health-checks/:id/actions/rotate-ping-url',
    summary: "A heartbeat's new secret ping URL; the old one stops working at once (editors of its service)",
    tags,
    access: 'beacon.health-check.manage',
    params: healthCheckParams,
    response: healthCheck,
    errors: [400, 401, 403, 404],
  },
  getServiceHealthDaily: {
    method: 'GET',
    path: '/services/:service/reports/service-health-daily',
    summary:
      'Seconds per non-good state for each UTC day, oldest first, today included (default: the last 90 days ' +
      'or since creation; at most 90 days)',
    tags,
    access: 'beacon.service.read',
    params: serviceParams,
    query: reportRange,
    response: z.array(dailyHealthEntry),
    errors: [400, 401, 403, 404],
  },
  listHealthCheckResults: {
    method: 'GET',
    path: '/health-checks/:id/reports/health-check-results',
    summary: 'Results of a health check, oldest first (default the last 24 hours; at most the newest 1000)',
    tags,
    access: 'beacon.health-check.read',
    params: healthCheckParams,
    query: reportRange,
    response: z.array(healthCheckResult),
    errors: [400, 401, 403, 404],
  },
  listHealthCheckAggregates: {
    method: 'GET',
    path: '/health-checks/:id/reports/health-check-aggregates',
    summary:
      'Results of a health check per minute, hour or day, oldest first: probes, failures, p50, p95 and max ' +
      'latency of the successful probes (default hours of the last 7 days; at most the newest 2000 buckets; ' +
      'minutes are kept 3 days, hours 90)',
    tags,
    access: 'beacon.health-check.read',
    params: healthCheckParams,
    query: aggregateReportQuery,
    response: z.array(healthCheckAggregate),
    errors: [400, 401, 403, 404],
  },
});

/**
 * A heartbeat's ping (docs/decisions.md#checks): no login, the secret token is the key; it answers nothing about the
 * check. `/start` is taken and changes nothing; `/fail` or a non-zero `exit_code` fails the check until the next
 * success.
 */
const pingAnswer = z.object({ ok: z.literal(true) }).meta({ id: 'HeartbeatPing' });
const ping = (method: 'GET' | 'POST', suffix: '' | '/start' | '/fail') =>
  ({
    method,
    path: `/heartbeats/:token${suffix}`,
    summary: `A heartbeat ping (${method}${suffix ? `, ${suffix.slice(1)}` : ''}); no login, the token is the secret`,
    tags,
    access: 'public',
    params: heartbeatParams,
    query: heartbeatQuery,
    response: pingAnswer,
    errors: [400, 404, 429],
  }) as const;

export const heartbeatOperations = defineOperations({
  pingHeartbeat: ping('GET', ''),
  pingHeartbeatPost: ping('POST', ''),
  pingHeartbeatStart: ping('GET', '/start'),
  pingHeartbeatStartPost: ping('POST', '/start'),
  pingHeartbeatFail: ping('GET', '/fail'),
  pingHeartbeatFailPost: ping('POST', '/fail'),
});
