import { isStrongPassword, messages } from '../../../domain/validators.js';
import { workspaceOrigin } from '../../config.js';
import { isoNow, type ServerContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { enqueueMail } from '../../db/repositories/mail-outbox.js';
import { claimPasswordReset, insertPasswordReset, usePasswordResetsOf } from '../../db/repositories/password-resets.js';
import { revokeUserSessions } from '../../db/repositories/sessions.js';
import { findUserByEmail, updateUser } from '../../db/repositories/users.js';
import { findWorkspaceByDomain } from '../../db/repositories/workspaces.js';
import type { Mail } from '../../integrations/smtp.js';
import { hashPassword, randomToken, sha256 } from '../../crypto/secrets.js';
import { callersOf } from '../../cache/caller-cache.js';

export const FORGOT_PASSWORD_ANSWER = 'If an account exists for this email, we have sent a link to reset its password.';

/**
 * Queues a reset request and answers. The account is looked up by the mail outbox job (resetMailFor), not
 * here: a request for an existing account and one for a missing account do the same work, one insert, so
 * neither the answer nor its timing tells them apart, whether or not mail can be sent.
 */
export async function forgotPassword(ctx: ServerContext, domain: string, email: string): Promise<void> {
  await enqueueMail(ctx.database.db, { kind: 'password-reset', workspaceDomain: domain, recipient: email.trim() });
  ctx.wakeMail?.();
}

/**
 * The reset mail for a queued request, with a fresh key (a retried send gets another; an unsent key is known
 * to nobody and expires); undefined when the account does not exist.
 */
export async function resetMailFor(ctx: ServerContext, domain: string, email: string): Promise<Mail | undefined> {
  const workspace = await findWorkspaceByDomain(ctx.database.db, domain);
  if (!workspace) return undefined;
  const user = await findUserByEmail(ctx.database.db, workspace.id, email);
  if (!user) return undefined;
  const key = randomToken();
  await insertPasswordReset(ctx.database.db, {
    key_hash: sha256(key),
    workspace_id: workspace.id,
    user_id: user.id,
    expires_at: isoNow(ctx, ctx.config.resetKeyTtlSeconds),
  });
  const link = `${workspaceOrigin(ctx.config, workspace.domain)}/reset-password?key=${encodeURIComponent(key)}`;
  const minutes = Math.round(ctx.config.resetKeyTtlSeconds / 60);
  return {
    to: user.email,
    subject: `Reset your ${workspace.name} password`,
    text: `Hello ${user.name},\n\nSomeone asked to reset your Beacon password for ${workspace.name}. Open this link within ${minutes} minutes to choose a new one:\n\n${link}\n\nIf it was not you, ignore this mail.\n`,
  };
}

const INVALID_RESET_KEY = 'This reset link is invalid or has expired';

/** Sets a new password from a single-use, expiring key, uses up the user's other keys and ends their sessions. */
export async function resetPassword(ctx: ServerContext, key: string, password: string): Promise<void> {
  if (!isStrongPassword(password))
    throw badRequest(messages.passwordNotStrong, { password: [messages.passwordNotStrong] });
  const passwordHash = await hashPassword(password);
  const userId = await ctx.database.db.transaction().execute(async (trx) => {
    const claimed = await claimPasswordReset(trx, sha256(key), isoNow(ctx));
    if (!claimed) throw badRequest(INVALID_RESET_KEY, { key: [INVALID_RESET_KEY] });
    await updateUser(trx, claimed.workspace_id, claimed.user_id, { password_hash: passwordHash });
    await usePasswordResetsOf(trx, claimed.workspace_id, claimed.user_id, isoNow(ctx));
    await revokeUserSessions(trx, claimed.workspace_id, claimed.user_id, isoNow(ctx));
    return claimed.user_id;
  });
  callersOf(ctx).forgetUser(userId);
}
