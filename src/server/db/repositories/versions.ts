import { CompiledQuery } from 'kysely';
import { isSqlite, sideReaderOf } from '../connect.js';
import type { Db } from './workspaces.js';

/** The version tables kept by triggers (migrations/version-triggers.ts), by the name given there. */
export type VersionName = 'feed' | 'catalogue' | 'scorecard';

const statements = (name: VersionName) => ({
  sqlite: `select version from ${name}_versions where workspace_id = ?`,
  postgres: `select version from ${name}_versions where workspace_id = $1`,
});

const STATEMENTS = {
  feed: statements('feed'),
  catalogue: statements('catalogue'),
  scorecard: statements('scorecard'),
};

/**
 * A workspace's version of `name`, as of now: it moves with every write its triggers watch, so what was read from
 * those tables may be kept while it stays. Plain SQL: this runs first on every request that keeps anything.
 */
export async function workspaceVersion(db: Db, name: VersionName, workspaceId: string): Promise<string> {
  const now = workspaceVersionNow(db, name, workspaceId);
  if (now !== undefined) return now;
  const text = STATEMENTS[name][isSqlite(db) ? 'sqlite' : 'postgres'];
  const { rows } = await db.executeQuery<{ version: number | string }>(CompiledQuery.raw(text, [workspaceId]));
  // No row: nothing changed since the migration.
  return String(rows[0]?.version ?? 0);
}

/** The same, at once, where it can be read synchronously (SQLite's side reader, connect.ts); else undefined. */
export function workspaceVersionNow(db: Db, name: VersionName, workspaceId: string): string | undefined {
  const side = sideReaderOf(db);
  return side ? String(side.get(STATEMENTS[name].sqlite, workspaceId) ?? 0) : undefined;
}
