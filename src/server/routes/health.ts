import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serviceParams } from '../../contract/catalogue.js';
import { errorResponses } from '../../contract/common.js';
import {
  dailyHealthEntry,
  healthCheck,
  healthCheckCreate,
  healthCheckParams,
  healthCheckResult,
  healthCheckUpdate,
  reportRange,
} from '../../contract/health.js';
import type { ServerContext } from '../context.js';
import { requireCaller } from '../http.js';
import {
  createHealthCheck,
  healthCheckResults,
  listHealthChecks,
  serviceHealthDaily,
  updateHealthCheck,
} from '../services/health.js';

/** Health checks and the health reports (spec/catalogue.md section 7; DESIGN.md 4a). */
export function healthRoutes(ctx: ServerContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/services/:service/health-checks',
      {
        config: { scope: 'beacon.health-check.read' },
        schema: {
          tags: ['health'],
          summary: 'The health checks of a service the viewer may see',
          params: serviceParams,
          response: { 200: z.array(healthCheck), ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => listHealthChecks(ctx, await requireCaller(ctx, request), request.params.service),
    );

    app.post(
      '/services/:service/health-checks',
      {
        config: { scope: 'beacon.health-check.manage' },
        schema: {
          tags: ['health'],
          summary: 'Add a health check; left-out fields take the spec defaults (editors of the service)',
          params: serviceParams,
          body: healthCheckCreate,
          response: { 201: healthCheck, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const caller = await requireCaller(ctx, request);
        return reply.code(201).send(await createHealthCheck(ctx, caller, request.params.service, request.body));
      },
    );

    app.patch(
      '/health-checks/:id',
      {
        config: { scope: 'beacon.health-check.manage' },
        schema: {
          tags: ['health'],
          summary: "Replace a health check's settings, full body (editors of its service)",
          params: healthCheckParams,
          body: healthCheckUpdate,
          response: { 200: healthCheck, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => updateHealthCheck(ctx, await requireCaller(ctx, request), request.params.id, request.body),
    );

    app.get(
      '/services/:service/reports/service-health-daily',
      {
        config: { scope: 'beacon.service.read' },
        schema: {
          tags: ['health'],
          summary:
            'Seconds per non-good state for each UTC day, oldest first, today included (default: the last 90 days ' +
            'or since creation; at most 90 days)',
          params: serviceParams,
          querystring: reportRange,
          response: { 200: z.array(dailyHealthEntry), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) =>
        serviceHealthDaily(ctx, await requireCaller(ctx, request), request.params.service, request.query),
    );

    app.get(
      '/health-checks/:id/reports/health-check-results',
      {
        config: { scope: 'beacon.health-check.read' },
        schema: {
          tags: ['health'],
          summary: 'Results of a health check, oldest first (default the last 24 hours; at most the newest 1000)',
          params: healthCheckParams,
          querystring: reportRange,
          response: { 200: z.array(healthCheckResult), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => healthCheckResults(ctx, await requireCaller(ctx, request), request.params.id, request.query),
    );
  };
}
