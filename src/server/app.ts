import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { RouteScope } from '../domain/scopes.js';
import type { ServerContext } from './context.js';
import { errorHandler } from './errors.js';
import { serverWithFrontDoor, type FrontDoor } from './front-door.js';
import { keyRateLimits } from './rate-limits.js';
import { assetRoutes } from './routes/assets.js';
import { autocompleteRoutes } from './routes/autocomplete.js';
import { clientRoutes } from './routes/clients.js';
import { healthRoutes } from './routes/health.js';
import { heartbeatRoutes } from './routes/heartbeats.js';
import { registerAlertLinks } from './routes/alert-links.js';
import { alertRoutes } from './routes/alerts.js';
import { noticeRoutes } from './routes/notices.js';
import { inviteRoutes } from './routes/invites.js';
import { muteRoutes } from './routes/mutes.js';
import { passwordRoutes } from './routes/passwords.js';
import { registrationRoutes } from './routes/registration.js';
import { registerStatusDocuments, statusFrontDoor, statusPageRoutes } from './routes/status-pages.js';
import { registerWebApp } from './routes/web.js';
import { runnerRoutes } from './routes/runners.js';
import { dependencyRoutes } from './routes/dependencies.js';
import { sloRoutes } from './routes/slo.js';
import { specCheckRoutes } from './routes/spec-checks.js';
import { scorecardRoutes } from './routes/scorecards.js';
import { catalogRoutes } from './routes/catalog.js';
import { feedRoutes } from './routes/feeds.js';
import { pageRoutes } from './routes/pages.js';
import { slackRoutes } from './routes/slack.js';
import { billingRoutes } from './routes/billing.js';
import { ssoRoutes } from './routes/sso.js';
import { serviceRoutes } from './routes/services.js';
import { sessionRoutes } from './routes/session.js';
import { starRoutes } from './routes/stars.js';
import { systemRoutes } from './routes/system.js';
import { teamRoutes } from './routes/teams.js';
import { userTeamRoutes } from './routes/user-teams.js';
import { userRoutes } from './routes/users.js';
import { watchedServiceRoutes } from './routes/watched-services.js';
import { workspaceRoutes } from './routes/workspace.js';
import { apiSecurityHeaders, helmetHeaders } from './security-headers.js';

export interface RouteEntry {
  method: string;
  url: string;
  /** The route's decision for API clients (undefined: none made; see http.ts). */
  scope?: RouteScope | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, for the contract and the tenant-isolation tests. */
    beaconRoutes: RouteEntry[];
    /** Starts draining before close (main.ts, on SIGTERM): every new request gets 503 with Connection: close. */
    drain(): void;
  }
}

/** A hop count as Fastify applies it (its types leave numbers out): believe the `hops` nearest addresses. */
function trustedProxies(trust: ServerContext['config']['trustProxy']) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

/**
 * Requests are logged at debug (LOG_LEVEL=debug shows them): at info, two lines a request would scroll the
 * start-up messages, the one-time registration link among them, away within seconds. Errors stay at error.
 */
class RequestLogsAtDebug extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** Whether a request's URL is the API's (everything else is the web app). */
function isApiPath(url: string): boolean {
  return url.startsWith('/api/') || url === '/api' || url.startsWith('/api?');
}

