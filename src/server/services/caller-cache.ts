import type { UserRow, WorkspaceRow } from '../db/schema.js';

export interface CachedCaller {
  workspace: WorkspaceRow;
  user: UserRow;
}

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

  forgetWorkspace(workspaceId: string): void {
    for (const [sessionId, entry] of this.entries)
      if (entry.caller.workspace.id === workspaceId) this.entries.delete(sessionId);
  }
}

/** Verified access tokens and the session inside each, until they expire (signature and expiry never change). */
export class VerifiedTokens {
  private readonly entries = new Map<string, { sessionId: string; expiresAt: number }>();

  constructor(private readonly maxEntries = 10_000) {}

  get(token: string, now: number): string | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.sessionId;
  }

  set(token: string, sessionId: string, expiresAt: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { sessionId, expiresAt });
  }
}
