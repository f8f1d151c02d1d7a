import { sql } from 'kysely';
import { isSqlite } from './connect.js';
import type { Db } from './repositories/workspaces.js';

/**
 * A transaction whose reads decide its writes (a workspace keeps an owner, a team an admin): no other request
 * may change what it read before it writes. PostgreSQL runs READ COMMITTED, so the caller first locks the row
 * that guards the rule (lockWorkspaceRoles, lockTeamRoles) and reads after the lock. SQLite begins IMMEDIATE:
 * the write lock is taken before the first read (Kysely begins DEFERRED, where another process could write
 * between this one's read and its write; one process already runs one transaction at a time).
 */
export async function guardedTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (!isSqlite(db)) return db.transaction().execute(work);
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}
