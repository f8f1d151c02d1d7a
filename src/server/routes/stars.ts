import type { FastifyInstance } from 'fastify';
import { starOperations } from '../../contract/operations/stars.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import { listStarred, starService, unstarService } from '../services/catalogue/stars.js';

/** A user's starred services. */
export function starRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(ctx, app, starOperations, {
      listStarredServices: ({ caller, params }) => listStarred(ctx, caller, params.username),
      starService: async ({ caller, params }) => {
        await starService(ctx, caller, params.username, params.service);
        return null;
      },
      unstarService: async ({ caller, params }) => {
        await unstarService(ctx, caller, params.username, params.service);
        return null;
      },
    });
}
