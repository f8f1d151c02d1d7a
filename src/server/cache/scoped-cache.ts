/**
 * Values kept per process for exactly as long as nothing they were read from changed, at the grain of what they
 * show (issue 31). Each value names its scopes: the ids of the rows it shows and the lists it is a page of. Every
 * write, whichever process makes it, bumps its workspace's version and logs the scopes it touched in the same
 * transaction (migration 032); a request reads the version first and {@link ScopedCache.sync}s to it, which reads
 * the log from the version this process last saw and drops just the values holding one of those scopes. A value
 * being made while a change is synced is given to the requests already waiting for it; it is kept, and given to
 * later requests, only if the change touched none of its scopes (its reads fell before or after the change alike).
 */
import { BoundedMap } from './bounded-map.js';
import { scopeOf, textListOf, type ListName } from './scopes.js';

/**
 * Scopes of search texts: a value that holds `text:{list}:{term}` (a search of `list` for `term`, ASCII and
 * lowercased) depends on which rows' searched text contains the term; a change `text:{list}:{text}` (a row's
 * searched text before or after an edit) touches exactly the values whose term one of the two texts contains and
 * the other does not (see matchMoved). A text that is not ASCII touches every term of its list: the engines fold
 * its case in ways JS may not.
 */

/** Any character beyond ASCII (a string with none folds its case in JS as the engines do). */
const BEYOND_ASCII = /[\u0080-\uffff]/;

/** The scope of a search of `list` for `term` (lowercased), or null when the term is not ASCII. */
export function textScope(list: ListName, term: string): string | null {
  return BEYOND_ASCII.test(term) ? null : scopeOf({ kind: 'text', list, text: term });
}

/**
 * Whether a searched text contains an ASCII `term` (lowercased) as the engines' searches find it; null when the
 * text is not ASCII, whose case the engines may fold otherwise.
 */
export function textContains(text: string, term: string): boolean | null {
  return BEYOND_ASCII.test(text) ? null : text.toLowerCase().includes(term);
}

/**
 * Whether an edit can move a search for `term`: the row's text before and after it disagree on containing the
 * term (a row that matched before and after stays in the same place, for only a searched column changed; a page
 * showing it holds its id too). More than two texts in one version, or one not ASCII: assume it did.
 */
function matchMoved(texts: readonly string[], term: string): boolean {
  const contains = texts.map((text) => textContains(text, term));
  if (texts.length > 2 || contains.includes(null)) return true;
  return contains.some((c) => c !== contains[0]);
}

/** A scope a version changed. */
export interface Change {
  version: number;
  scope: string;
}

/** The changes after one version, up to another (read from the log; synchronous where the engine allows). */
export type ReadChanges = (after: number, upTo: number) => Change[] | Promise<Change[]>;

/** What making a value gives: the value, the scopes it depends on, and about how many bytes it holds. */
export interface Scoped<T> {
  value: T;
  scopes: Iterable<string>;
  bytes: number;
}

interface Entry {
  workspaceId: string;
  value: Promise<unknown>;
  /** Null while being made. */
  scopes: string[] | null;
  /** The changes synced while it was being made ('all' when they could not be followed one by one). */
  missed: Touched[] | 'all';
  /** Whether it was kept once made (false: a change synced meanwhile touched it, or it failed or was dropped). */
  kept: Promise<boolean>;
}

/** What one sync's changes touched: scopes, and rows' searched texts before and after an edit (by list). */
interface Touched {
  scopes: Set<string>;
  edits: { list: string; texts: string[] }[];
}

/** Whether a value holding `scope` is moved by the changes `touched` sums up. */
function touches(touched: Touched, scope: string): boolean {
  if (touched.scopes.has(scope)) return true;
  const list = textListOf(scope);
  if (!list) return false;
  const term = scope.slice(list.length);
  return touched.edits.some((edit) => edit.list === list && matchMoved(edit.texts, term));
}

