import { sql } from 'kysely';
import { isSqlite } from '../connect.js';
import { inList, listParameter, precompile } from '../precompiled.js';
import type { TeamRole } from '../../../domain/catalogue.js';
import type { TeamRow } from '../schema.js';
import { pageAndCount, pageWithTotal, precompiledPage, type Paged } from './paging.js';
import { searchTerm, whereSearchTextContains } from './search.js';
import type { SearchPage } from './users.js';
import type { Db } from './workspaces.js';

/** A team with its parent's reference (left-joined: one query for a page of teams). */
export interface TeamListRow extends TeamRow {
  parent_handle: string | null;
  parent_name: string | null;
  parent_icon_asset_id: string | null;
}

const TEAM_COLUMNS = [
  'teams.id',
  'teams.workspace_id',
  'teams.handle',
  'teams.name',
  'teams.description',
  'teams.icon_asset_id',
  'teams.parent_id',
  'teams.created_at',
  'teams.default_visibility',
  'teams.members_create_services',
] as const;

/** The teams of a workspace (no joins: what a count needs). */
function teamsOf(db: Db, workspaceId: string) {
  return db.selectFrom('teams').where('teams.workspace_id', '=', workspaceId);
}

type TeamFilter = ReturnType<typeof teamsOf>;

/** Each team with its parent's reference. */
function selectTeam(query: TeamFilter) {
  return query
    .leftJoin('teams as parent', (join) =>
      join.onRef('parent.id', '=', 'teams.parent_id').onRef('parent.workspace_id', '=', 'teams.workspace_id'),
    )
    .select(TEAM_COLUMNS)
    .select([
      'parent.handle as parent_handle',
      'parent.name as parent_name',
      'parent.icon_asset_id as parent_icon_asset_id',
    ]);
}

/** A page of teams ordered by name, and the total. */
function pageOfTeams(filter: TeamFilter, page: SearchPage): Promise<Paged<TeamListRow>> {
  return pageAndCount(
    selectTeam(filter).orderBy('teams.name').orderBy('teams.handle').limit(page.limit).offset(page.cursor).execute(),
    filter.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  );
}

const teamBy = (column: 'teams.handle' | 'teams.id') =>
  precompile<{ workspaceId: string; key: string }, TeamListRow>((db, param) =>
    selectTeam(teamsOf(db, param('workspaceId')).where(column, '=', param('key'))),
  );
const teamByHandle = teamBy('teams.handle');
const teamById = teamBy('teams.id');

/** Paths name a team by handle; the id is accepted too. Two indexed lookups rather than one `or` that scans. */
export async function findTeam(db: Db, workspaceId: string, idOrHandle: string): Promise<TeamListRow | undefined> {
  const values = { workspaceId, key: idOrHandle };
  return (await teamByHandle(db, values))[0] ?? (await teamById(db, values))[0];
}

export function findTeamByHandle(db: Db, workspaceId: string, handle: string) {
  return db
    .selectFrom('teams')
    .select(['id'])
    .where('workspace_id', '=', workspaceId)
    .where('handle', '=', handle)
    .executeTakeFirst();
}

type TeamsPageValues = { workspaceId: string; limit: number; offset: number };

/** Every team of the workspace, a page by name, and how many there are (no `q`: the common read). */
const everyTeamPage = precompiledPage(
  precompile<TeamsPageValues, TeamListRow>((db, param) =>
    selectTeam(teamsOf(db, param('workspaceId')))
      .orderBy('teams.name')
      .orderBy('teams.handle')
      .limit(param('limit'))
      .offset(param('offset')),
  ),
  precompile<TeamsPageValues, { n: number | string }>((db, param) =>
    teamsOf(db, param('workspaceId')).select((eb) => eb.fn.countAll<number | string>().as('n')),
  ),
);

/** Teams whose name, handle or description contains `q`. */
export function searchTeams(db: Db, workspaceId: string, page: SearchPage): Promise<Paged<TeamListRow>> {
  if (!searchTerm(page.q)) return everyTeamPage(db, { workspaceId, limit: page.limit, offset: page.cursor });
  return pageOfTeams(whereSearchTextContains(db, teamsOf(db, workspaceId), 'teams', page.q), page);
}

export function listSubTeams(db: Db, workspaceId: string, parentId: string, page: SearchPage) {
  return pageOfTeams(teamsOf(db, workspaceId).where('teams.parent_id', '=', parentId), page);
}

