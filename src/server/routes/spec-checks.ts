import type { FastifyInstance } from 'fastify';
import { specCheckOperations } from '../../contract/operations/spec-checks.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import { listApiDrift } from '../services/health/api-drift.js';
import { listSpecProbes } from '../services/health/spec-checks.js';

export function specCheckRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) => {
    routes(ctx, app, specCheckOperations, {
      listSpecProbes: ({ caller, params, query }) => listSpecProbes(ctx, caller, params.service, params.page, query),
      listApiDrift: ({ caller, params }) => listApiDrift(ctx, caller, params.service),
    });
  };
}
