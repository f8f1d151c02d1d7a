import type { UserRow, WorkspaceRow } from '../db/schema.js';
import { perContext } from '../per-context.js';
import { BoundedMap } from './bounded-map.js';
import type { Scope } from './scopes.js';

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

/** A caller the cache holds, and whether it may be given as it is or must first be checked against changes. */
export interface HeldCaller {
  caller: CachedCaller;
  /** False once its time (BEACON_AUTH_CACHE_TTL_MS) is up: {@link CallerCache.renew} it after following changes. */
  fresh: boolean;
}

interface Entry {
  caller: CachedCaller;
  /** Until when it is given without following the workspace's changes. */
  until: number;
  /** When its session ends (a client's entry: never; its tokens expire on their own). */
  endsAt: number;
}

/**
 * Remembers who is behind a live session or an API client, so an authenticated read costs no query. Writes in this
 * process that change a caller (logout, password reset, role or profile change, deletion, workspace status, a
 * client's secret) forget the affected entries at once. Every such write, whichever process makes it, also logs
 * its scope in the workspace's catalogue changes (`session:{id}`, the user's id, `workspace:{id}`, `client:{id}`;
 * migrations 032 and 036, spelled in scopes.ts), and the process that follows those changes
 * (cache/catalogue-cache.ts) hands each to {@link forgetScope}. An entry is given as it is for the TTL
 * (BEACON_AUTH_CACHE_TTL_MS; 0 turns the cache off); after it the request follows the workspace's changes first (a
 * version read) and {@link renew}s what is still held, where it used to read the caller again. So another
 * process's change shows within the TTL, and at once on the reads that follow the catalogue.
 *
 * An entry read while a change was being followed is not kept ({@link epoch}, the store's count of forgets): the
 * change may have come after the read, and would not be followed again.
 */
export class CallerCache {
  private readonly entries: BoundedMap<string, Entry>;
  /** The keys of each user's entries. */
  private readonly byUser = new Map<string, Set<string>>();

  constructor(
    private readonly ttlMs: number,
    maxEntries = 10_000,
  ) {
    this.entries = new BoundedMap({ maxWeight: maxEntries, onDrop: (key, entry) => this.unindex(key, entry) });
  }

  /** Moves on with every forget: an entry read before a forget and kept after it might have missed it. */
  get epoch(): number {
    return this.entries.epoch;
  }

  get(key: string, now: number): HeldCaller | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.endsAt <= now) {
      this.entries.expire(key);
      return undefined;
    }
    return { caller: entry.caller, fresh: entry.until > now };
  }

  /** Keeps `caller` under `key`, unless something was forgotten since `epoch` (read before the caller was). */
  set(key: string, caller: CachedCaller, now: number, epoch: number, endsAt = Infinity): void {
    if (this.ttlMs <= 0) return;
    if (!this.entries.keepUnlessForgotten(key, { caller, until: now + this.ttlMs, endsAt }, epoch)) return;
    const userId = caller.user.id;
    let keys = this.byUser.get(userId);
    if (!keys) this.byUser.set(userId, (keys = new Set()));
    keys.add(key);
  }

  /** The entry under `key` stays as it is for another TTL (its workspace's changes were just followed). */
  renew(key: string, now: number): void {
    const entry = this.entries.peek(key);
    if (entry) entry.until = now + this.ttlMs;
  }

  /** A scope a followed change touched (see the class's note): the entries it names are forgotten. */
  forgetScope(scope: Scope): void {
    switch (scope.kind) {
      case 'session':
        return this.forgetSession(scope.sessionId);
      case 'client':
        return this.forgetClient(scope.clientId);
      case 'workspace':
        return this.forgetWorkspace(scope.workspaceId);
      // A row's id: a user's, or a service's or team's that names no entry.
      case 'row':
        return this.forgetUser(scope.id);
      default:
        return;
    }
  }

  forgetSession(sessionId: string): void {
    this.entries.forget(sessionId);
  }

  forgetUser(userId: string): void {
    this.entries.forgetKeys(this.byUser.get(userId) ?? []);
  }

  /** After a client's secret is replaced or the client deleted: its tokens stop working at once. */
  forgetClient(clientId: string): void {
    this.entries.forget(clientCacheKey(clientId));
  }

  forgetWorkspace(workspaceId: string): void {
    this.entries.forgetWhere((entry) => entry.caller.workspace.id === workspaceId);
  }

  private unindex(key: string, entry: Entry): void {
    const userId = entry.caller.user.id;
    const keys = this.byUser.get(userId);
    keys?.delete(key);
    if (keys?.size === 0) this.byUser.delete(userId);
  }
}

/** What a verified access token stands for: a user's session, or an API client with the scopes it was given. */
export type TokenSubject =
  | { kind: 'session'; sessionId: string }
  | { kind: 'client'; clientId: string; secretVersion: number; scopes: readonly string[] };

/** Verified access tokens and what each stands for, until they expire (signature and expiry never change). */
export class VerifiedTokens {
  private readonly entries: BoundedMap<string, { subject: TokenSubject; expiresAt: number }>;

  constructor(maxEntries = 10_000) {
    this.entries = new BoundedMap({ maxWeight: maxEntries });
  }

  get(token: string, now: number): TokenSubject | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.expire(token);
      return undefined;
    }
    return entry.subject;
  }

  set(token: string, subject: TokenSubject, expiresAt: number): void {
    this.entries.set(token, { subject, expiresAt });
  }
}

/** This process's callers, kept beside the context so the context need not know the cache room (one-way imports). */
export const callersOf = perContext((ctx) => new CallerCache(ctx.config.authCacheTtlMs));

/** This process's verified access tokens, kept beside the context as {@link callersOf} is. */
export const verifiedTokensOf = perContext(() => new VerifiedTokens());
