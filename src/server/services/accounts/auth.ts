import { randomUUID, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { line } from '../../../contract/common.js';
import { isClientScope, parseScopeParameter } from '../../../domain/scopes.js';
import { messages } from '../../../domain/validators.js';
import { isoNow, type ServerContext } from '../../context.js';
import { HttpError, badRequest, forbidden, unauthorized } from '../../errors.js';
import { findClientOnWorkspace, scopesOfClient } from '../../db/repositories/clients.js';
import { loginFailuresSince, recordLoginFailure } from '../../db/repositories/login-failures.js';
import {
  findLiveCaller,
  findLiveSessionByTokenHash,
  findLiveSessionUser,
  insertSession,
  revokeSession,
} from '../../db/repositories/sessions.js';
import { findUserByEmail, updateUser } from '../../db/repositories/users.js';
import type { ClientRow, UserRow, WorkspaceRow } from '../../db/schema.js';
import {
  callersOf,
  clientCacheKey,
  type CachedCaller,
  type ClientPrincipal,
  type TokenSubject,
  verifiedTokensOf,
} from '../../cache/caller-cache.js';
import { followCatalogueChanges } from '../../cache/catalogue-cache.js';
import { decoyPasswordHash, randomToken, sha256, verifyPassword } from '../../crypto/secrets.js';

/**
 * docs/decisions.md#api-conventions: failed logins are limited per account (its workspace and login, from any address),
 * so many addresses cannot hammer one user, and per address across accounts with a higher bar, so one address cannot
 * lock a whole workspace out. Either answers 429 with Retry-After until its oldest failure leaves the window.
 */
export const LOGIN_FAILURE_WINDOW_SECONDS = 600;
export const ACCOUNT_FAILURE_LIMIT = 20;
export const ADDRESS_FAILURE_LIMIT = 100;

export interface LoginResult {
  sessionToken: string;
  user: UserRow;
}

export async function login(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  credentials: { login: string; password: string },
  address: string,
): Promise<LoginResult> {
  const { db } = ctx.database;
  if (workspace.status === 'inactive') throw forbidden('Workspace Inactive');
  const account = credentials.login.trim().toLowerCase();
  const since = isoNow(ctx, -LOGIN_FAILURE_WINDOW_SECONDS);
  const failures = await loginFailuresSince(db, { workspaceId: workspace.id, account, address }, since);
  const over = [
    failures.account.count >= ACCOUNT_FAILURE_LIMIT && failures.account,
    failures.address.count >= ADDRESS_FAILURE_LIMIT && failures.address,
  ].filter((count) => count !== false);
  if (over.length > 0) {
    const now = ctx.now().getTime();
    const until = Math.max(...over.map(({ oldest }) => (oldest ? Date.parse(oldest) : now)));
    const retryAfter = Math.max(1, Math.ceil((until + LOGIN_FAILURE_WINDOW_SECONDS * 1000 - now) / 1000));
    throw new HttpError(429, 'Too many failed logins, try again later', undefined, {
      'retry-after': String(retryAfter),
    });
  }
  const user = await findUserByEmail(db, workspace.id, credentials.login.trim());
  const ok = await verifyPassword(user?.password_hash ?? (await decoyPasswordHash()), credentials.password);
  if (!user || !ok) {
    await recordLoginFailure(db, { workspace_id: workspace.id, account, address, at: isoNow(ctx) }, since);
    throw unauthorized(messages.loginFailed);
  }
  return { sessionToken: await startSession(ctx, workspace, user), user };
}

/** The cookie that holds a browser's session token. */
export const SESSION_COOKIE = 'beacon_session';

/** A new session for `user` (a login, or SAML with what single logout needs); answers the cookie's token. */
export async function startSession(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  user: UserRow,
  saml?: { providerId: string; nameId: string; sessionIndex: string | null },
): Promise<string> {
  const { db } = ctx.database;
  const sessionToken = randomToken();
  const now = isoNow(ctx);
  await insertSession(db, {
    id: randomUUID(),
    workspace_id: workspace.id,
    user_id: user.id,
    token_hash: sha256(sessionToken),
    created_at: now,
    expires_at: isoNow(ctx, ctx.config.sessionTtlSeconds),
    ...(saml
      ? { sso_provider_id: saml.providerId, saml_name_id: saml.nameId, saml_session_index: saml.sessionIndex }
      : {}),
  });
  await updateUser(db, workspace.id, user.id, { last_login: now });
  return sessionToken;
}

export async function logout(ctx: ServerContext, sessionToken: string | undefined): Promise<void> {
  if (!sessionToken) return;
  const session = await findLiveSessionByTokenHash(ctx.database.db, sha256(sessionToken), isoNow(ctx));
  if (session) {
    await revokeSession(ctx.database.db, session.id, isoNow(ctx));
    callersOf(ctx).forgetSession(session.id);
  }
}

export interface AccessToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope?: string;
}

