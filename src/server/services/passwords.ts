import { isStrongPassword, messages } from '../../domain/validators.js';
import { workspaceOrigin } from '../config.js';
import { isoNow, type ServerContext } from '../context.js';
import { badRequest } from '../errors.js';
import { claimPasswordReset, insertPasswordReset } from '../db/repositories/password-resets.js';
import { revokeUserSessions } from '../db/repositories/sessions.js';
import { findUserByEmail, updateUser } from '../db/repositories/users.js';
import { findWorkspaceByDomain } from '../db/repositories/workspaces.js';
import { hashPassword, randomToken, sha256 } from './secrets.js';

export const FORGOT_PASSWORD_ANSWER = 'If an account exists for this email, we have sent a link to reset its password.';

/** Mails a reset link when the account exists; the answer is the same either way. */
export async function forgotPassword(ctx: ServerContext, domain: string, email: string): Promise<void> {
  const workspace = await findWorkspaceByDomain(ctx.database.db, domain);
  if (!workspace) return;
  const user = await findUserByEmail(ctx.database.db, workspace.id, email.trim());
  if (!user) return;
  const key = randomToken();
  await insertPasswordReset(ctx.database.db, {
    key_hash: sha256(key),
    workspace_id: workspace.id,
    user_id: user.id,
    expires_at: isoNow(ctx, ctx.config.resetKeyTtlSeconds),
  });
  const link = `${workspaceOrigin(ctx.config, workspace.domain)}/reset-password?key=${encodeURIComponent(key)}`;
  const minutes = Math.round(ctx.config.resetKeyTtlSeconds / 60);
  await ctx.mailer.send({
    to: user.email,
    subject: `Reset your ${workspace.name} password`,
    text: `Hello ${user.name},\n\nSomeone asked to reset your Beacon password for ${workspace.name}. Open this link within ${minutes} minutes to choose a new one:\n\n${link}\n\nIf it was not you, ignore this mail.\n`,
  });
}

export const INVALID_RESET_KEY = 'This reset link is invalid or has expired';

/** Sets a new password from a single-use, expiring key and ends the user's sessions. */
export async function resetPassword(ctx: ServerContext, key: string, password: string): Promise<void> {
  if (!isStrongPassword(password))
    throw badRequest(messages.passwordNotStrong, { password: [messages.passwordNotStrong] });
  const passwordHash = await hashPassword(password);
  const userId = await ctx.database.db.transaction().execute(async (trx) => {
    const claimed = await claimPasswordReset(trx, sha256(key), isoNow(ctx));
    if (!claimed) throw badRequest(INVALID_RESET_KEY, { key: [INVALID_RESET_KEY] });
    await updateUser(trx, claimed.workspace_id, claimed.user_id, { password_hash: passwordHash });
    await revokeUserSessions(trx, claimed.workspace_id, claimed.user_id, isoNow(ctx));
    return claimed.user_id;
  });
  ctx.callers.forgetUser(userId);
}
