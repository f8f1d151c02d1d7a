import type { FastifyInstance } from 'fastify';
import { samlOperations, ssoProviderOperations } from '../../contract/operations/sso.js';
import type { ServerContext } from '../context.js';
import { HttpError } from '../errors.js';
import { acceptFormBodies, requireWorkspace, sessionCookieOptions } from '../http.js';
import { route, routes } from '../operations.js';
import { SESSION_COOKIE } from '../services/accounts/auth.js';
import {
  consumeResponse,
  createProvider,
  deleteProvider,
  getProvider,
  listProviders,
  loginOption,
  loginUrl,
  logoutPost,
  logoutUrl,
  metadataOf,
  updateProvider,
} from '../services/accounts/sso.js';

/** SSO providers (admins) and the SAML service provider's endpoints (docs/decisions.md#integrations). */
export function ssoRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) => {
    routes(ctx, app, ssoProviderOperations, {
      listSsoProviders: ({ caller }) => listProviders(ctx, caller),
      createSsoProvider: ({ caller, body }) => createProvider(ctx, caller, body),
      getSsoProvider: ({ caller, params }) => getProvider(ctx, caller, params.provider),
      updateSsoProvider: ({ caller, params, body }) => updateProvider(ctx, caller, params.provider, body),
      deleteSsoProvider: async ({ caller, params }) => {
        await deleteProvider(ctx, caller, params.provider);
        return null;
      },
    });
    const { consumeSamlResponse, samlLogoutPost, ...browserOperations } = samlOperations;
    routes(ctx, app, browserOperations, {
      getSsoLoginOption: async ({ request }) => loginOption(ctx, await requireWorkspace(ctx, request)),
      getSamlMetadata: async ({ request, params, reply }) =>
        reply
          .header('content-type', 'application/samlmetadata+xml')
          .send(await metadataOf(ctx, await requireWorkspace(ctx, request), params.provider)),
      startSamlLogin: async ({ request, params, query, reply }) =>
        reply.redirect(await loginUrl(ctx, await requireWorkspace(ctx, request), params.provider, query.redirect), 302),
      samlLogout: async ({ request, params, query, reply }) => {
        const workspace = await requireWorkspace(ctx, request);
        const originalQuery = request.url.split('?')[1] ?? '';
        const target = await logoutUrl(
          ctx,
          workspace,
          params.provider,
          request.cookies[SESSION_COOKIE],
          query,
          originalQuery,
        );
        void reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return reply.redirect(target, 303);
      },
    });
    // The identity provider posts its responses and logout requests as forms (the only forms these routes read).
    await app.register(async (acs) => {
      acceptFormBodies(acs);
      route(ctx, acs, consumeSamlResponse, async ({ request, params, body, reply }) => {
        const workspace = await requireWorkspace(ctx, request);
        try {
          const { sessionToken, redirect } = await consumeResponse(ctx, workspace, params.provider, body);
          // The cookie rides on the redirect (the POST came cross-site: no cookie of ours was sent with it).
          void reply.setCookie(SESSION_COOKIE, sessionToken, sessionCookieOptions(ctx));
          return reply.redirect(redirect, 303);
        } catch (error) {
          // A person in a browser: back to the login screen, which says why.
          if (error instanceof HttpError && error.statusCode === 400) {
            // The operator learns why; the person sees the same kind of answer as for any refused response.
            request.log.warn({ provider: params.provider, reason: error.message }, 'SAML response refused');
            return reply.redirect(`/login?sso_error=${encodeURIComponent(error.message)}`, 303);
          }
          throw error;
        }
      });
      route(ctx, acs, samlLogoutPost, async ({ request, params, body, reply }) => {
        const workspace = await requireWorkspace(ctx, request);
        const target = await logoutPost(ctx, workspace, params.provider, body);
        return reply.redirect(target, 303);
      });
    });
  };
}
