import type { FastifyInstance } from 'fastify';
import { sessionOperations } from '../../contract/operations/session.js';
import type { ServerContext } from '../context.js';
import { acceptFormBodies, requireNamedWorkspace, requireWorkspace, sessionCookieOptions } from '../http.js';
import { route, routes } from '../operations.js';
import { issueClientToken, issueSessionToken, login, logout, SESSION_COOKIE } from '../services/accounts/auth.js';

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

export function sessionRoutes(ctx: ServerContext) {
  const rateLimit = {
    max: ctx.config.authRateLimitPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (request: { ip: string; headers: { host?: string } }) =>
      `${request.headers.host ?? ''}|${request.ip}`,
  };
  const { issueToken, ...sessionOnly } = sessionOperations;
  return async (app: FastifyInstance) => {
    // Logging in takes JSON only: a form posted from another site could log its visitor in to another account
    // (login CSRF), and JSON from another origin needs a CORS preflight this API never grants. Logging out needs
    // no body: an empty JSON body counts as none.
    const json = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (body === '') done(null, undefined);
      else json(request, body as string, done);
    });

    routes(
      ctx,
      app,
      sessionOnly,
      {
        createSession: async ({ body, request, reply }) => {
          const workspace = await requireNamedWorkspace(ctx, request, body.workspace);
          const { sessionToken, user } = await login(ctx, workspace, body, request.ip);
          void reply.setCookie(SESSION_COOKIE, sessionToken, sessionCookieOptions(ctx));
          return { workspace: workspace.domain, handle: user.handle };
        },
        deleteSession: async ({ request, reply }) => {
          await requireWorkspace(ctx, request);
          await logout(ctx, request.cookies[SESSION_COOKIE]);
          void reply.clearCookie(SESSION_COOKIE, { path: '/' });
          return null;
        },
      },
      { createSession: { config: { rateLimit } } },
    );

    // OAuth clients send the token request form-encoded (RFC 6749); only this route reads such bodies.
    await app.register(async (oauth) => {
      acceptFormBodies(oauth);
      route(
        ctx,
        oauth,
        issueToken,
        async ({ body, request }) => {
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
        { config: { rateLimit } },
      );
    });
  };
}