/** Exchanges a live session cookie for a short-lived JWT whose sub is `user:{workspace}:{handle}`. */
export async function issueSessionToken(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  sessionToken: string | undefined,
): Promise<AccessToken> {
  if (!sessionToken) throw unauthorized('No session');
  const { db } = ctx.database;
  const session = await findLiveSessionByTokenHash(db, sha256(sessionToken), isoNow(ctx));
  if (!session || session.workspace_id !== workspace.id) throw unauthorized('No session');
  const user = await findLiveSessionUser(db, workspace.id, session.id, isoNow(ctx));
  if (!user) throw unauthorized('No session');
  const ttl = ctx.config.tokenTtlSeconds;
  const issuedAt = Math.floor(ctx.now().getTime() / 1000);
  const token = await new SignJWT({ ws: workspace.id, sid: session.id })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(`user:${workspace.domain}:${user.handle}`)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttl)
    .sign(ctx.jwtKey);
  return { access_token: token, token_type: 'Bearer', expires_in: ttl };
}

/**
 * Who is calling. An API client (client_credentials token) acts for its team: `client` is set, and `user` is a
 * stand-in member of the workspace named after the client (never a row of users), so reads see what a member
 * of that team sees. Routes decide whether a client may call them at all (http.ts requireCaller, route scopes).
 */
export type Caller = CachedCaller;

/** The subject inside a valid, unexpired access token; 401 otherwise. */
async function subjectOfToken(ctx: ServerContext, authorization: string | undefined): Promise<TokenSubject> {
  const match = authorization?.match(/^Bearer\s+(\S+)$/i);
  if (!match) throw unauthorized('Missing bearer token');
  const token = match[1]!;
  const now = ctx.now();
  const known = verifiedTokensOf(ctx).get(token, now.getTime());
  if (known) return known;
  try {
    const { payload } = await jwtVerify<{ sid?: unknown; cid?: unknown; ver?: unknown; scope?: unknown }>(
      token,
      ctx.jwtKey,
      { algorithms: ['HS256'], currentDate: now },
    );
    if (typeof payload.exp !== 'number') throw unauthorized('Invalid token');
    let subject: TokenSubject;
    if (typeof payload.sid === 'string') subject = { kind: 'session', sessionId: payload.sid };
    else if (typeof payload.cid === 'string' && typeof payload.ver === 'number' && typeof payload.scope === 'string')
      subject = { kind: 'client', clientId: payload.cid, secretVersion: payload.ver, scopes: payload.scope.split(' ') };
    else throw unauthorized('Invalid token');
    verifiedTokensOf(ctx).set(token, subject, payload.exp * 1000);
    return subject;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw unauthorized('Token expired');
    throw unauthorized('Invalid token');
  }
}

/**
 * The caller behind a bearer token on the workspace named by `domain`. A token of another workspace, an
 * expired token, or one whose session was ended (logout, password reset, user deleted) is refused with 401.
 */
export async function authenticateBearer(
  ctx: ServerContext,
  domain: string,
  authorization: string | undefined,
): Promise<Caller> {
  const subject = await subjectOfToken(ctx, authorization);
  if (subject.kind === 'client') return authenticateClient(ctx, domain, subject);
  const { sessionId } = subject;
  const now = ctx.now().getTime();
  const held = await heldCaller(ctx, sessionId, now);
  if (held) {
    if (held.workspace.domain !== domain) throw unauthorized('Invalid token');
    return held;
  }
  const epoch = callersOf(ctx).epoch;
  const found = await findLiveCaller(ctx.database.db, sessionId, domain, isoNow(ctx));
  if (!found) throw unauthorized('Invalid token');
  callersOf(ctx).set(sessionId, found.caller, now, epoch, Date.parse(found.expiresAt));
  return found.caller;
}

/**
 * The caller the cache holds under `key`, if any: as it is while fresh, else once its workspace's changes are
 * followed (cache/caller-cache.ts), if none of them forgot it.
 */
async function heldCaller(ctx: ServerContext, key: string, now: number): Promise<CachedCaller | undefined> {
  const held = callersOf(ctx).get(key, now);
  if (!held) return undefined;
  if (held.fresh) return held.caller;
  await followCatalogueChanges(ctx, held.caller.workspace.id);
  if (callersOf(ctx).get(key, now)?.caller !== held.caller) return undefined;
  callersOf(ctx).renew(key, now);
  return held.caller;
}

