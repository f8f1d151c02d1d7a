import type { FastifyInstance } from 'fastify';
import { healthOperations } from '../../contract/operations/health.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import {
  createHealthCheck,
  healthCheckAggregates,
  healthCheckResults,
  listHealthChecks,
  serviceHealthDaily,
  updateHealthCheck,
} from '../services/health.js';

/** Health checks and the health reports (spec/catalogue.md section 7; DESIGN.md 4a). */
export function healthRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(ctx, app, healthOperations, {
      listHealthChecks: ({ caller, params }) => listHealthChecks(ctx, caller, params.service),
      createHealthCheck: ({ caller, params, body }) => createHealthCheck(ctx, caller, params.service, body),
      updateHealthCheck: ({ caller, params, body }) => updateHealthCheck(ctx, caller, params.id, body),
      getServiceHealthDaily: ({ caller, params, query }) => serviceHealthDaily(ctx, caller, params.service, query),
      listHealthCheckResults: ({ caller, params, query }) => healthCheckResults(ctx, caller, params.id, query),
      listHealthCheckAggregates: ({ caller, params, query }) => healthCheckAggregates(ctx, caller, params.id, query),
    });
}
