/**
 * When health checks run (docs/decisions.md#health-maths): every `frequency` seconds, never overlapping themselves.
 * Pure: no timers and no clock inside; the caller (the server's shared runner, the standalone team runner) passes
 * `now` in epoch ms and ticks it.
 *
 * Each check runs on its own grid of slots, `phase + k * frequency`, where the phase is a hash of its id. So
 * first runs spread over the first interval, a late start does not shift later slots, and checks delayed
 * together (a stalled process) spread out again at their next slot instead of firing together for good.
 */
import { HEALTH_CHECK_BOUNDS, HEALTH_CHECK_DEFAULTS } from '../domain/health.js';

/** What the scheduler needs of a check; anything else is carried along for the caller. */
export interface ScheduledCheck {
  id: string;
  frequencySeconds: number;
}

/** The interval in ms: at least the domain's minimum frequency, the default when not a number. */
export function frequencyMs(frequencySeconds: number): number {
  const seconds = Number.isFinite(frequencySeconds) ? frequencySeconds : HEALTH_CHECK_DEFAULTS.frequency;
  return Math.round(Math.max(HEALTH_CHECK_BOUNDS.frequency.min, seconds) * 1000);
}

/** The check's offset within its interval, in ms: a hash of its id, so the same check keeps the same slots. */
export function phaseOf(id: string, frequencySeconds: number): number {
  return hashId(id) % frequencyMs(frequencySeconds);
}

/** The first slot at or after `now` of a check that has not run yet: somewhere in the first interval. */
export function firstDue(id: string, frequencySeconds: number, now: number): number {
  const interval = frequencyMs(frequencySeconds);
  return now + mod(phaseOf(id, frequencySeconds) - now, interval);
}

/**
 * The next slot after a run that started at `lastStart`: the first slot of the grid `phaseMs + k * frequency`
 * strictly after it. Without a phase the grid goes through `lastStart`, so that is `lastStart + frequency`;
 * with the check's phase, a run that started late still leaves the next one on its slot.
 */
export function nextDue(lastStart: number, frequencySeconds: number, phaseMs?: number): number {
  const interval = frequencyMs(frequencySeconds);
  const wait = mod((phaseMs ?? lastStart) - lastStart, interval);
  return lastStart + (wait === 0 ? interval : wait);
}

/** The state of one check in a scheduler. */
export interface ScheduleEntry<C extends ScheduledCheck> {
  /** The latest definition given to update(); a run should use this one. */
  check: C;
  /** When its next run is due, epoch ms. */
  dueAt: number;
  running: boolean;
  lastStart: number | null;
  lastFinish: number | null;
}

interface Entry<C extends ScheduledCheck> extends ScheduleEntry<C> {
  phase: number;
  /** Removed by update() while running: kept until finished() so a re-added check cannot overlap that run. */
  removed: boolean;
  /** Its live node in the waiting queue, or null while it runs (or is gone). */
  node: QueueNode<C> | null;
}

/** A place in the waiting queue; stale once its entry points at another node (or none). */
interface QueueNode<C extends ScheduledCheck> {
  entry: Entry<C>;
  dueAt: number;
}

/**
 * The checks of one runner and their slots. The checks waiting for their slot sit in a binary min-heap by due
 * time, so a tick costs the checks it starts (log n each), not a scan of every check: a runner holds 100,000.
 * Nodes are dropped lazily: a re-planned or started check leaves its old node behind, skipped when it surfaces.
 */
export class CheckScheduler<C extends ScheduledCheck = ScheduledCheck> {
  readonly #entries = new Map<string, Entry<C>>();
  readonly #queue: QueueNode<C>[] = [];

  constructor(checks: Iterable<C> = [], now = 0) {
    this.update(checks, now);
  }

