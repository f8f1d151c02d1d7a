/**
 * API client scopes (spec/catalogue.md section 5 with the product name Beacon, docs/decisions.md#api-conventions and
 * #open-decisions): what a client_credentials token may do. Shared by the contract, the server and the client form.
 */
export const CLIENT_SCOPES = [
  'beacon.team.read',
  'beacon.service.read',
  'beacon.service.manage',
  'beacon.runner.read',
  'beacon.runner.manage',
  'beacon.announcement.read',
  'beacon.release-notes.read',
  'beacon.release-notes.manage',
  'beacon.api-docs.read',
  'beacon.api-docs.manage',
  'beacon.user.read',
  'beacon.notice.read',
  'beacon.notice.manage',
  'beacon.health-check.read',
  'beacon.health-check.manage',
  'beacon.catalog.manage',
  'beacon.alert.read',
  'beacon.alert.write',
] as const;
export type ClientScope = (typeof CLIENT_SCOPES)[number];

/**
 * Scopes that reach beyond the client's own team (docs/api.md, "API clients"): a client never holds more than the
 * person who made it may do, so only a workspace admin or owner grants these, or rotates the secret of a client
 * holding one.
 */
export const WORKSPACE_WIDE_SCOPES: readonly ClientScope[] = ['beacon.catalog.manage'];

export function workspaceWideScopes(scopes: readonly string[]): ClientScope[] {
  return WORKSPACE_WIDE_SCOPES.filter((scope) => scopes.includes(scope));
}

export function isClientScope(value: string): value is ClientScope {
  return (CLIENT_SCOPES as readonly string[]).includes(value);
}

/** A space-separated OAuth scope parameter as a list (empty strings dropped, duplicates kept once). */
export function parseScopeParameter(value: string): string[] {
  return [...new Set(value.split(/\s+/).filter(Boolean))];
}

/**
 * A route's decision for client tokens: the scope a client needs, or null when only users may call it
 * (sessions, invites, roles, users, stars, mutes, icons, workspace administration, clients themselves).
 */
export type RouteScope = ClientScope | null;

/** What the product calls an insufficient scope (403). */
export const INSUFFICIENT_SCOPE = 'Insufficient scope';
export const CLIENTS_NOT_ALLOWED = 'API clients cannot use this route';