/** Builds the Fastify app around a server context; the server and the tests both use this. */
export async function buildApp(ctx: ServerContext): Promise<FastifyInstance> {
  // Set once the routes the door stands for exist; unset while shutting down (front-door.ts).
  let door: FrontDoor | null = null;
  const app = Fastify({
    serverFactory: (handler, options) => serverWithFrontDoor(handler, options, () => door),
    loggerInstance: ctx.logger as FastifyBaseLogger,
    trustProxy: trustedProxies(ctx.config.trustProxy),
    // Requests in flight finish on close; new ones get 503 while the server shuts down.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    logController: new RequestLogsAtDebug(),
    // The spec writes some paths with a trailing slash (`/services/{id}/health-checks/`): both spellings work.
    routerOptions: { ignoreTrailingSlash: true },
  });

  // Fastify validates a missing body as null: a body declared optional (undefined) is absent then too.
  app.setValidatorCompiler((route: Parameters<typeof validatorCompiler>[0]) => {
    const validate = validatorCompiler(route);
    if (route.httpPart !== 'body') return validate;
    const failed = (result: unknown) => Boolean((result as { error?: unknown }).error);
    return (data: unknown) => {
      const result = validate(data);
      if (data !== null || !failed(result)) return result;
      const absent = validate(undefined);
      return failed(absent) ? result : absent;
    };
  });
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);

  // While shutting down, answer in-flight requests with `Connection: close` so keep-alive sockets do not hold
  // the process open until their idle timeout. While draining (before close, which resets idle keep-alive
  // sockets), a request arriving on any connection gets 503 and the connection closes after the answer.
  let closing = false;
  app.decorate('drain', () => {
    closing = true;
    door = null;
  });
  app.addHook('preClose', async () => {
    closing = true;
    door = null;
  });
  // Callback hooks, not async ones: they run on every request, and a promise each is a visible share of a cheap read.
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    // Answering from a callback hook: no done().
    void reply
      .code(503)
      .headers({ connection: 'close', 'retry-after': '5' })
      .send({ message: 'Service Unavailable: the server is shutting down' });
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });

  const routes: RouteEntry[] = [];
  app.decorate('beaconRoutes', routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const scope = route.config?.scope;
    for (const method of methods) if (method !== 'HEAD') routes.push({ method, url: route.url, scope });
  });

  const https = ctx.config.publicUrl.protocol === 'https:';
  const securityHeaders = helmetHeaders({
    // Over plain HTTP (a local install) HSTS and upgrading requests to https would break the app.
    hsts: https,
    contentSecurityPolicy: {
      directives: {
        upgradeInsecureRequests: https ? [] : null,
        // Billing's card form is Stripe.js with its iframes (3-D Secure on hooks.stripe.com), only when billing is on.
        ...(ctx.config.stripe
          ? {
              scriptSrc: ["'self'", 'https://js.stripe.com'],
              frameSrc: ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'],
              connectSrc: ["'self'", 'https://api.stripe.com'],
            }
          : {}),
      },
    },
  });
  const apiHeaders = apiSecurityHeaders(https);
  door = statusFrontDoor(ctx, { page: securityHeaders, api: apiHeaders });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiPath(request.url) ? apiHeaders : securityHeaders);
    done();
  });
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: ctx.config.maxUploadBytes, files: 1, fields: 5 } });
  keyRateLimits(app, ctx);
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Beacon API',
        version: '1.0.0',
        description: 'The Beacon service catalogue and service-health API.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    // The named schemas (`.meta({ id })`) go to components.schemas, where the document's $refs point.
    transformObject: jsonSchemaTransformObject,
  });

  await app.register(
    async (api) => {
      await api.register(systemRoutes(ctx));
      await api.register(workspaceRoutes(ctx));
      await api.register(sessionRoutes(ctx));
      await api.register(registrationRoutes(ctx));
      await api.register(passwordRoutes(ctx));
      await api.register(inviteRoutes(ctx));
      await api.register(userRoutes(ctx));
      await api.register(assetRoutes(ctx));
      await api.register(teamRoutes(ctx));
      await api.register(serviceRoutes(ctx));
      await api.register(healthRoutes(ctx));
      await api.register(heartbeatRoutes(ctx));
      await api.register(noticeRoutes(ctx));
      await api.register(alertRoutes(ctx));
      await api.register(starRoutes(ctx));
      await api.register(muteRoutes(ctx));
      await api.register(watchedServiceRoutes(ctx));
      await api.register(userTeamRoutes(ctx));
      await api.register(autocompleteRoutes(ctx));
      await api.register(clientRoutes(ctx));
      await api.register(runnerRoutes(ctx));
      await api.register(dependencyRoutes(ctx));
      await api.register(sloRoutes(ctx));
      await api.register(specCheckRoutes(ctx));
      await api.register(scorecardRoutes(ctx));
      await api.register(catalogRoutes(ctx));
      await api.register(feedRoutes(ctx));
      await api.register(pageRoutes(ctx));
      await api.register(slackRoutes(ctx));
      await api.register(ssoRoutes(ctx));
      await api.register(statusPageRoutes(ctx));
      await api.register(billingRoutes(ctx));
    },
    { prefix: '/api' },
  );

  // Everything outside /api is the web app; unknown API paths are JSON 404s.
  registerStatusDocuments(app, ctx);
  await registerAlertLinks(app, ctx);
  const sendPage = await registerWebApp(app, ctx, ctx.config.webDir);
  app.setNotFoundHandler((request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(request.url);
    return isPage ? sendPage(reply) : reply.code(404).send({ message: 'Not Found' });
  });

  return app;
}
