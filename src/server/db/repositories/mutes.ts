import { sql } from 'kysely';
import type { MutesTable } from '../schema.js';
import { visibleTo, type ServiceScope } from './services.js';
import type { Db } from './workspaces.js';

export type ProfileType = MutesTable['profile_type'];

/** What a profile id names in this workspace: a service (with what decides who sees it), a team or a user. */
export type Profile =
  | { type: 'service'; id: string; visibility: 'public' | 'workspace' | 'owner'; owner_team_id: string }
  | { type: 'team' | 'user'; id: string };

/** Three primary-key lookups; ids are UUIDs, so at most one answers. */
export async function findProfile(db: Db, workspaceId: string, id: string): Promise<Profile | undefined> {
  const service = await db
    .selectFrom('services')
    .select(['id', 'visibility', 'owner_team_id'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (service) return { type: 'service', ...service };
  const team = await db
    .selectFrom('teams')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (team) return { type: 'team', id: team.id };
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  return user ? { type: 'user', id: user.id } : undefined;
}

export async function upsertMute(
  db: Db,
  row: Omit<MutesTable, 'activity' | 'notifications'> & { activity: boolean; notifications: boolean },
): Promise<void> {
  const flags = { activity: row.activity ? 1 : 0, notifications: row.notifications ? 1 : 0 };
  await db
    .insertInto('mutes')
    .values({ ...row, ...flags })
    .onConflict((oc) => oc.columns(['user_id', 'profile_type', 'profile_id']).doUpdateSet(flags))
    .execute();
}

export async function deleteMute(db: Db, workspaceId: string, userId: string, profileId: string): Promise<void> {
  await db
    .deleteFrom('mutes')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .where('profile_id', '=', profileId)
    .execute();
}

export interface MuteRow {
  profile_type: ProfileType;
  profile_id: string;
  activity: number;
  notifications: number;
  handle: string;
  name: string;
  description: string | null;
}

/**
 * A user's mutes with each muted profile's handle, name and description, in one query. Mutes of profiles
 * since deleted drop out with the joins; so do owner-only services `scope` may no longer see.
 */
export function listMutes(
  db: Db,
  workspaceId: string,
  userId: string,
  scope: ServiceScope,
  profileId?: string,
): Promise<MuteRow[]> {
  return db
    .selectFrom('mutes')
    .leftJoin('services', (join) =>
      join
        .on('mutes.profile_type', '=', 'service')
        .onRef('services.id', '=', 'mutes.profile_id')
        .onRef('services.workspace_id', '=', 'mutes.workspace_id'),
    )
    .leftJoin('teams', (join) =>
      join
        .on('mutes.profile_type', '=', 'team')
        .onRef('teams.id', '=', 'mutes.profile_id')
        .onRef('teams.workspace_id', '=', 'mutes.workspace_id'),
    )
    .leftJoin('users', (join) =>
      join
        .on('mutes.profile_type', '=', 'user')
        .onRef('users.id', '=', 'mutes.profile_id')
        .onRef('users.workspace_id', '=', 'mutes.workspace_id'),
    )
    .select(['mutes.profile_type', 'mutes.profile_id', 'mutes.activity', 'mutes.notifications'])
    .select([
      sql<string>`coalesce(services.handle, teams.handle, users.handle)`.as('handle'),
      sql<string>`coalesce(services.name, teams.name, users.name)`.as('name'),
      sql<string | null>`coalesce(services.description, teams.description, users.description)`.as('description'),
    ])
    .where('mutes.workspace_id', '=', workspaceId)
    .where('mutes.user_id', '=', userId)
    .$if(profileId !== undefined, (qb) => qb.where('mutes.profile_id', '=', profileId!))
    .where((eb) =>
      eb.or([eb('services.id', 'is not', null), eb('teams.id', 'is not', null), eb('users.id', 'is not', null)]),
    )
    .$if(!scope.all, (qb) =>
      qb.where((eb) => eb.or([eb('services.id', 'is', null), visibleTo(workspaceId, scope)(eb)])),
    )
    .orderBy('name')
    .orderBy('mutes.profile_id')
    .execute();
}