  /** How many checks are scheduled (not counting removed ones still running). */
  get size(): number {
    let size = 0;
    for (const entry of this.#entries.values()) if (!entry.removed) size++;
    return size;
  }

  /**
   * Replaces the set of checks: new ones get their first slot in the first interval after `now`, missing ones
   * are dropped (a running one once it finishes), changed ones take their new definition for their next run.
   * A changed frequency re-plans the next slot on the new grid from the last start (or, before any run, from
   * `now`); a run in progress is never interrupted.
   */
  update(checks: Iterable<C>, now: number): void {
    const seen = new Set<string>();
    for (const check of checks) {
      seen.add(check.id);
      const entry = this.#entries.get(check.id);
      if (!entry) {
        const added: Entry<C> = {
          check,
          phase: phaseOf(check.id, check.frequencySeconds),
          dueAt: firstDue(check.id, check.frequencySeconds, now),
          running: false,
          lastStart: null,
          lastFinish: null,
          removed: false,
          node: null,
        };
        this.#entries.set(check.id, added);
        this.#enqueue(added);
        continue;
      }
      const previous = entry.check;
      entry.check = check;
      entry.removed = false;
      if (frequencyMs(previous.frequencySeconds) !== frequencyMs(check.frequencySeconds)) {
        entry.phase = phaseOf(check.id, check.frequencySeconds);
        entry.dueAt =
          entry.lastStart === null
            ? firstDue(check.id, check.frequencySeconds, now)
            : nextDue(entry.lastStart, check.frequencySeconds, entry.phase);
        if (!entry.running) this.#enqueue(entry);
      }
    }
    for (const [id, entry] of this.#entries) {
      if (seen.has(id)) continue;
      if (entry.running) {
        entry.removed = true;
      } else {
        entry.node = null;
        this.#entries.delete(id);
      }
    }
    if (this.#queue.length > 2 * this.#entries.size + 1024) this.#compact();
  }

  /**
   * Ids of the checks whose slot has come and which are not running, most overdue first; at most `limit` of
   * them (the caller's free capacity), so a tick costs what it can start.
   */
  due(now: number, limit = Number.POSITIVE_INFINITY): string[] {
    const taken: QueueNode<C>[] = [];
    while (taken.length < limit) {
      const top = this.#top();
      if (!top || top.dueAt > now) break;
      taken.push(this.#pop()!);
    }
    // Looking is not starting: they go back until started() takes them.
    for (const node of taken) this.#push(node);
    return taken.map((node) => node.entry.check.id);
  }

  /**
   * Records that a check's run started; its next slot is the first one after `now`, so slots missed while it
   * could not run are run once, not caught up one by one. False (and nothing changes) when the check is
   * unknown, removed or already running: the caller must not run it.
   */
  started(id: string, now: number): boolean {
    const entry = this.#entries.get(id);
    if (!entry || entry.running || entry.removed) return false;
    entry.running = true;
    entry.node = null;
    entry.lastStart = now;
    entry.dueAt = nextDue(now, entry.check.frequencySeconds, entry.phase);
    return true;
  }

  /** Records that a check's run ended; if its next slot has passed meanwhile it is due at once. */
  finished(id: string, now: number): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    entry.running = false;
    entry.lastFinish = now;
    if (entry.removed) this.#entries.delete(id);
    else this.#enqueue(entry);
  }

  /** A check's current state, or undefined when it is not scheduled. */
  get(id: string): Readonly<ScheduleEntry<C>> | undefined {
    const entry = this.#entries.get(id);
    if (!entry || entry.removed) return undefined;
    const { check, dueAt, running, lastStart, lastFinish } = entry;
    return { check, dueAt, running, lastStart, lastFinish };
  }

  /** The earliest time a check that is not running becomes due (the caller can sleep until then), or null. */
  nextWake(): number | null {
    return this.#top()?.dueAt ?? null;
  }

  #enqueue(entry: Entry<C>): void {
    const node = { entry, dueAt: entry.dueAt };
    entry.node = node;
    this.#push(node);
  }

  /** The earliest live node, after dropping stale ones from the top. */
  #top(): QueueNode<C> | undefined {
    const queue = this.#queue;
    while (queue.length > 0 && queue[0]!.entry.node !== queue[0]) this.#pop();
    return queue[0];
  }

  /** Rebuilds the queue from the live nodes when stale ones outnumber them. */
  #compact(): void {
    const live = this.#queue.filter((node) => node.entry.node === node);
    this.#queue.length = 0;
    for (const node of live) this.#push(node);
  }

  #push(node: QueueNode<C>): void {
    const queue = this.#queue;
    let index = queue.push(node) - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (queue[parent]!.dueAt <= node.dueAt) break;
      queue[index] = queue[parent]!;
      index = parent;
    }
    queue[index] = node;
  }

  #pop(): QueueNode<C> | undefined {
    const queue = this.#queue;
    const first = queue[0];
    const last = queue.pop();
    if (queue.length === 0 || !last) return first;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= queue.length) break;
      const right = left + 1;
      const child = right < queue.length && queue[right]!.dueAt < queue[left]!.dueAt ? right : left;
      if (queue[child]!.dueAt >= last.dueAt) break;
      queue[index] = queue[child]!;
      index = child;
    }
    queue[index] = last;
    return first;
  }
}

function mod(value: number, modulus: number): number {
  return ((value % modulus) + modulus) % modulus;
}

/** FNV-1a over the id's UTF-16 code units, then the murmur3 finaliser so similar ids land far apart. */
function hashId(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
