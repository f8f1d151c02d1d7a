import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isAdminRole } from '../domain/roles.js';
import { CLIENTS_NOT_ALLOWED, INSUFFICIENT_SCOPE, type RouteScope } from '../domain/scopes.js';
import { workspaceLabelOf } from './config.js';
import type { ServerContext } from './context.js';
import { findWorkspaceByDomain } from './db/repositories/workspaces.js';
import type { WorkspaceRow } from './db/schema.js';
import { badRequest, forbidden, notFound } from './errors.js';
import { authenticateBearer, authenticateCookie, SESSION_COOKIE, type Caller } from './services/accounts/auth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What an API client needs to call this route: a scope, or null when only users may
     * (docs/decisions.md#api-conventions). Every authenticated route decides (tests/api/scopes.test.ts); one that does
     * not refuses clients.
     */
    scope?: RouteScope;
  }
}

/**
 * For what the browser opens without a header of its own (an <img>, a stream): the bearer token when sent,
 * else the session cookie. Given to a route as its `authenticate` (operations.ts).
 */
export function bearerOrCookie(ctx: ServerContext) {
  return (request: FastifyRequest) => (domain: string) =>
    request.headers.authorization
      ? authenticateBearer(ctx, domain, request.headers.authorization)
      : authenticateCookie(ctx, domain, request.cookies[SESSION_COOKIE]);
}
export const WORKSPACE_NOT_FOUND = 'Workspace Not Found';

/** The workspace named by the Host header, or null on the root host or an unknown label. */
export async function workspaceOfHost(ctx: ServerContext, request: FastifyRequest): Promise<WorkspaceRow | null> {
  const label = workspaceLabelOf(request.headers.host, ctx.config.baseDomain);
  if (!label) return null;
  return (await findWorkspaceByDomain(ctx.database.db, label)) ?? null;
}

export async function requireWorkspace(ctx: ServerContext, request: FastifyRequest): Promise<WorkspaceRow> {
  const workspace = await workspaceOfHost(ctx, request);
  if (!workspace) throw notFound(WORKSPACE_NOT_FOUND);
  return workspace;
}

/** A body's `workspace` must name the workspace of the host it was sent to. */
export async function requireNamedWorkspace(
  ctx: ServerContext,
  request: FastifyRequest,
  named: string,
): Promise<WorkspaceRow> {
  const workspace = await requireWorkspace(ctx, request);
  if (workspace.domain !== named.toLowerCase())
    throw badRequest('The workspace does not match this address', { workspace: ['Does not match the host'] });
  return workspace;
}

/**
 * The authenticated caller on this host's workspace. An unknown workspace is 404 whatever the token; an
 * inactive workspace answers no one; a suspended one answers only its owners and admins (spec: admins still
 * get in to fix billing). An API client gets in only where the route's `config.scope` names a scope its token
 * has (403 'Insufficient scope' otherwise; 403 on routes for users only).
 */
export async function requireCaller(
  ctx: ServerContext,
  request: FastifyRequest,
  authenticate: (domain: string) => Promise<Caller> = (domain) =>
    authenticateBearer(ctx, domain, request.headers.authorization),
): Promise<Caller> {
  const label = workspaceLabelOf(request.headers.host, ctx.config.baseDomain);
  if (!label) throw notFound(WORKSPACE_NOT_FOUND);
  let caller: Caller;
  try {
    caller = await authenticate(label);
  } catch (error) {
    if (!(await findWorkspaceByDomain(ctx.database.db, label))) throw notFound(WORKSPACE_NOT_FOUND);
    throw error;
  }
  const { workspace, user } = caller;
  if (workspace.status === 'inactive') throw forbidden('Workspace Inactive');
  if (workspace.status === 'suspended' && !isAdminRole(user.role)) throw forbidden('Workspace Suspended');
  if (caller.client) {
    const scope = request.routeOptions.config.scope;
    if (!scope) throw forbidden(CLIENTS_NOT_ALLOWED);
    if (!caller.client.scopes.includes(scope)) throw forbidden(INSUFFICIENT_SCOPE);
  }
  return caller;
}

export function sessionCookieOptions(ctx: ServerContext) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: ctx.config.publicUrl.protocol === 'https:',
    maxAge: ctx.config.sessionTtlSeconds,
  };
}

/** Lets the routes of `scope` (and only those) read form-encoded bodies: OAuth token requests, SAML posts. */
export function acceptFormBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}
