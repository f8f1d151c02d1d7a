import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { messages } from '../../domain/validators.js';
import { isoNow, type ServerContext } from '../context.js';
import { HttpError, forbidden, unauthorized } from '../errors.js';
import { loginFailuresSince, recordLoginFailure } from '../db/repositories/login-failures.js';
import {
  findLiveCaller,
  findLiveSessionByTokenHash,
  findLiveSessionUser,
  insertSession,
  revokeSession,
} from '../db/repositories/sessions.js';
import { findUserByEmail, updateUser } from '../db/repositories/users.js';
import type { UserRow, WorkspaceRow } from '../db/schema.js';
import { decoyPasswordHash, randomToken, sha256, verifyPassword } from './secrets.js';

/** DESIGN.md section 4a: 429 after at most 20 failed logins in 10 minutes per workspace and address. */
export const LOGIN_FAILURE_LIMIT = 20;
export const LOGIN_FAILURE_WINDOW_SECONDS = 600;

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
  const since = isoNow(ctx, -LOGIN_FAILURE_WINDOW_SECONDS);
  const failures = await loginFailuresSince(db, workspace.id, address, since);
  if (failures.count >= LOGIN_FAILURE_LIMIT) {
    const oldest = failures.oldest ? Date.parse(failures.oldest) : ctx.now().getTime();
    const retryAfter = Math.max(
      1,
      Math.ceil((oldest + LOGIN_FAILURE_WINDOW_SECONDS * 1000 - ctx.now().getTime()) / 1000),
    );
    throw new HttpError(429, 'Too many failed logins, try again later', undefined, {
      'retry-after': String(retryAfter),
    });
  }
  const user = await findUserByEmail(db, workspace.id, credentials.login.trim());
  const ok = await verifyPassword(user?.password_hash ?? (await decoyPasswordHash()), credentials.password);
  if (!user || !ok) {
    await recordLoginFailure(db, workspace.id, address, isoNow(ctx));
    throw unauthorized(messages.loginFailed);
  }
  const sessionToken = randomToken();
  const now = isoNow(ctx);
  await insertSession(db, {
    id: randomUUID(),
    workspace_id: workspace.id,
    user_id: user.id,
    token_hash: sha256(sessionToken),
    created_at: now,
    expires_at: isoNow(ctx, ctx.config.sessionTtlSeconds),
  });
  await updateUser(db, workspace.id, user.id, { last_login: now });
  return { sessionToken, user };
}

export async function logout(ctx: ServerContext, sessionToken: string | undefined): Promise<void> {
  if (!sessionToken) return;
  const session = await findLiveSessionByTokenHash(ctx.database.db, sha256(sessionToken), isoNow(ctx));
  if (session) {
    await revokeSession(ctx.database.db, session.id, isoNow(ctx));
    ctx.callers.forgetSession(session.id);
  }
}

export interface AccessToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
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

export interface Caller {
  workspace: WorkspaceRow;
  user: UserRow;
}

/** The session id inside a valid, unexpired access token; 401 otherwise. */
async function sessionOfToken(ctx: ServerContext, authorization: string | undefined): Promise<string> {
  const match = authorization?.match(/^Bearer\s+(\S+)$/i);
  if (!match) throw unauthorized('Missing bearer token');
  const token = match[1]!;
  const now = ctx.now();
  const known = ctx.tokens.get(token, now.getTime());
  if (known) return known;
  try {
    const { payload } = await jwtVerify<{ sid?: unknown }>(token, ctx.jwtKey, {
      algorithms: ['HS256'],
      currentDate: now,
    });
    if (typeof payload.sid !== 'string' || typeof payload.exp !== 'number') throw unauthorized('Invalid token');
    ctx.tokens.set(token, payload.sid, payload.exp * 1000);
    return payload.sid;
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
  const sessionId = await sessionOfToken(ctx, authorization);
  const now = ctx.now().getTime();
  const cached = ctx.callers.get(sessionId, now);
  if (cached) {
    if (cached.workspace.domain !== domain) throw unauthorized('Invalid token');
    return cached;
  }
  const caller = await findLiveCaller(ctx.database.db, sessionId, domain, isoNow(ctx));
  if (!caller) throw unauthorized('Invalid token');
  ctx.callers.set(sessionId, caller, now);
  return caller;
}

/** Cookie-authenticated reads (images in <img> tags send no bearer header). */
export async function authenticateCookie(
  ctx: ServerContext,
  domain: string,
  sessionToken: string | undefined,
): Promise<Caller> {
  if (!sessionToken) throw unauthorized();
  const session = await findLiveSessionByTokenHash(ctx.database.db, sha256(sessionToken), isoNow(ctx));
  const caller = session && (await findLiveCaller(ctx.database.db, session.id, domain, isoNow(ctx)));
  if (!caller) throw unauthorized();
  return caller;
}
