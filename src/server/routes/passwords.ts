import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { forgotPassword, resetPassword } from '../../contract/accounts.js';
import { errorResponses, messageBody } from '../../contract/common.js';
import type { ServerContext } from '../context.js';
import { FORGOT_PASSWORD_ANSWER, forgotPassword as forgot, resetPassword as reset } from '../services/passwords.js';

export function passwordRoutes(ctx: ServerContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/forgot-password',
      {
        config: { rateLimit: { max: ctx.config.authRateLimitPerMinute, timeWindow: '1 minute' } },
        schema: {
          tags: ['passwords'],
          summary: 'Mail a reset link; always answers success so it reveals no accounts',
          body: forgotPassword,
          response: { 200: messageBody, ...errorResponses(400, 429) },
        },
      },
      async (request) => {
        await forgot(ctx, request.body.workspace, request.body.email);
        return { message: FORGOT_PASSWORD_ANSWER };
      },
    );

    app.post(
      '/reset-password',
      {
        schema: {
          tags: ['passwords'],
          summary: 'Set a new password with a single-use, expiring key',
          body: resetPassword,
          response: { 200: messageBody, ...errorResponses(400) },
        },
      },
      async (request) => {
        await reset(ctx, request.body.key, request.body.password);
        return { message: 'Your password has been reset' };
      },
    );
  };
}
