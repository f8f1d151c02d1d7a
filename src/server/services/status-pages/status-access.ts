/**
 * Who may read a status page (docs/decisions.md#status-pages, issue 27): anyone, a browser holding the cookie its
 * password unlocked, or a session of the workspace.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import type { ServerContext } from '../../context.js';
import type { StatusPageRow } from '../../db/schema.js';
import { unauthorized } from '../../errors.js';
import { authenticateCookie, SESSION_COOKIE } from '../accounts/auth.js';
import { verifyPassword } from '../../crypto/secrets.js';
import type { StatusTarget } from './status-view.js';

/** How long an unlocked password page stays unlocked in a browser. */
const UNLOCK_SECONDS = 30 * 86_400;

const unlockCookieName = (page: StatusPageRow) => `beacon_status_${page.id.replace(/-/g, '')}`;

/** The unlock proof names the page and its password (a new password locks every browser out again). */
const passwordMark = (page: StatusPageRow) => (page.password_hash ?? '').slice(-16);

/** Whether the request may read the page: true, or the reason it may not ('password' or 'members'). */
export async function mayRead(
  ctx: ServerContext,
  request: FastifyRequest,
  target: StatusTarget,
): Promise<true | 'password' | 'members'> {
  const { page, workspace } = target;
  if (page.access === 'public') return true;
  if (page.access === 'password') {
    const token = request.cookies[unlockCookieName(page)];
    if (!token) return 'password';
    try {
      const { payload } = await jwtVerify<{ page?: unknown; mark?: unknown }>(token, ctx.jwtKey, {
        algorithms: ['HS256'],
        currentDate: ctx.now(),
      });
      return payload.page === page.id && payload.mark === passwordMark(page) ? true : 'password';
    } catch {
      return 'password';
    }
  }
  try {
    await authenticateCookie(ctx, workspace.domain, request.cookies[SESSION_COOKIE]);
    return true;
  } catch {
    return 'members';
  }
}

/** 401 unless the request may read the page. */
export async function requireReader(ctx: ServerContext, request: FastifyRequest, target: StatusTarget): Promise<void> {
  const verdict = await mayRead(ctx, request, target);
  if (verdict === 'password') throw unauthorized('This status page needs its password');
  if (verdict === 'members') throw unauthorized('This status page is for members of the workspace: sign in');
}

/** Checks a password page's password and sets the cookie that unlocks it; 401 when it is wrong. */
export async function unlockPage(
  ctx: ServerContext,
  target: StatusTarget,
  password: string,
  reply: FastifyReply,
): Promise<void> {
  const { page } = target;
  if (page.access !== 'password' || !page.password_hash || !(await verifyPassword(page.password_hash, password))) {
    throw unauthorized('The password is not right');
  }
  const issuedAt = Math.floor(ctx.now().getTime() / 1000);
  const token = await new SignJWT({ page: page.id, mark: passwordMark(page) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + UNLOCK_SECONDS)
    .sign(ctx.jwtKey);
  void reply.setCookie(unlockCookieName(page), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.publicUrl.protocol === 'https:',
    maxAge: UNLOCK_SECONDS,
  });
}
