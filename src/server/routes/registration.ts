import type { FastifyInstance } from 'fastify';
import { registrationOperations } from '../../contract/operations/registration.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import { registerRateLimit } from '../rate-limits.js';
import { checkBetaPair, registerWorkspace } from '../services/accounts/registration.js';

export function registrationRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(
      ctx,
      app,
      registrationOperations,
      {
        checkBetaKey: ({ body }) => checkBetaPair(ctx, body.beta_key, body.email),
        registerWorkspace: async ({ body }) => {
          const { domain, workspace } = await registerWorkspace(ctx, body);
          return { domain, workspace };
        },
      },
      // Beta keys must not be guessed: both steps are limited per address.
      {
        checkBetaKey: { config: { rateLimit: registerRateLimit(ctx) } },
        registerWorkspace: { config: { rateLimit: registerRateLimit(ctx) } },
      },
    );
}