interface Workspace {
  /** The version every change up to which has been applied. */
  seen: number;
  /** Each scope's entries. */
  held: Map<string, Set<string>>;
  /** The text scopes held, by their `text:{list}:` prefix. */
  terms: Map<string, Set<string>>;
  /** Entries being made. */
  pending: Set<string>;
  syncing: Promise<void> | null;
}

export interface ScopedCacheHooks {
  /** Each scope a synced change touched (say, to forget a user's cached memberships). */
  changed?: (scope: string) => void;
  /** A workspace first seen, or whose changes could not be followed one by one (everything of it was dropped). */
  reset?: (workspaceId: string) => void;
}

export class ScopedCache {
  /** Every entry; one being made weighs nothing until it is. */
  private readonly entries: BoundedMap<string, Entry>;
  private readonly workspaces = new Map<string, Workspace>();

  constructor(
    budget: number,
    private readonly hooks: ScopedCacheHooks = {},
  ) {
    this.entries = new BoundedMap({ maxWeight: budget, onDrop: (id, entry) => this.dropped(id, entry) });
  }

  /** Bytes held now. */
  get size(): number {
    return this.entries.weight;
  }

  /** How many values are held (being made or made). */
  get count(): number {
    return this.entries.size;
  }

  /**
   * Applies every change of the workspace up to `version` (read first by the request). Returns nothing when that
   * took no waiting: the first sight of a workspace, a version already seen, or a synchronous read.
   */
  sync(workspaceId: string, version: number, read: ReadChanges): void | Promise<void> {
    const workspace = this.workspaces.get(workspaceId);
    if (!workspace) {
      this.workspaces.set(workspaceId, {
        seen: version,
        held: new Map(),
        terms: new Map(),
        pending: new Set(),
        syncing: null,
      });
      // What the hooks keep was not followed until now.
      this.hooks.reset?.(workspaceId);
      return;
    }
    if (version <= workspace.seen) return;
    if (workspace.syncing) return workspace.syncing.then(() => this.sync(workspaceId, version, read));
    const after = workspace.seen;
    const changes = read(after, version);
    if (!(changes instanceof Promise)) return this.apply(workspaceId, workspace, after, version, changes);
    const syncing = changes
      .then((found) => this.apply(workspaceId, workspace, after, version, found))
      .finally(() => {
        if (workspace.syncing === syncing) workspace.syncing = null;
      });
    workspace.syncing = syncing;
    return syncing;
  }

  /**
   * The value held for `key`, or the one `make` makes (once, however many requests ask meanwhile). A failure is
   * not kept. Call {@link sync} first: a key is looked up as of the version the request read.
   */
  get<T>(workspaceId: string, key: string, make: () => Promise<Scoped<T>>): { value: Promise<T>; made: boolean } {
    const id = `${workspaceId}\u0000${key}`;
    const held = this.entries.get(id);
    if (held) {
      // Begun before a change this request has seen: its value is this request's only if the change left it as
      // it was; else the request makes it afresh (or joins whoever does).
      const since = held.missed;
      if (since === 'all' || since.length > 0) {
        const value = held.kept.then((kept) => (kept ? held.value : this.get(workspaceId, key, make).value));
        return { value: value as Promise<T>, made: false };
      }
      return { value: held.value as Promise<T>, made: false };
    }
    const workspace = this.workspaces.get(workspaceId);
    if (!workspace) throw new Error('ScopedCache.get before sync');
    let settle!: (kept: boolean) => void;
    const kept = new Promise<boolean>((resolve) => (settle = resolve));
    const making = make();
    const value = making.then((made) => made.value);
    const entry: Entry = { workspaceId, value, scopes: null, missed: [], kept };
    this.entries.set(id, entry, 0);
    workspace.pending.add(id);
    making.then(
      (made) => {
        workspace.pending.delete(id);
        // Dropped while made (room was needed): it served its waiters.
        if (this.entries.peek(id) !== entry) return settle(false);
        entry.scopes = [...new Set(made.scopes)];
        // Made from reads that may have come before or after the changes synced meanwhile: kept only if none of
        // them touched what it holds (it is then the same either way).
        const { missed } = entry;
        entry.missed = [];
        if (missed === 'all' || missed.some((touched) => entry.scopes!.some((scope) => touches(touched, scope)))) {
          this.entries.forget(id);
          return settle(false);
        }
        for (const scope of entry.scopes) this.hold(workspace, scope, id);
        settle(true);
        this.entries.addWeight(id, made.bytes);
      },
      () => {
        workspace.pending.delete(id);
        if (this.entries.peek(id) === entry) this.entries.forget(id);
        settle(false);
      },
    );
    return { value: value as Promise<T>, made: true };
  }

