import type { FastifyInstance } from 'fastify';
import { clientOperations } from '../../contract/operations/clients.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import {
  createClient,
  deleteClient,
  getClient,
  listClients,
  updateClient,
  updateClientSecret,
} from '../services/catalogue/clients.js';

/** A team's API clients (spec/catalogue.md section 7): team admins only. */
export function clientRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(ctx, app, clientOperations, {
      listClients: ({ caller, params }) => listClients(ctx, caller, params.team),
      getClient: ({ caller, params }) => getClient(ctx, caller, params.team, params.client),
      createClient: ({ caller, params, body }) => createClient(ctx, caller, params.team, body),
      updateClient: ({ caller, params, body }) => updateClient(ctx, caller, params.team, params.client, body),
      updateClientSecret: ({ caller, params }) => updateClientSecret(ctx, caller, params.team, params.client),
      deleteClient: async ({ caller, params }) => {
        await deleteClient(ctx, caller, params.team, params.client);
        return null;
      },
    });
}
