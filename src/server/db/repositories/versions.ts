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

/** A scope a catalogue version changed (migration 032), at that version. */
export interface CatalogueChange {
  version: number;
  scope: string;
}

const CHANGES = {
  sqlite: `select version, scope from catalogue_changes where workspace_id = ? and version > ? and version <= ?`,
  postgres: `select version, scope from catalogue_changes where workspace_id = $1 and version > $2 and version <= $3`,
};

/** The scopes the workspace's catalogue versions after `after`, up to `upTo`, changed (in no particular order). */
export async function catalogueChanges(
  db: Db,
  workspaceId: string,
  after: number,
  upTo: number,
): Promise<CatalogueChange[]> {
  const now = catalogueChangesNow(db, workspaceId, after, upTo);
  if (now) return now;
  const query = CompiledQuery.raw(CHANGES.postgres, [workspaceId, after, upTo]);
  const { rows } = await db.executeQuery<{ version: number | string; scope: string }>(query);
  return rows.map((row) => ({ version: Number(row.version), scope: row.scope }));
}

/** The same, at once, where it can be read synchronously (SQLite's side reader); else undefined. */
export function catalogueChangesNow(
  db: Db,
  workspaceId: string,
  after: number,
  upTo: number,
): CatalogueChange[] | undefined {
  const side = sideReaderOf(db);
  if (!side) return undefined;
  const rows = side.all(CHANGES.sqlite, [workspaceId, after, upTo]) as { version: number; scope: string }[];
  return rows.map((row) => ({ version: Number(row.version), scope: row.scope }));
}
