import type { FastifyInstance } from 'fastify';
import { autocompleteOperations } from '../../contract/operations/autocomplete.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import { autocompleteServices } from '../services/catalogue/services.js';
import { autocompleteUsers } from '../services/catalogue/team-members.js';
import { autocompleteTeams } from '../services/catalogue/teams.js';

/** The pickers' autocomplete. */
export function autocompleteRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(ctx, app, autocompleteOperations, {
      autocompleteTeams: ({ caller, query }) => autocompleteTeams(ctx, caller, query.q),
      autocompleteUsers: ({ caller, query }) => autocompleteUsers(ctx, caller, query.q),
      autocompleteServices: ({ caller, query }) => autocompleteServices(ctx, caller, query.q),
    });
}
