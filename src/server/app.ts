import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { RouteScope } from '../domain/scopes.js';
import type { ServerContext } from './context.js';
import { errorHandler } from './errors.js';
import { assetRoutes } from './routes/assets.js';
import { clientRoutes } from './routes/clients.js';
import { healthRoutes } from './routes/health.js';
import { noticeRoutes } from './routes/notices.js';
import { inviteRoutes } from './routes/invites.js';
import { passwordRoutes } from './routes/passwords.js';
import { registrationRoutes } from './routes/registration.js';
import { registerWebApp } from './routes/web.js';
import { runnerRoutes } from './routes/runners.js';
import { serviceRoutes } from './routes/services.js';
import { sessionRoutes } from './routes/session.js';
import { starRoutes } from './routes/stars.js';
import { systemRoutes } from './routes/system.js';
import { teamRoutes } from './routes/teams.js';
import { userRoutes } from './routes/users.js';
import { workspaceRoutes } from './routes/workspace.js';

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
  }
}

/** Builds the Fastify app around a server context; the server and the tests both use this. */
export async function buildApp(ctx: ServerContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    trustProxy: ctx.config.trustProxy,
    // Requests in flight finish on close; new ones get 503 while the server shuts down.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);

  // While shutting down, answer in-flight requests with `Connection: close` so keep-alive sockets do not hold
  // the process open until their idle timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close');
  });

  const routes: RouteEntry[] = [];
  app.decorate('beaconRoutes', routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const scope = route.config?.scope;
    for (const method of methods) if (method !== 'HEAD') routes.push({ method, url: route.url, scope });
    // The OpenAPI document names the scope an API client needs.
    if (scope) route.schema = { ...route.schema, security: [{ bearer: [scope] }] };
  });

  const https = ctx.config.publicUrl.protocol === 'https:';
  await app.register(helmet, {
    global: true,
    // Over plain HTTP (a local install) HSTS and upgrading requests to https would break the app.
    hsts: https,
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: https ? [] : null } },
  });
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: ctx.config.maxUploadBytes, files: 1, fields: 5 } });
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
  });

  await app.register(
    async (api) => {
      await api.register(systemRoutes);
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
      await api.register(noticeRoutes(ctx));
      await api.register(starRoutes(ctx));
      await api.register(clientRoutes(ctx));
      await api.register(runnerRoutes(ctx));
    },
    { prefix: '/api' },
  );

  // Everything outside /api is the web app; unknown API paths are JSON 404s.
  const sendPage = await registerWebApp(app, ctx, ctx.config.webDir);
  app.setNotFoundHandler((request, reply) => {
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      request.url !== '/api';
    return isPage ? sendPage(reply) : reply.code(404).send({ message: 'Not Found' });
  });

  return app;
}