  private apply(workspaceId: string, workspace: Workspace, after: number, upTo: number, changes: Change[]): void {
    if (upTo <= workspace.seen) return;
    workspace.seen = upTo;
    const versions = new Set<number>();
    for (const change of changes) versions.add(change.version);
    // Every version logs at least one scope: one missing was pruned (this process fell far behind).
    if (versions.size < upTo - after) {
      for (const id of workspace.pending) {
        const entry = this.entries.peek(id);
        if (entry) entry.missed = 'all';
      }
      for (const keys of workspace.held.values()) for (const id of [...keys]) this.entries.forget(id);
      workspace.held.clear();
      workspace.terms.clear();
      this.hooks.reset?.(workspaceId);
      return;
    }
    const touched: Touched = { scopes: new Set(), edits: [] };
    // The texts a version logged, by list: a row's searched text before and after one edit.
    const edits = new Map<string, { list: string; texts: string[] }>();
    for (const { version, scope } of changes) {
      const list = textListOf(scope);
      if (list) {
        const key = `${version}\u0000${list}`;
        const edit = edits.get(key) ?? { list, texts: [] };
        edit.texts.push(scope.slice(list.length));
        edits.set(key, edit);
      } else {
        touched.scopes.add(scope);
        this.dropHolding(workspace, scope);
      }
      this.hooks.changed?.(scope);
    }
    touched.edits = [...edits.values()];
    for (const { list, texts } of touched.edits) {
      for (const term of [...(workspace.terms.get(list) ?? [])]) {
        if (matchMoved(texts, term.slice(list.length))) this.dropHolding(workspace, term);
      }
    }
    for (const id of workspace.pending) {
      const entry = this.entries.peek(id);
      if (entry && entry.missed !== 'all') entry.missed.push(touched);
    }
  }

  private dropHolding(workspace: Workspace, scope: string): void {
    const keys = workspace.held.get(scope);
    if (keys) for (const id of [...keys]) this.entries.forget(id);
  }

  private hold(workspace: Workspace, scope: string, id: string): void {
    let keys = workspace.held.get(scope);
    if (!keys) {
      workspace.held.set(scope, (keys = new Set()));
      const list = textListOf(scope);
      if (list) {
        let terms = workspace.terms.get(list);
        if (!terms) workspace.terms.set(list, (terms = new Set()));
        terms.add(scope);
      }
    }
    keys.add(id);
  }

  private release(workspace: Workspace, scope: string, id: string): void {
    const keys = workspace.held.get(scope);
    keys?.delete(id);
    if (keys?.size !== 0) return;
    workspace.held.delete(scope);
    const list = textListOf(scope);
    if (!list) return;
    const terms = workspace.terms.get(list);
    terms?.delete(scope);
    if (terms?.size === 0) workspace.terms.delete(list);
  }

  /** An entry left the store (evicted or forgotten): its scopes no longer hold it. */
  private dropped(id: string, entry: Entry): void {
    const workspace = this.workspaces.get(entry.workspaceId);
    if (!workspace) return;
    workspace.pending.delete(id);
    for (const scope of entry.scopes ?? []) this.release(workspace, scope, id);
  }
}
