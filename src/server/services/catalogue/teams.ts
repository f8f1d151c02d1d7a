import { randomUUID } from 'node:crypto';
import type { ProfileRef, Team, TeamPolicies } from '../../../contract/catalogue.js';
import {
  AVATAR_GROUP_MAX,
  canAdminTeam,
  canCreateServiceFor,
  TEAM_NOT_EMPTY,
  teamServiceCount,
  type Viewer,
} from '../../../domain/catalogue.js';
import { canCreate } from '../../../domain/roles.js';
import { isoNow, type ServerContext } from '../../context.js';
import { deleteAsset } from '../../db/repositories/assets.js';
import { recordEvent } from '../events/record-event.js';
import {
  countTeamChildren,
  deleteTeam as deleteTeamRow,
  findTeam,
  findTeamByHandle,
  insertMember,
  insertTeam,
  listSubTeams as listSubTeamRows,
  listTeamsOfUser,
  memberPreviews,
  searchTeams as searchTeamRows,
  updateTeam as updateTeamRow,
  type TeamListRow,
} from '../../db/repositories/teams.js';
import type { SearchPage } from '../../db/repositories/users.js';
import { conflict, forbidden, HttpError, notFound } from '../../errors.js';
import { agentColumns, agentOf } from '../accounts/agents.js';
import type { Caller } from '../accounts/auth.js';
import { membersCreateServicesOf } from '../../cache/shared-answers.js';
import { requireValidHandle, withFreeHandle } from './handles.js';
import { removeIcon, replaceIcon } from '../accounts/icons.js';
import { assetUrl, findUserOr404 } from '../accounts/users.js';
import { forgetTeamViewers, forgetViewer, viewerOf } from '../../cache/viewer.js';
import { requireUnmanaged, withManagedMarks } from './managed-marks.js';

export const AUTOCOMPLETE_LIMIT = 10;

export async function findTeamOr404(ctx: ServerContext, workspaceId: string, idOrHandle: string) {
  const team = await findTeam(ctx.database.db, workspaceId, idOrHandle);
  if (!team) throw notFound('The team was not found');
  return team;
}

export function teamRef(row: { id: string; handle: string; name: string; icon_asset_id: string | null }): ProfileRef {
  return { id: row.id, handle: row.handle, name: row.name, thumbnail_url: assetUrl(row.icon_asset_id) };
}

/**
 * Teams as the API shows them, with the viewer's rights and each team's first members: one query for the
 * member avatars of the whole list. `is_member` is true for whoever has member rights (team admins by
 * workspace role included), since the app reads it as the edit permission (spec 6).
 */
async function toTeams(ctx: ServerContext, workspaceId: string, rows: TeamListRow[], viewer: Viewer): Promise<Team[]> {
  const previews = await memberPreviews(
    ctx.database.db,
    workspaceId,
    rows.map((row) => row.id),
    AVATAR_GROUP_MAX,
  );
  // Not Map.groupBy: Node 20 lacks it.
  const byTeam = new Map<string, typeof previews>();
  for (const preview of previews) byTeam.set(preview.team_id, [...(byTeam.get(preview.team_id) ?? []), preview]);
  const teams = await withManagedMarks(
    ctx,
    workspaceId,
    rows.map((row) => {
      const members = byTeam.get(row.id) ?? [];
      const isAdmin = canAdminTeam(viewer, row.id);
      return {
        id: row.id,
        handle: row.handle,
        name: row.name,
        description: row.description,
        thumbnail_url: assetUrl(row.icon_asset_id),
        parent:
          row.parent_id && row.parent_handle && row.parent_name !== null
            ? teamRef({
                id: row.parent_id,
                handle: row.parent_handle,
                name: row.parent_name,
                icon_asset_id: row.parent_icon_asset_id,
              })
            : null,
        is_admin: isAdmin,
        is_member: isAdmin || viewer.teams.has(row.id),
        can_create_services: canCreateServiceFor(viewer, row.id, row.members_create_services === 1),
        members: members.map((m) => ({ id: m.id, name: m.name, thumbnail_url: assetUrl(m.icon_asset_id) })),
        member_count: Number(members[0]?.member_count ?? 0),
        managed_by: null,
      };
    }),
  );
  // For answers shared between callers: their `can_create_services` follows it (cache/shared-answers.ts).
  teams.forEach((team, k) => membersCreateServicesOf.set(team, rows[k]!.members_create_services === 1));
  return teams;
}