/** The stand-in user a client acts as: a member of the workspace (the client's team comes from `client`). */
function clientUser(client: ClientRow): UserRow {
  return {
    id: `client:${client.id}`,
    workspace_id: client.workspace_id,
    handle: client.handle,
    name: client.name,
    email: '',
    password_hash: '',
    bio: null,
    profile: null,
    description: client.description,
    icon_asset_id: null,
    role: 'member',
    super_admin: 0,
    last_login: null,
    created_at: client.created_at,
  };
}

/**
 * A client token is good while its client exists with the same secret version (a new secret or deleting the
 * client revokes its tokens; this process forgets the cache entry at once, others within the cache TTL). Its
 * scopes are those it was issued with that the client still has.
 */
async function authenticateClient(
  ctx: ServerContext,
  domain: string,
  subject: Extract<TokenSubject, { kind: 'client' }>,
): Promise<Caller> {
  const key = clientCacheKey(subject.clientId);
  const now = ctx.now().getTime();
  let caller = await heldCaller(ctx, key, now);
  if (!caller) {
    const epoch = callersOf(ctx).epoch;
    const found = await findClientOnWorkspace(ctx.database.db, { id: subject.clientId }, domain);
    if (!found) throw unauthorized('Invalid token');
    const { client, workspace } = found;
    const principal: ClientPrincipal = {
      id: client.id,
      handle: client.handle,
      teamId: client.team_id,
      secretVersion: client.secret_version,
      scopes: scopesOfClient(client),
    };
    caller = { workspace, user: clientUser(client), client: principal };
    callersOf(ctx).set(key, caller, now, epoch);
  }
  const { client } = caller;
  if (!client || caller.workspace.domain !== domain || client.secretVersion !== subject.secretVersion) {
    throw unauthorized('Invalid token');
  }
  return { ...caller, client: { ...client, scopes: subject.scopes.filter((s) => client.scopes.includes(s)) } };
}

const INVALID_CLIENT = 'Invalid client credentials';
const oneLine = line();

function sameSecret(secret: string, secretHash: string): boolean {
  const given = Buffer.from(sha256(secret), 'hex');
  const stored = Buffer.from(secretHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * OAuth 2.0 client credentials (docs/decisions.md#api-conventions): a short-lived JWT whose sub is
 * `client:{workspace}:{handle}`, limited to the client's scopes, or to those of them `scope` asks for. Unknown client
 * or wrong secret: 401.
 */
export async function issueClientToken(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  credentials: { client_id?: string | undefined; client_secret?: string | undefined; scope?: string | undefined },
): Promise<AccessToken> {
  const { client_id: clientId, client_secret: secret } = credentials;
  // HTTP Basic credentials come past the contract's checks; PostgreSQL cannot compare a string holding a NUL.
  if (!clientId || !secret || !oneLine.safeParse(clientId).success) throw unauthorized(INVALID_CLIENT);
  const found = await findClientOnWorkspace(ctx.database.db, { clientId }, workspace.domain);
  // Hash the secret whatever happens, so the timing does not tell whether the client exists.
  const ok = sameSecret(secret, found?.client.secret_hash ?? '0'.repeat(64));
  if (!found || !ok) throw unauthorized(INVALID_CLIENT);
  if (workspace.status === 'inactive') throw forbidden('Workspace Inactive');
  const { client } = found;
  if (client.disabled_reason) throw unauthorized(`This client is disabled: ${client.disabled_reason}`);
  const granted = scopesOfClient(client);
  let scopes = granted;
  if (credentials.scope !== undefined && credentials.scope.trim() !== '') {
    const asked = parseScopeParameter(credentials.scope);
    const refused = asked.filter((scope) => !isClientScope(scope) || !granted.includes(scope));
    if (refused.length > 0) {
      throw badRequest(`Scope not granted to this client: ${refused.join(' ')}`, {
        scope: refused.map((scope) => `Not granted: ${scope}`),
      });
    }
    scopes = asked;
  }
  const ttl = ctx.config.tokenTtlSeconds;
  const issuedAt = Math.floor(ctx.now().getTime() / 1000);
  const scope = scopes.join(' ');
  const token = await new SignJWT({ ws: workspace.id, cid: client.id, ver: client.secret_version, scope })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(`client:${workspace.domain}:${client.handle}`)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttl)
    .sign(ctx.jwtKey);
  return { access_token: token, token_type: 'Bearer', expires_in: ttl, scope };
}

/** Cookie-authenticated reads (images in <img> tags send no bearer header). */
export async function authenticateCookie(
  ctx: ServerContext,
  domain: string,
  sessionToken: string | undefined,
): Promise<Caller> {
  if (!sessionToken) throw unauthorized();
  const session = await findLiveSessionByTokenHash(ctx.database.db, sha256(sessionToken), isoNow(ctx));
  const found = session && (await findLiveCaller(ctx.database.db, session.id, domain, isoNow(ctx)));
  if (!found) throw unauthorized();
  return found.caller;
}
