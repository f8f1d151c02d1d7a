import type { FastifyInstance } from 'fastify';
import { sloOperations } from '../../contract/operations/slo.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import { deleteSlo, getSlo, getSloStatus, setSlo } from '../services/reliability/slo.js';

export function sloRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) => {
    routes(ctx, app, sloOperations, {
      getSlo: ({ caller, params }) => getSlo(ctx, caller, params.service),
      setSlo: ({ caller, params, body }) => setSlo(ctx, caller, params.service, body),
      deleteSlo: async ({ caller, params }) => {
        await deleteSlo(ctx, caller, params.service);
        return null;
      },
      getSloStatus: ({ caller, params }) => getSloStatus(ctx, caller, params.service),
    });
  };
}