async function toTeam(ctx: ServerContext, caller: Caller, row: TeamListRow): Promise<Team> {
  const [team] = await toTeams(ctx, caller.workspace.id, [row], await viewerOf(ctx, caller));
  return team!;
}

export async function getTeam(ctx: ServerContext, caller: Caller, idOrHandle: string): Promise<Team> {
  return toTeam(ctx, caller, await findTeamOr404(ctx, caller.workspace.id, idOrHandle));
}

/** The team, if the caller administers it (team admin, or workspace admin or owner). */
export async function adminTeam(ctx: ServerContext, caller: Caller, idOrHandle: string): Promise<TeamListRow> {
  const team = await findTeamOr404(ctx, caller.workspace.id, idOrHandle);
  if (!canAdminTeam(await viewerOf(ctx, caller), team.id)) throw forbidden('Only team admins can manage this team');
  return team;
}

/** Creates a team (under `parentIdOrHandle` when given, which the caller must administer); the creator is its admin. */
export async function createTeam(
  ctx: ServerContext,
  caller: Caller,
  input: { name: string; handle: string },
  parentIdOrHandle?: string,
): Promise<Team> {
  const { workspace, user } = caller;
  if (!canCreate(user.role)) throw forbidden('Guests cannot create teams');
  const parent = parentIdOrHandle ? await adminTeam(ctx, caller, parentIdOrHandle) : null;
  requireValidHandle(input.handle);
  const { db } = ctx.database;
  const id = randomUUID();
  const now = isoNow(ctx);
  await withFreeHandle(
    async () => Boolean(await findTeamByHandle(db, workspace.id, input.handle)),
    () =>
      db.transaction().execute(async (trx) => {
        await insertTeam(trx, {
          id,
          workspace_id: workspace.id,
          handle: input.handle,
          name: input.name,
          description: null,
          icon_asset_id: null,
          parent_id: parent?.id ?? null,
          created_at: now,
        });
        await insertMember(trx, {
          workspace_id: workspace.id,
          team_id: id,
          user_id: user.id,
          role: 'admin',
          created_at: now,
        });
        await recordEvent(trx, {
          workspace_id: workspace.id,
          profile_type: 'team',
          profile_id: id,
          type: 'team.created',
          ...agentColumns(agentOf(caller)),
          data: {},
          created_at: now,
        });
      }),
  );
  forgetViewer(ctx, user.id);
  return getTeam(ctx, caller, id);
}

export async function updateTeam(
  ctx: ServerContext,
  caller: Caller,
  idOrHandle: string,
  patch: { name?: string; description?: string | null },
): Promise<Team> {
  const team = await adminTeam(ctx, caller, idOrHandle);
  await requireUnmanaged(ctx, caller.workspace.id, team, 'team', 'change its name and description');
  // A blank description is no description (the list shows a dash).
  const description =
    patch.description === undefined ? undefined : patch.description?.trim() ? patch.description : null;
  const changes = {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(description !== undefined ? { description } : {}),
  };
  if (Object.keys(changes).length > 0) await updateTeamRow(ctx.database.db, caller.workspace.id, team.id, changes);
  return getTeam(ctx, caller, team.id);
}

function policiesOf(row: Pick<TeamListRow, 'default_visibility' | 'members_create_services'>): TeamPolicies {
  return { default_visibility: row.default_visibility, members_create_services: row.members_create_services === 1 };
}

export async function getTeamPolicies(ctx: ServerContext, caller: Caller, idOrHandle: string): Promise<TeamPolicies> {
  return policiesOf(await adminTeam(ctx, caller, idOrHandle));
}

