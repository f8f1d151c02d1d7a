import type { Insertable } from 'kysely';
import { precompile } from '../precompiled.js';
import type { SessionsTable, UserRow } from '../schema.js';
import { JOINED_WORKSPACE_COLUMNS, splitJoinedWorkspace, type Db, type JoinedWorkspace } from './workspaces.js';

export type SessionRecord = Omit<Insertable<SessionsTable>, 'revoked_at'>;

export async function insertSession(db: Db, row: SessionRecord): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ ...row, revoked_at: null })
    .execute();
}

/** The live session behind a cookie: not revoked, not expired. */
export function findLiveSessionByTokenHash(db: Db, tokenHash: string, now: string) {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** The user behind a live session, in one query: the per-request check that makes revocation immediate. */
export function findLiveSessionUser(db: Db, workspaceId: string, sessionId: string, now: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .where('sessions.id', '=', sessionId)
    .where('sessions.workspace_id', '=', workspaceId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .executeTakeFirst();
}

/**
 * The caller behind a live session on the workspace named by `domain`: the user row and the workspace row,
 * in one query (this runs on every authenticated request the caller cache does not answer; precompiled).
 */
export async function findLiveCaller(db: Db, sessionId: string, domain: string, now: string) {
  const [row] = await liveCaller(db, { sessionId, domain, now });
  if (!row) return undefined;
  const { session_expires_at: expiresAt, ...joined } = row;
  const { row: user, workspace } = splitJoinedWorkspace(joined);
  return { caller: { user: user as UserRow, workspace }, expiresAt };
}

const liveCaller = precompile<{ sessionId: string; domain: string; now: string }, LiveCallerRow>((db, param) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('workspaces', 'workspaces.id', 'sessions.workspace_id')
    .selectAll('users')
    .select(JOINED_WORKSPACE_COLUMNS)
    .select('sessions.expires_at as session_expires_at')
    .where('sessions.id', '=', param('sessionId'))
    .where('workspaces.domain', '=', param('domain'))
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', param('now')),
);

type LiveCallerRow = UserRow & JoinedWorkspace & { session_expires_at: string };

export async function revokeSession(db: Db, id: string, now: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** A session of the workspace by its token's hash, unless revoked (expired ones too: logging out ends them). */
export function findUnrevokedSession(db: Db, workspaceId: string, tokenHash: string) {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('workspace_id', '=', workspaceId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** The unrevoked sessions an identity provider opened for a SAML subject (and session index, when it names one). */
export function listLiveSamlSessions(
  db: Db,
  workspaceId: string,
  providerId: string,
  nameId: string,
  sessionIndex: string | undefined,
): Promise<{ id: string }[]> {
  return db
    .selectFrom('sessions')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('sso_provider_id', '=', providerId)
    .where('saml_name_id', '=', nameId)
    .$if(Boolean(sessionIndex), (qb) => qb.where('saml_session_index', '=', sessionIndex!))
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeSessionsByIds(db: Db, ids: readonly string[], now: string): Promise<void> {
  if (ids.length > 0) await db.updateTable('sessions').set({ revoked_at: now }).where('id', 'in', ids).execute();
}

export async function revokeUserSessions(db: Db, workspaceId: string, userId: string, now: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}
