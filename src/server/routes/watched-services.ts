import type { FastifyInstance } from 'fastify';
import { watchedServiceOperations } from '../../contract/operations/watched-services.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import { listWatched } from '../services/catalogue/stars.js';

/** The services a user watches: those of their teams and those they starred. */
export function watchedServiceRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(ctx, app, watchedServiceOperations, {
      listWatchedServices: ({ caller, params }) => listWatched(ctx, caller, params.username),
    });
}
