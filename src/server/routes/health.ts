import type { FastifyInstance } from 'fastify';
import { healthOperations } from '../../contract/operations/health.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import {
  createHealthCheck,
  healthCheckAggregates,
  healthCheckResults,
  listHealthChecks,
  rotatePingUrl,
  serviceHealthDaily,
  testHealthCheck,
  updateHealthCheck,
} from '../services/health/health.js';
import { checkTestRateLimit } from '../rate-limits.js';

/** Health checks and the health reports (spec/catalogue.md section 7; docs/decisions.md#api-conventions). */
export function healthRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(
      ctx,
      app,
      healthOperations,
      {
        listHealthChecks: ({ caller, params }) => listHealthChecks(ctx, caller, params.service),
        createHealthCheck: ({ caller, params, body }) => createHealthCheck(ctx, caller, params.service, body),
        updateHealthCheck: ({ caller, params, body }) => updateHealthCheck(ctx, caller, params.id, body),
        testHealthCheck: ({ caller, params, body }) => testHealthCheck(ctx, caller, params.service, body),
        rotateHeartbeatPingUrl: ({ caller, params }) => rotatePingUrl(ctx, caller, params.id),
        getServiceHealthDaily: ({ caller, params, query }) => serviceHealthDaily(ctx, caller, params.service, query),
        listHealthCheckResults: ({ caller, params, query }) => healthCheckResults(ctx, caller, params.id, query),
        listHealthCheckAggregates: ({ caller, params, query }) => healthCheckAggregates(ctx, caller, params.id, query),
      },
      { testHealthCheck: { config: { rateLimit: checkTestRateLimit(ctx) } } },
    );
}
