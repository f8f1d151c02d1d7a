import type { Kysely } from 'kysely';
import type { Engine } from '../connect.js';
import { createVersionTriggers, type VersionedTable } from './version-triggers.js';

/**
 * Reads of a user's feed (docs/decisions.md#feeds, issue 14):
 *
 * - A version of what feeds follow in each workspace, so a process may keep each user's watched profiles until
 *   any process changes them: a star or a mute, a membership, a team, or a service created, deleted, renamed,
 *   given another icon, owner team or visibility (the columns a feed shows or filters by).
 * - The workspace's events newest first, with their profile, from the index alone: a feed whose profiles make up a
 *   good share of the workspace's events finds its page in one short scan (repositories/events.ts).
 */
const FEED_TABLES: readonly VersionedTable[] = [
  { table: 'services', updates: ['handle', 'name', 'icon_asset_id', 'owner_team_id', 'visibility'] },
  { table: 'teams', updates: ['handle', 'name', 'icon_asset_id'] },
  { table: 'team_members', updates: ['workspace_id', 'team_id', 'user_id'] },
  { table: 'stars', updates: ['workspace_id', 'user_id', 'service_id'] },
  { table: 'mutes', updates: ['workspace_id', 'user_id', 'profile_id', 'activity'] },
];

export function feedReadsMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await createVersionTriggers(db, engine, 'feed', FEED_TABLES);
      await db.schema
        .createIndex('events_workspace_feed')
        .on('events')
        .columns(['workspace_id', 'created_at', 'id', 'profile_id'])
        .execute();
    },
  };
}
