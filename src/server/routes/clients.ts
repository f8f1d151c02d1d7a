import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { teamParams } from '../../contract/catalogue.js';
import { client, clientCreate, clientParams, clientUpdate } from '../../contract/clients.js';
import { errorResponses } from '../../contract/common.js';
import type { ServerContext } from '../context.js';
import { requireCaller } from '../http.js';
import {
  createClient,
  deleteClient,
  getClient,
  listClients,
  updateClient,
  updateClientSecret,
} from '../services/clients.js';

/**
 * A team's API clients (spec/catalogue.md section 7): team admins only. Clients themselves may not manage
 * clients (scope null): a client could otherwise mint one with more scopes.
 */
export function clientRoutes(ctx: ServerContext): FastifyPluginAsyncZod {
  const config = { scope: null };
  return async (app) => {
    app.get(
      '/teams/:team/clients',
      {
        config,
        schema: {
          tags: ['clients'],
          summary: 'The API clients of a team, by name, without their secrets (team admins)',
          params: teamParams,
          response: { 200: z.array(client), ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => listClients(ctx, await requireCaller(ctx, request), request.params.team),
    );

    app.get(
      '/teams/:team/clients/:client',
      {
        config,
        schema: {
          tags: ['clients'],
          summary: 'One API client by handle (or client_id), without its secret (team admins)',
          params: clientParams,
          response: { 200: client, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => getClient(ctx, await requireCaller(ctx, request), request.params.team, request.params.client),
    );

    app.post(
      '/teams/:team/clients',
      {
        config,
        schema: {
          tags: ['clients'],
          summary:
            'Create an API client (team admins): name, description, at least one scope; the answer carries the ' +
            'client_secret, the only time it is shown',
          params: teamParams,
          body: clientCreate,
          response: { 201: client, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const caller = await requireCaller(ctx, request);
        return reply.code(201).send(await createClient(ctx, caller, request.params.team, request.body));
      },
    );

    app.patch(
      '/teams/:team/clients/:client',
      {
        config,
        schema: {
          tags: ['clients'],
          summary: "Change an API client's name, description or scopes (team admins)",
          params: clientParams,
          body: clientUpdate,
          response: { 200: client, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) =>
        updateClient(ctx, await requireCaller(ctx, request), request.params.team, request.params.client, request.body),
    );

    app.post(
      '/teams/:team/clients/:client/actions/update-secret',
      {
        config,
        schema: {
          tags: ['clients'],
          summary:
            'Replace the client_secret (team admins): the answer carries the new secret, shown only this once; ' +
            'tokens issued with the old one stop working',
          params: clientParams,
          response: { 200: client, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) =>
        updateClientSecret(ctx, await requireCaller(ctx, request), request.params.team, request.params.client),
    );

    app.delete(
      '/teams/:team/clients/:client',
      {
        config,
        schema: {
          tags: ['clients'],
          summary: 'Delete an API client; its tokens stop working (team admins)',
          params: clientParams,
          response: { 204: z.null().describe('Deleted'), ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await deleteClient(ctx, await requireCaller(ctx, request), request.params.team, request.params.client);
        return reply.code(204).send(null);
      },
    );
  };
}
