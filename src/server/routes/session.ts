import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionCreate, sessionCreated, sessionDelete, tokenRequest, tokenResponse } from '../../contract/accounts.js';
import { errorResponses } from '../../contract/common.js';
import type { ServerContext } from '../context.js';
import { requireNamedWorkspace, requireWorkspace, SESSION_COOKIE, sessionCookieOptions } from '../http.js';
import { issueClientToken, issueSessionToken, login, logout } from '../services/auth.js';

/** HTTP Basic credentials (OAuth 2.0 client authentication: id and secret form-URL-encoded), if sent. */
function basicCredentials(authorization: string | undefined): { client_id: string; client_secret: string } | null {
  const match = authorization?.match(/^Basic\s+(\S+)$/i);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return {
      client_id: decodeURIComponent(decoded.slice(0, colon)),
      client_secret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  } catch {
    return null;
  }
}

export function sessionRoutes(ctx: ServerContext): FastifyPluginAsyncZod {
  const rateLimit = {
    max: ctx.config.authRateLimitPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (request: { ip: string; headers: { host?: string } }) =>
      `${request.headers.host ?? ''}|${request.ip}`,
  };
  return async (app) => {
    // OAuth clients send the token request form-encoded (RFC 6749); only these routes read such bodies.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

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
          summary:
            'A short-lived access token: grant_type=session exchanges the session cookie (sub user:{workspace}:' +
            '{handle}); grant_type=client_credentials takes an API client’s client_id and client_secret (in the ' +
            'body, JSON or form-encoded, or as HTTP Basic) and an optional space-separated scope narrowing the ' +
            'client’s scopes (sub client:{workspace}:{client handle}). Bad credentials: 401',
          body: tokenRequest,
          response: { 200: tokenResponse, ...errorResponses(400, 401, 403, 404, 429) },
        },
      },
      async (request) => {
        const { body } = request;
        if (body.grant_type === 'session') {
          const workspace = await requireNamedWorkspace(ctx, request, body.workspace);
          return issueSessionToken(ctx, workspace, request.cookies[SESSION_COOKIE]);
        }
        const workspace = body.workspace
          ? await requireNamedWorkspace(ctx, request, body.workspace)
          : await requireWorkspace(ctx, request);
        const basic = basicCredentials(request.headers.authorization);
        return issueClientToken(ctx, workspace, {
          client_id: body.client_id ?? basic?.client_id,
          client_secret: body.client_secret ?? basic?.client_secret,
          scope: body.scope,
        });
      },
    );
  };
}
