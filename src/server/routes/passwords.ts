import type { FastifyInstance } from 'fastify';
import { passwordOperations } from '../../contract/operations/passwords.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import { FORGOT_PASSWORD_ANSWER, forgotPassword, resetPassword } from '../services/accounts/passwords.js';

export function passwordRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(
      ctx,
      app,
      passwordOperations,
      {
        forgotPassword: async ({ body }) => {
          await forgotPassword(ctx, body.workspace, body.email);
          return { message: FORGOT_PASSWORD_ANSWER };
        },
        resetPassword: async ({ body }) => {
          await resetPassword(ctx, body.key, body.password);
          return { message: 'Your password has been reset' };
        },
      },
      { forgotPassword: { config: { rateLimit: { max: ctx.config.authRateLimitPerMinute, timeWindow: '1 minute' } } } },
    );
}
