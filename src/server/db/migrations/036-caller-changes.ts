import type { Kysely } from 'kysely';
import type { Engine } from '../connect.js';
import { catalogueTriggers, type ChangedTable } from './032-catalogue-changes.js';

/**
 * What changes a caller is logged with the catalogue's changes (issue 31), so that every process's caller cache
 * follows it rather than reading each caller again when its time is up (cache/caller-cache.ts): a session
 * ended or deleted (`session:{id}`; a new one changes nobody's answer), the workspace's own row (`workspace:{id}`:
 * its status, domain, name or login), and an API client edited or deleted (`client:{id}`: its secret, scopes or
 * team). A user's row already logs its id (migration 032).
 */
export const CALLER_TABLES: readonly ChangedTable[] = [
  {
    table: 'sessions',
    rows: (r) => [`'session:' || ${r}.id`],
    updates: ['workspace_id', 'user_id', 'expires_at', 'revoked_at'],
    events: ['update', 'delete'],
  },
  {
    table: 'workspaces',
    rows: (r) => [`'workspace:' || ${r}.id`],
    updates: ['domain', 'name', 'status', 'login'],
    events: ['update'],
    workspaceColumn: 'id',
  },
  {
    table: 'clients',
    rows: (r) => [`'client:' || ${r}.id`],
    updates: ['workspace_id', 'team_id', 'handle', 'name', 'description', 'scopes', 'secret_hash', 'secret_version'],
    events: ['update', 'delete'],
  },
];

export function callerChangesMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await catalogueTriggers(db, engine, CALLER_TABLES);
    },
  };
}
