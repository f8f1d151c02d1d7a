import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionCreate, sessionCreated, sessionDelete, tokenRequest, tokenResponse } from '../../contract/accounts.js';
import { errorResponses } from '../../contract/common.js';
import type { ServerContext } from '../context.js';
import { requireNamedWorkspace, requireWorkspace, SESSION_COOKIE, sessionCookieOptions } from '../http.js';
import { issueSessionToken, login, logout } from '../services/auth.js';

export function sessionRoutes(ctx: ServerContext): FastifyPluginAsyncZod {
  const rateLimit = {
    max: ctx.config.authRateLimitPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (request: { ip: string; headers: { host?: string } }) =>
      `${request.headers.host ?? ''}|${request.ip}`,
  };
  return async (app) => {
    app.post(
      '/session',
      {
        config: { rateLimit },
        schema: {
          tags: ['session'],
          summary: 'Log in with email and password; sets the session cookie',
          body: sessionCreate,
          response: { 200: sessionCreated, ...errorResponses(400, 401, 403, 404, 429) },
        },
      },
      async (request, reply) => {
        const workspace = await requireNamedWorkspace(ctx, request, request.body.workspace);
        const { sessionToken, user } = await login(ctx, workspace, request.body, request.ip);
        void reply.setCookie(SESSION_COOKIE, sessionToken, sessionCookieOptions(ctx));
        return { workspace: workspace.domain, handle: user.handle };
      },
    );

    app.delete(
      '/session',
      {
        schema: {
          tags: ['session'],
          summary: 'Log out: ends the session',
          body: sessionDelete.optional(),
          response: { 204: z.null().describe('Logged out'), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        await requireWorkspace(ctx, request);
        await logout(ctx, request.cookies[SESSION_COOKIE]);
        void reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/token',
      {
        config: { rateLimit },
        schema: {
          tags: ['session'],
          summary: 'Exchange the session cookie for a short-lived access token',
          body: tokenRequest,
          response: { 200: tokenResponse, ...errorResponses(400, 401, 404, 429) },
        },
      },
      async (request) => {
        const workspace = await requireNamedWorkspace(ctx, request, request.body.workspace);
        return issueSessionToken(ctx, workspace, request.cookies[SESSION_COOKIE]);
      },
    );
  };
}
