import type { UserRow, WorkspaceRow } from '../db/schema.js';

export interface CachedCaller {
  workspace: WorkspaceRow;
  user: UserRow;
  /** Set when an API client (client_credentials token) is calling: see services/auth.ts. */
  client?: ClientPrincipal;
}

/** An API client acting for its team, with the scopes its token grants. */
export interface ClientPrincipal {
  /** The client row's id (not its public client_id). */
  id: string;
  handle: string;
  teamId: string;
  /** The secret's version when this was read; a token of another version is refused. */
  secretVersion: number;
  scopes: readonly string[];
}

/** The cache key of an API client's entry (clients share the cache with sessions). */
export const clientCacheKey = (clientId: string) => `client:${clientId}`;

/**
 * Remembers who is behind a live session for a short time, so an authenticated read costs one query rather
 * than two. Writes in this process that change a caller (logout, password reset, role or profile change,
 * deletion, workspace status) forget the affected entries at once; other processes see such a change within
 * the TTL (BEACON_AUTH_CACHE_TTL_MS; 0 turns the cache off).
 */
export class CallerCache {
  private readonly entries = new Map<string, { caller: CachedCaller; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(sessionId: string, now: number): CachedCaller | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.entries.delete(sessionId);
      return undefined;
    }
    return entry.caller;
  }

  set(sessionId: string, caller: CachedCaller, now: number): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(sessionId, { caller, until: now + this.ttlMs });
  }

  forgetSession(sessionId: string): void {
    this.entries.delete(sessionId);
  }

  forgetUser(userId: string): void {
    for (const [sessionId, entry] of this.entries) if (entry.caller.user.id === userId) this.entries.delete(sessionId);
  }

  /** After a client's secret is replaced or the client deleted: its tokens stop working at once. */
  forgetClient(clientId: string): void {
    this.entries.delete(clientCacheKey(clientId));
  }

  forgetWorkspace(workspaceId: string): void {
    for (const [sessionId, entry] of this.entries)
      if (entry.caller.workspace.id === workspaceId) this.entries.delete(sessionId);
  }
}

/** What a verified access token stands for: a user's session, or an API client with the scopes it was given. */
export type TokenSubject =
  | { kind: 'session'; sessionId: string }
  | { kind: 'client'; clientId: string; secretVersion: number; scopes: readonly string[] };

/** Verified access tokens and what each stands for, until they expire (signature and expiry never change). */
export class VerifiedTokens {
  private readonly entries = new Map<string, { subject: TokenSubject; expiresAt: number }>();

  constructor(private readonly maxEntries = 10_000) {}

  get(token: string, now: number): TokenSubject | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.subject;
  }

  set(token: string, subject: TokenSubject, expiresAt: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { subject, expiresAt });
  }
}
