import type { Member, ProfileRef } from '../../../contract/catalogue.js';
import { canAdminTeam, type TeamRole } from '../../../domain/catalogue.js';
import { isoNow, type ServerContext } from '../../context.js';
import {
  countTeamAdmins,
  deleteMember,
  findMember,
  insertMember,
  listMembers as listMemberRows,
  lockTeamRoles,
  updateMemberRole,
  type MemberRow,
} from '../../db/repositories/teams.js';
import { recordEvent } from '../events/record-event.js';
import { findUserByIdOrHandle, searchUsers, type SearchPage } from '../../db/repositories/users.js';
import type { Db } from '../../db/repositories/workspaces.js';
import { guardedTransaction } from '../../db/transactions.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import { agentColumns, agentOf } from '../accounts/agents.js';
import type { Caller } from '../accounts/auth.js';
import { adminTeam, AUTOCOMPLETE_LIMIT, findTeamOr404 } from './teams.js';
import { assetUrl } from '../accounts/users.js';
import { forgetViewer, viewerOf } from '../../cache/viewer.js';

const LAST_ADMIN = 'A team needs at least one admin';

function toMember(row: MemberRow): Member {
  return {
    user: {
      id: row.id,
      handle: row.handle,
      name: row.name,
      thumbnail_url: assetUrl(row.icon_asset_id),
      description: row.description,
    },
    role: row.role,
  };
}

export async function listMembers(ctx: ServerContext, caller: Caller, teamIdOrHandle: string, page: SearchPage) {
  const team = await findTeamOr404(ctx, caller.workspace.id, teamIdOrHandle);
  const { rows, total } = await listMemberRows(ctx.database.db, caller.workspace.id, team.id, page);
  return { members: rows.map(toMember), total };
}

/** A team admin adds a user of this workspace (id or handle; any other user is not found). */
export async function addMember(
  ctx: ServerContext,
  caller: Caller,
  teamIdOrHandle: string,
  input: { user: { id: string }; role?: TeamRole },
): Promise<Member> {
  const team = await adminTeam(ctx, caller, teamIdOrHandle);
  const { db } = ctx.database;
  const workspaceId = caller.workspace.id;
  const user = await findUserByIdOrHandle(db, workspaceId, input.user.id);
  if (!user) throw notFound('User not found');
  const already = () => conflict('Already a member of this team', { 'user.id': ['Already a member of this team'] });
  if (await findMember(db, workspaceId, team.id, user.id)) throw already();
  try {
    await db.transaction().execute(async (trx) => {
      const now = isoNow(ctx);
      await insertMember(trx, {
        workspace_id: workspaceId,
        team_id: team.id,
        user_id: user.id,
        role: input.role ?? 'member',
        created_at: now,
      });
      await recordMemberEvent(trx, caller, team.id, 'team.member_added', user, now);
    });
  } catch (error) {
    // Added concurrently: the primary key refused the second row.
    if (await findMember(db, workspaceId, team.id, user.id)) throw already();
    throw error;
  }
  forgetViewer(ctx, user.id);
  return toMember((await findMember(db, workspaceId, team.id, user.id))!);
}

/** The member named by a path (user id or handle), or 404. */
async function memberOf(ctx: ServerContext, workspaceId: string, teamId: string, userIdOrHandle: string) {
  const user = await findUserByIdOrHandle(ctx.database.db, workspaceId, userIdOrHandle);
  const member = user && (await findMember(ctx.database.db, workspaceId, teamId, user.id));
  if (!member) throw notFound('Member not found');
  return member;
}

export async function changeMemberRole(
  ctx: ServerContext,
  caller: Caller,
  teamIdOrHandle: string,
  userIdOrHandle: string,
  role: TeamRole,
): Promise<Member> {
  const team = await adminTeam(ctx, caller, teamIdOrHandle);
  const workspaceId = caller.workspace.id;
  const { id } = await memberOf(ctx, workspaceId, team.id, userIdOrHandle);
  const member = await guardedTransaction(ctx.database.db, async (trx) => {
    const current = await lockedMember(trx, workspaceId, team.id, id);
    if (current.role === 'admin' && role !== 'admin' && (await countTeamAdmins(trx, workspaceId, team.id)) <= 1) {
      throw conflict(LAST_ADMIN);
    }
    await updateMemberRole(trx, workspaceId, team.id, id, role);
    return current;
  });
  forgetViewer(ctx, id);
  return toMember({ ...member, role });
}

/** A team admin removes a member; a member may also leave on their own. The last admin stays. */
export async function removeMember(
  ctx: ServerContext,
  caller: Caller,
  teamIdOrHandle: string,
  userIdOrHandle: string,
): Promise<void> {
  const workspaceId = caller.workspace.id;
  const team = await findTeamOr404(ctx, workspaceId, teamIdOrHandle);
  const { id } = await memberOf(ctx, workspaceId, team.id, userIdOrHandle);
  if (id !== caller.user.id && !canAdminTeam(await viewerOf(ctx, caller), team.id)) {
    throw forbidden('Only team admins can manage this team');
  }
  await guardedTransaction(ctx.database.db, async (trx) => {
    const current = await lockedMember(trx, workspaceId, team.id, id);
    if (current.role === 'admin' && (await countTeamAdmins(trx, workspaceId, team.id)) <= 1) throw conflict(LAST_ADMIN);
    await deleteMember(trx, workspaceId, team.id, id);
    await recordMemberEvent(trx, caller, team.id, 'team.member_removed', current, isoNow(ctx));
  });
  forgetViewer(ctx, id);
}

async function recordMemberEvent(
  trx: Db,
  caller: Caller,
  teamId: string,
  type: 'team.member_added' | 'team.member_removed',
  user: { id: string; name: string },
  at: string,
): Promise<void> {
  await recordEvent(trx, {
    workspace_id: caller.workspace.id,
    profile_type: 'team',
    profile_id: teamId,
    type,
    ...agentColumns(agentOf(caller)),
    data: { user: user.id, name: user.name },
    created_at: at,
  });
}

/**
 * Inside a guarded transaction: locks the team's roles, then reads the member as it is now (two admins
 * leaving at once must not both count the other as the admin who stays).
 */
async function lockedMember(trx: Db, workspaceId: string, teamId: string, userId: string): Promise<MemberRow> {
  await lockTeamRoles(trx, workspaceId, teamId);
  const member = await findMember(trx, workspaceId, teamId, userId);
  if (!member) throw notFound('Member not found');
  return member;
}

/** Spec: the Add Member dialog's 'Find user' (name, handle or email), at most 10. */
export async function autocompleteUsers(ctx: ServerContext, caller: Caller, q: string): Promise<ProfileRef[]> {
  const { rows } = await searchUsers(ctx.database.db, caller.workspace.id, { q, cursor: 0, limit: AUTOCOMPLETE_LIMIT });
  return rows.map((row) => ({
    id: row.id,
    handle: row.handle,
    name: row.name,
    thumbnail_url: assetUrl(row.icon_asset_id),
  }));
}
