import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { workspace } from '../../contract/accounts.js';
import { errorResponses } from '../../contract/common.js';
import type { ServerContext } from '../context.js';
import { requireWorkspace } from '../http.js';
import { toWorkspace } from '../services/registration.js';

export function workspaceRoutes(ctx: ServerContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/workspace',
      {
        schema: {
          tags: ['workspace'],
          summary: 'The workspace of the Host subdomain',
          response: { 200: workspace, ...errorResponses(404) },
        },
      },
      async (request) => toWorkspace(await requireWorkspace(ctx, request)),
    );
  };
}