export async function updateTeamPolicies(
  ctx: ServerContext,
  caller: Caller,
  idOrHandle: string,
  patch: Partial<TeamPolicies>,
): Promise<TeamPolicies> {
  const team = await adminTeam(ctx, caller, idOrHandle);
  const changes = {
    ...(patch.default_visibility !== undefined ? { default_visibility: patch.default_visibility } : {}),
    ...(patch.members_create_services !== undefined
      ? { members_create_services: patch.members_create_services ? 1 : 0 }
      : {}),
  };
  if (Object.keys(changes).length > 0) await updateTeamRow(ctx.database.db, caller.workspace.id, team.id, changes);
  return policiesOf({ ...team, ...changes });
}

/** Spec: a team with services or sub-teams cannot be deleted (409 with the screen's text). */
export async function deleteTeam(ctx: ServerContext, caller: Caller, idOrHandle: string): Promise<void> {
  const team = await adminTeam(ctx, caller, idOrHandle);
  await requireUnmanaged(ctx, caller.workspace.id, team, 'team', 'remove it from its file');
  const { db } = ctx.database;
  const workspaceId = caller.workspace.id;
  const requireEmpty = async (from: typeof db) => {
    const children = await countTeamChildren(from, workspaceId, team.id);
    if (teamServiceCount(children.services, children.teams) > 0) throw conflict(TEAM_NOT_EMPTY);
  };
  try {
    await db.transaction().execute(async (trx) => {
      await requireEmpty(trx);
      await deleteTeamRow(trx, workspaceId, team.id);
      if (team.icon_asset_id) await deleteAsset(trx, workspaceId, team.icon_asset_id);
    });
  } catch (error) {
    // A service or sub-team added meanwhile trips the foreign key; answer as the check would have.
    if (!(error instanceof HttpError)) await requireEmpty(db);
    throw error;
  }
  forgetTeamViewers(ctx, team.id);
}

export async function setTeamIcon(ctx: ServerContext, caller: Caller, idOrHandle: string, data: Buffer): Promise<Team> {
  const team = await adminTeam(ctx, caller, idOrHandle);
  await replaceIcon(ctx, caller.workspace.id, team.icon_asset_id, data, (trx, assetId) =>
    updateTeamRow(trx, caller.workspace.id, team.id, { icon_asset_id: assetId }),
  );
  return getTeam(ctx, caller, team.id);
}

export async function clearTeamIcon(ctx: ServerContext, caller: Caller, idOrHandle: string): Promise<Team> {
  const team = await adminTeam(ctx, caller, idOrHandle);
  await removeIcon(ctx, caller.workspace.id, team.icon_asset_id, (trx) =>
    updateTeamRow(trx, caller.workspace.id, team.id, { icon_asset_id: null }),
  );
  return getTeam(ctx, caller, team.id);
}

export async function searchTeams(ctx: ServerContext, caller: Caller, page: SearchPage) {
  const { rows, total } = await searchTeamRows(ctx.database.db, caller.workspace.id, page);
  return { teams: await toTeams(ctx, caller.workspace.id, rows, await viewerOf(ctx, caller)), total };
}

export async function listSubTeams(ctx: ServerContext, caller: Caller, idOrHandle: string, page: SearchPage) {
  const parent = await findTeamOr404(ctx, caller.workspace.id, idOrHandle);
  const { rows, total } = await listSubTeamRows(ctx.database.db, caller.workspace.id, parent.id, page);
  return { teams: await toTeams(ctx, caller.workspace.id, rows, await viewerOf(ctx, caller)), total };
}

/** The teams a user belongs to (every member of the workspace may look). */
export async function listUserTeams(ctx: ServerContext, caller: Caller, username: string): Promise<Team[]> {
  const target = await findUserOr404(ctx, caller.workspace.id, username);
  const rows = await listTeamsOfUser(ctx.database.db, caller.workspace.id, target.id);
  return toTeams(ctx, caller.workspace.id, rows, await viewerOf(ctx, caller));
}

export async function autocompleteTeams(ctx: ServerContext, caller: Caller, q: string): Promise<ProfileRef[]> {
  const { rows } = await searchTeamRows(ctx.database.db, caller.workspace.id, {
    q,
    cursor: 0,
    limit: AUTOCOMPLETE_LIMIT,
  });
  return rows.map(teamRef);
}
