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
  healthCheckUpdate,
  reportRange,
} from '../health.js';
import { defineOperations } from '../operation.js';

const tags = ['health'];

/** Health checks and the health reports (spec/catalogue.md section 7; DESIGN.md 4a). */
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
