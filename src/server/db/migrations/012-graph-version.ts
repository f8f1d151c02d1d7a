import type { Kysely } from 'kysely';
import type { Engine } from '../connect.js';
import { createVersionTriggers, type VersionedTable } from './version-triggers.js';

/**
 * A version of each workspace's service graph (docs/decisions.md#graph), so a `beacon serve` process may keep the graph
 * answers it computed until any process changes what a graph shows. Triggers bump it in the statement (so the
 * transaction) that makes the change, whichever code path writes:
 *
 * - a service created or deleted, or its handle, name, health, icon, owner team or visibility changed;
 * - a dependency or a remote dependency added or removed;
 * - a workspace linked or unlinked.
 *
 * A graph that shows remote services reads the versions of the linked workspaces too. No foreign key: a
 * workspace's deletion cascades to its services, whose triggers write its row while the workspace goes; the row
 * of a deleted workspace is never read again.
 */

/** The graph's columns of `services`: a change to any other (description, stars, stage) leaves graphs as they are. */
const SERVICE_COLUMNS = ['handle', 'name', 'health', 'icon_asset_id', 'owner_team_id', 'visibility'] as const;

/** Tables whose rows belong to a graph, by their `workspace_id`, and the columns whose update changes one. */
const WATCHED: readonly VersionedTable[] = [
  { table: 'services', updates: SERVICE_COLUMNS },
  { table: 'service_dependencies', updates: ['workspace_id', 'service_id', 'dependency_id'] },
  { table: 'remote_dependencies', updates: ['workspace_id', 'service_id', 'remote_domain', 'remote_handle'] },
  { table: 'workspace_remotes', updates: ['workspace_id', 'remote_workspace_id'] },
];

export function graphVersionMigration(engine: Engine) {
  return {
    up: (db: Kysely<unknown>) => createVersionTriggers(db, engine, 'graph', WATCHED),
  };
}
