import { randomUUID } from 'node:crypto';
import type { Invite, User } from '../../../contract/accounts.js';
import { canInvite } from '../../../domain/roles.js';
import { isEmail, isHandle, isStrongPassword, messages } from '../../../domain/validators.js';
import { workspaceOrigin } from '../../config.js';
import { isoNow, type ServerContext } from '../../context.js';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../errors.js';
import {
  acceptInvite,
  findInvite,
  findPendingInviteByEmail,
  insertInvite,
  listPendingInvites,
  renewInvite,
} from '../../db/repositories/invites.js';
import { enqueueMail } from '../../db/repositories/mail-outbox.js';
import type { SearchPage } from '../../db/repositories/users.js';
import { findUserByEmail, findUserByHandle, insertUser, newUserRow } from '../../db/repositories/users.js';
import type { InviteRow, UserRow, WorkspaceRow } from '../../db/schema.js';
import type { Caller } from './auth.js';
import { requireFreeSeats } from '../billing/billing.js';
import { hashPassword, randomToken, sha256 } from '../../crypto/secrets.js';
import { toUser } from './users.js';

export function toInvite(row: InviteRow): Invite {
  return { id: row.id, email: row.email, last_sent: row.last_sent };
}

function requireInviter(actor: UserRow): void {
  if (!canInvite(actor.role)) throw forbidden('Only owners and admins can invite users');
}

/** The invite mail with its link, queued in the transaction that sets the code. */
function inviteMail(ctx: ServerContext, workspace: WorkspaceRow, actor: UserRow, invite: InviteRow, code: string) {
  const link = `${workspaceOrigin(ctx.config, workspace.domain)}/invite/${invite.id}?code=${encodeURIComponent(code)}`;
  return {
    kind: 'mail' as const,
    recipient: invite.email,
    subject: `${actor.name} invited you to ${workspace.name} on Beacon`,
    body: `Hello,\n\n${actor.name} invited you to join the ${workspace.name} workspace on Beacon. Open this link to choose your name, handle and password:\n\n${link}\n`,
  };
}

export async function inviteUser(ctx: ServerContext, caller: Caller, rawEmail: string): Promise<Invite> {
  const { workspace, user: actor } = caller;
  requireInviter(actor);
  const email = rawEmail.trim().toLowerCase();
  if (!isEmail(email)) throw badRequest(messages.emailNotValid, { email: [messages.emailNotValid] });
  const { db } = ctx.database;
  if (await findUserByEmail(db, workspace.id, email)) {
    throw conflict('Already a member', { email: [`${email} is already a member of this workspace`] });
  }
  if (await findPendingInviteByEmail(db, workspace.id, email)) {
    throw conflict('Already invited', { email: [`${email} has already been invited`] });
  }
  const code = randomToken();
  const now = isoNow(ctx);
  const invite: InviteRow = {
    id: randomUUID(),
    workspace_id: workspace.id,
    email,
    code_hash: sha256(code),
    invited_by: actor.id,
    last_sent: now,
    created_at: now,
    accepted_at: null,
  };
  // The invite and its mail together: SMTP being down neither fails the request nor strands the invite.
  await db.transaction().execute(async (trx) => {
    await requireFreeSeats(ctx, trx, workspace.id, 1);
    await insertInvite(trx, invite);
    await enqueueMail(trx, inviteMail(ctx, workspace, actor, invite, code));
  });
  ctx.wakeMail?.();
  return toInvite(invite);
}

export async function listInvites(ctx: ServerContext, caller: Caller, page: SearchPage) {
  requireInviter(caller.user);
  const { rows, total } = await listPendingInvites(ctx.database.db, caller.workspace.id, page);
  return { invites: rows.map(toInvite), total };
}

/** Sends the invite again with a fresh code (the old link stops working). */
export async function resendInvite(ctx: ServerContext, caller: Caller, inviteId: string): Promise<Invite> {
  const { workspace, user: actor } = caller;
  requireInviter(actor);
  const invite = await findInvite(ctx.database.db, workspace.id, inviteId);
  if (!invite || invite.accepted_at) throw notFound('Invite not found');
  const code = randomToken();
  const now = isoNow(ctx);
  const renewed = { ...invite, code_hash: sha256(code), last_sent: now };
  await ctx.database.db.transaction().execute(async (trx) => {
    await renewInvite(trx, workspace.id, invite.id, renewed.code_hash, now);
    await enqueueMail(trx, inviteMail(ctx, workspace, actor, renewed, code));
  });
  ctx.wakeMail?.();
  return toInvite(renewed);
}

export interface Join {
  invite: { id: string; code: string };
  user: { name: string; handle: string; password: string };
}

const INVALID_INVITE = 'This invitation is invalid or has already been used';

/** Accepts an invitation: the new member gets the invited email and the member role. */
export async function joinWorkspace(ctx: ServerContext, workspace: WorkspaceRow, input: Join): Promise<User> {
  const errors: Record<string, string[]> = {};
  if (!isHandle(input.user.handle) || input.user.handle !== input.user.handle.toLowerCase())
    errors.handle = [messages.joinHandleNotValid];
  if (!isStrongPassword(input.user.password)) errors.password = [messages.passwordNotStrong];
  if (Object.keys(errors).length > 0) throw badRequest(Object.values(errors)[0]![0]!, errors);

  const { db } = ctx.database;
  const invite = await findInvite(db, workspace.id, input.invite.id);
  if (!invite || invite.accepted_at || invite.code_hash !== sha256(input.invite.code)) throw badRequest(INVALID_INVITE);
  const passwordHash = await hashPassword(input.user.password);
  const now = isoNow(ctx);
  const id = randomUUID();
  try {
    await db.transaction().execute(async (trx) => {
      if (await findUserByHandle(trx, workspace.id, input.user.handle)) {
        throw conflict('Handle is already taken', { handle: ['Handle is already taken'] });
      }
      if (await findUserByEmail(trx, workspace.id, invite.email)) {
        throw conflict('Already a member', { email: [`${invite.email} is already a member of this workspace`] });
      }
      // The invite holds its seat already; a plan cut below the seats in use refuses the join.
      await requireFreeSeats(ctx, trx, workspace.id, 0);
      if (!(await acceptInvite(trx, workspace.id, invite.id, now))) throw badRequest(INVALID_INVITE);
      await insertUser(
        trx,
        newUserRow({
          id,
          workspace_id: workspace.id,
          handle: input.user.handle,
          name: input.user.name.trim(),
          email: invite.email,
          password_hash: passwordHash,
          role: 'member',
          created_at: now,
        }),
      );
    });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (await findUserByHandle(db, workspace.id, input.user.handle)) {
      throw conflict('Handle is already taken', { handle: ['Handle is already taken'] });
    }
    throw error;
  }
  const user = await findUserByHandle(db, workspace.id, input.user.handle);
  if (!user) throw new Error('joined user vanished');
  return toUser(user);
}
