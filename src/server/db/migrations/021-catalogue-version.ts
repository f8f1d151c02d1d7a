import type { Kysely } from 'kysely';
import type { Engine } from '../connect.js';
import { createVersionTriggers, type VersionedTable } from './version-triggers.js';

/**
 * A version of each workspace's catalogue (issue 18): bumped by every write to a column that a catalogue read
 * shows or decides visibility by (a service, a team, a user, a membership, a star), so a process may keep those
 * reads' answers until any process changes one (cache/catalogue-cache.ts). Passwords and search texts are
 * left out: no answer shows them (the search text follows the name, handle and description).
 */
export const CATALOGUE_TABLES: readonly VersionedTable[] = [
  {
    table: 'services',
    updates: [
      'workspace_id',
      'handle',
      'name',
      'description',
      'icon_asset_id',
      'owner_team_id',
      'visibility',
      'stage',
      'health',
      'links',
      'starred_count',
      'created_at',
      'updated_at',
    ],
  },
  {
    table: 'teams',
    updates: [
      'workspace_id',
      'handle',
      'name',
      'description',
      'icon_asset_id',
      'parent_id',
      'created_at',
      'default_visibility',
      'members_create_services',
    ],
  },
  {
    table: 'users',
    updates: [
      'workspace_id',
      'handle',
      'name',
      'email',
      'bio',
      'profile',
      'description',
      'icon_asset_id',
      'role',
      'super_admin',
      'last_login',
      'created_at',
    ],
  },
  { table: 'team_members', updates: ['workspace_id', 'team_id', 'user_id', 'role', 'created_at'] },
  { table: 'stars', updates: ['workspace_id', 'user_id', 'service_id', 'created_at'] },
];

export function catalogueVersionMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await createVersionTriggers(db, engine, 'catalogue', CATALOGUE_TABLES);
    },
  };
}
