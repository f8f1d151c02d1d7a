import type { FastifyInstance, FastifyRequest } from 'fastify';
import { workspaceLabelOf } from './config.js';
import type { ServerContext } from './context.js';

/**
 * Request-rate limits (docs/decisions.md#api-conventions) count per workspace and client address. The workspace is the
 * one the request names, lowercased: the body's `workspace` (session, token and password routes look the workspace up
 * by it), else the Host's label, never the raw header, so `ACME.localhost:8080` or a trailing dot counts with
 * `acme`. The address is Fastify's `request.ip`, which follows X-Forwarded-For only through the trusted proxies
 * (BEACON_TRUST_PROXY). Keys are made after validation (preHandler), so the body is known and bounded.
 */
export function rateLimitKey(ctx: ServerContext) {
  return (request: FastifyRequest): string => {
    const named = (request.body as { workspace?: unknown } | null | undefined)?.workspace;
    const workspace =
      typeof named === 'string' ? named.toLowerCase() : workspaceLabelOf(request.headers.host, ctx.config.baseDomain);
    return `${workspace ?? '-'}|${request.ip}`;
  };
}

/**
 * Keys every rate-limited route with rateLimitKey, whatever its module set: one rule for every limit, so none
 * can key on the raw Host again. Registered before @fastify/rate-limit, whose own onRoute hook then reads it.
 */
export function keyRateLimits(app: FastifyInstance, ctx: ServerContext): void {
  const keyGenerator = rateLimitKey(ctx);
  const perWorkspace = workspaceRateLimitKey(ctx);
  app.addHook('onRoute', (route) => {
    const limit = route.config?.rateLimit;
    if (!limit || typeof limit !== 'object') return;
    const { perWorkspace: wholeWorkspace, ...rest } = limit as typeof limit & { perWorkspace?: boolean };
    route.config!.rateLimit = {
      ...rest,
      keyGenerator: wholeWorkspace ? perWorkspace : keyGenerator,
      hook: 'preHandler',
    };
  });
}

/** A limit a whole workspace shares, whatever the address (a probe budget: docs/decisions.md#checks). */
export function workspaceRateLimitKey(ctx: ServerContext) {
  return (request: FastifyRequest): string =>
    `workspace:${workspaceLabelOf(request.headers.host, ctx.config.baseDomain) ?? '-'}`;
}

/** "Test" runs of health checks: a workspace's budget per minute, so the shared runner is no port scanner. */
export const checkTestRateLimit = (ctx: ServerContext) => ({
  max: ctx.config.checkTestsPerMinute,
  timeWindow: '1 minute',
  perWorkspace: true,
});

/** Registration and beta-key checks: rare for people, so a low limit per address (BEACON_REGISTER_RATE_LIMIT). */
export const registerRateLimit = (ctx: ServerContext) => ({
  max: ctx.config.registerRateLimitPerMinute,
  timeWindow: '1 minute',
});