export function listTeamsOfUser(db: Db, workspaceId: string, userId: string): Promise<TeamListRow[]> {
  return selectTeam(
    teamsOf(db, workspaceId)
      .innerJoin('team_members', (join) =>
        join.onRef('team_members.team_id', '=', 'teams.id').on('team_members.user_id', '=', userId),
      )
      .where('team_members.workspace_id', '=', workspaceId),
  )
    .orderBy('teams.name')
    .orderBy('teams.handle')
    .execute();
}

/** The handles of these teams of the workspace, by id. */
export function listTeamHandlesByIds(db: Db, workspaceId: string, ids: readonly string[]) {
  // PostgreSQL refuses an empty `in ()`.
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('teams')
    .select(['id', 'handle', 'name'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .execute();
}

/** The workspace's teams of these handles (those that exist), with their ids. */
export function listTeamIdsByHandles(db: Db, workspaceId: string, handles: readonly string[]) {
  // PostgreSQL refuses an empty `in ()`.
  if (handles.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('teams')
    .select(['id', 'handle'])
    .where('workspace_id', '=', workspaceId)
    .where('handle', 'in', handles)
    .execute();
}

/** Every team of the workspace: its id by handle, and the visibility a new service of it gets. */
export function listTeamKeys(db: Db, workspaceId: string) {
  return db
    .selectFrom('teams')
    .select(['id', 'handle', 'default_visibility'])
    .where('workspace_id', '=', workspaceId)
    .execute();
}

type NewTeam = Omit<TeamRow, 'default_visibility' | 'members_create_services'>;

/** One team, or a run of them in one statement (a catalogue import). */
export async function insertTeam(db: Db, row: NewTeam | readonly NewTeam[]): Promise<void> {
  await db.insertInto('teams').values(row).execute();
}

export async function updateTeam(
  db: Db,
  workspaceId: string,
  id: string,
  patch: Partial<
    Pick<
      TeamRow,
      // The handle and the parent: what a catalogue file may change too (services/descriptors/apply.ts).
      | 'handle'
      | 'name'
      | 'description'
      | 'icon_asset_id'
      | 'parent_id'
      | 'default_visibility'
      | 'members_create_services'
    >
  >,
): Promise<void> {
  await db.updateTable('teams').set(patch).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

export async function deleteTeam(db: Db, workspaceId: string, id: string): Promise<void> {
  await db.deleteFrom('teams').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/** What keeps a team from being deleted: its services and its sub-teams (both index range counts). */
export async function countTeamChildren(
  db: Db,
  workspaceId: string,
  teamId: string,
): Promise<{ services: number; teams: number }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('services')
        .select((s) => s.fn.countAll<number | string>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('owner_team_id', '=', teamId)
        .as('services'),
      eb
        .selectFrom('teams')
        .select((s) => s.fn.countAll<number | string>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('parent_id', '=', teamId)
        .as('teams'),
    ])
    .executeTakeFirstOrThrow();
  return { services: Number(row.services), teams: Number(row.teams) };
}

// Members.

/** The teams a user belongs to and their role in each (the team_members_user index). */
export function teamRolesOfUser(db: Db, workspaceId: string, userId: string) {
  return db
    .selectFrom('team_members')
    .select(['team_id', 'role'])
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .execute();
}

export interface MemberRow {
  id: string;
  handle: string;
  name: string;
  icon_asset_id: string | null;
  description: string | null;
  role: TeamRole;
}

/**
 * A team's memberships, scoped to the workspace through the users joined (not `team_members.workspace_id`:
 * with that equality too, SQLite's planner picks the (workspace_id, user_id) index and reads the workspace's
 * memberships instead of the team's primary-key range).
 */
function membersOf(db: Db, workspaceId: string, teamId: string) {
  return db
    .selectFrom('team_members')
    .innerJoin('users', (join) =>
      join.onRef('users.id', '=', 'team_members.user_id').on('users.workspace_id', '=', workspaceId),
    )
    .where('team_members.team_id', '=', teamId);
}

const MEMBER_COLUMNS = [
  'users.id',
  'users.handle',
  'users.name',
  'users.icon_asset_id',
  'users.description',
  'team_members.role',
] as const;

export async function listMembers(
  db: Db,
  workspaceId: string,
  teamId: string,
  page: SearchPage,
): Promise<Paged<MemberRow>> {
  const query = membersOf(db, workspaceId, teamId);
  const rows = await query
    .select(MEMBER_COLUMNS)
    .select(sql<number | string>`count(*) over ()`.as('total'))
    .orderBy('users.name')
    .orderBy('users.handle')
    .limit(page.limit)
    .offset(page.cursor)
    .execute();
  return pageWithTotal(rows, page.cursor, async () =>
    query
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => r.n),
  );
}

/** Memberships in one statement; one that is there already is left as it is. */
export async function insertMembersIfMissing(
  db: Db,
  rows: ReadonlyArray<{ workspace_id: string; team_id: string; user_id: string; role: TeamRole; created_at: string }>,
): Promise<void> {
  await db
    .insertInto('team_members')
    .values(rows)
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}

/** Removes these users from the team where they are plain members (an admin stays). */
export async function deletePlainMembers(
  db: Db,
  workspaceId: string,
  teamId: string,
  userIds: readonly string[],
): Promise<void> {
  await db
    .deleteFrom('team_members')
    .where('workspace_id', '=', workspaceId)
    .where('team_id', '=', teamId)
    .where('role', '=', 'member')
    .where('user_id', 'in', userIds)
    .execute();
}

export function findMember(
  db: Db,
  workspaceId: string,
  teamId: string,
  userId: string,
): Promise<MemberRow | undefined> {
  return membersOf(db, workspaceId, teamId).select(MEMBER_COLUMNS).where('users.id', '=', userId).executeTakeFirst();
}

export interface MemberPreview {
  team_id: string;
  id: string;
  name: string;
  icon_asset_id: string | null;
  member_count: number | string;
}

const memberPreviewRows = precompile<{ workspaceId: string; teamIds: unknown; max: number }, MemberPreview>(
  (db, param) => {
    const ranked = db
      .selectFrom('team_members')
      .innerJoin('users', (join) =>
        join.onRef('users.id', '=', 'team_members.user_id').on('users.workspace_id', '=', param('workspaceId')),
      )
      .where('team_members.team_id', 'in', inList(db, param('teamIds')))
      .select(['team_members.team_id', 'users.id', 'users.name', 'users.icon_asset_id'])
      .select(
        sql<number>`row_number() over (partition by team_members.team_id order by users.name, users.handle)`.as(
          'position',
        ),
      )
      .select(sql<number | string>`count(*) over (partition by team_members.team_id)`.as('member_count'));
    return db
      .selectFrom(ranked.as('ranked'))
      .select(['team_id', 'id', 'name', 'icon_asset_id', 'member_count'])
      .where('position', '<=', param('max'))
      .orderBy('team_id')
      .orderBy('position');
  },
);

/**
 * The first `max` members (by name) of each of `teamIds` and each team's member count, in one query: the
 * avatar groups of a page of teams without a query per team.
 */
export function memberPreviews(db: Db, workspaceId: string, teamIds: string[], max: number): Promise<MemberPreview[]> {
  if (teamIds.length === 0) return Promise.resolve([]);
  return memberPreviewRows(db, { workspaceId, teamIds: listParameter(db, teamIds), max });
}

export async function insertMember(
  db: Db,
  row: { workspace_id: string; team_id: string; user_id: string; role: TeamRole; created_at: string },
): Promise<void> {
  await db.insertInto('team_members').values(row).execute();
}

export async function updateMemberRole(
  db: Db,
  workspaceId: string,
  teamId: string,
  userId: string,
  role: TeamRole,
): Promise<void> {
  await db
    .updateTable('team_members')
    .set({ role })
    .where('workspace_id', '=', workspaceId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteMember(db: Db, workspaceId: string, teamId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('team_members')
    .where('workspace_id', '=', workspaceId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .execute();
}

/** Like lockWorkspaceRoles, for the roles of one team: locks the team row on PostgreSQL. */
export async function lockTeamRoles(db: Db, workspaceId: string, teamId: string): Promise<void> {
  if (isSqlite(db)) return;
  await db
    .selectFrom('teams')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', teamId)
    .forNoKeyUpdate()
    .execute();
}

export async function countTeamAdmins(db: Db, workspaceId: string, teamId: string): Promise<number> {
  const row = await membersOf(db, workspaceId, teamId)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('team_members.role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
