import type { FastifyInstance } from 'fastify';
import { userTeamOperations } from '../../contract/operations/user-teams.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import { listUserTeams } from '../services/catalogue/teams.js';

/** The teams a user belongs to. */
export function userTeamRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(ctx, app, userTeamOperations, {
      listUserTeams: ({ caller, params }) => listUserTeams(ctx, caller, params.username),
    });
}
