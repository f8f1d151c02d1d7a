import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { betaCheck, betaChecked, registerWorkspace, workspaceRegistered } from '../../contract/accounts.js';
import { errorResponses } from '../../contract/common.js';
import type { ServerContext } from '../context.js';
import { checkBetaPair, registerWorkspace as register } from '../services/registration.js';

export function registrationRoutes(ctx: ServerContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/register',
      {
        schema: {
          tags: ['registration'],
          summary: 'Step one: check that a beta key and email belong together',
          body: betaCheck,
          response: { 200: betaChecked, ...errorResponses(400) },
        },
      },
      async (request) => checkBetaPair(ctx, request.body.beta_key, request.body.email),
    );

    app.post(
      '/registration/register-workspace',
      {
        schema: {
          tags: ['registration'],
          summary: 'Step two: create the workspace and its owner',
          body: registerWorkspace,
          response: { 201: workspaceRegistered, ...errorResponses(400, 409) },
        },
      },
      async (request, reply) => {
        const { domain, workspace } = await register(ctx, request.body);
        return reply.code(201).send({ domain, workspace });
      },
    );
  };
}
