/**
 * The one bounded store of the kept-answers room (README.md beside this file): a Map whose entries each weigh
 * something (1 for a count-bounded store, bytes for answers), given up when room is needed: the oldest first, but
 * an entry used since it was last looked at gets a second chance (the CLOCK approximation of least recently used). A
 * true LRU moves an entry on every read: on a Map of tens of thousands that delete-and-insert was an eighth of a kept
 * page's time, where a flag costs nothing. Every keeper of answers, callers, viewers and pages holds its entries in one of these, so there is one
 * eviction to read.
 *
 * It also counts forgets: a keeper that reads something slowly notes {@link epoch} before its read and keeps the
 * result with {@link keepUnlessForgotten}, which refuses it when anything was forgotten meanwhile (the forget may
 * have been of what the read saw, and would not come again). Evictions are not forgets: an entry evicted was
 * still right.
 */
export interface BoundedMapOptions<K, V> {
  /** The most the entries may weigh together; the oldest unused go past it. */
  maxWeight: number;
  /** Told of every entry that leaves (evicted, forgotten or replaced), to keep a keeper's own indexes. */
  onDrop?: (key: K, value: V) => void;
}

interface Held<V> {
  value: V;
  weight: number;
  /** Read since eviction last passed it: it is moved to the end once instead of given up. */
  used: boolean;
}

export class BoundedMap<K, V> {
  /** Oldest first: a Map iterates in insertion order; eviction moves a used entry to the end. */
  private readonly entries = new Map<K, Held<V>>();
  private total = 0;
  private forgets = 0;
  private readonly maxWeight: number;
  private readonly onDrop: ((key: K, value: V) => void) | undefined;

  constructor(options: BoundedMapOptions<K, V>) {
    this.maxWeight = options.maxWeight;
    this.onDrop = options.onDrop;
  }

  /** How many entries are held. */
  get size(): number {
    return this.entries.size;
  }

  /** What the entries weigh together. */
  get weight(): number {
    return this.total;
  }

  /** Moves on with every forget (see the class's note). */
  get epoch(): number {
    return this.forgets;
  }

  /** The entry under `key`, marked used (eviction passes it over once). */
  get(key: K): V | undefined {
    const held = this.entries.get(key);
    if (!held) return undefined;
    held.used = true;
    return held.value;
  }

  /** The entry under `key`, leaving the order as it is. */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Keeps `value` under `key` as the newest entry, then gives the oldest unused past the bound. */
  set(key: K, value: V, weight = 1): void {
    this.remove(key);
    this.entries.set(key, { value, weight, used: false });
    this.total += weight;
    this.evict();
  }

  /** {@link set}, unless something was forgotten since `epoch`; answers whether it was kept. */
  keepUnlessForgotten(key: K, value: V, epoch: number, weight = 1): boolean {
    if (epoch !== this.forgets) return false;
    this.set(key, value, weight);
    return true;
  }

  /** The entry under `key` weighs `more` besides (an answer's compressed twin was made). */
  addWeight(key: K, more: number): void {
    const held = this.entries.get(key);
    if (!held) return;
    held.weight += more;
    this.total += more;
    this.evict();
  }

  /** Forgets the entry under `key` (a change touched it). */
  forget(key: K): void {
    this.forgets++;
    this.remove(key);
  }

  /** Forgets the entries under `keys` (counted as one forget, even when none is held). */
  forgetKeys(keys: Iterable<K>): void {
    this.forgets++;
    for (const key of [...keys]) this.remove(key);
  }

  /** Removes the entry under `key` because it ran out (a session ended): not a forget, nothing changed. */
  expire(key: K): void {
    this.remove(key);
  }

  /** Forgets every entry `matches` names. */
  forgetWhere(matches: (value: V, key: K) => boolean): void {
    this.forgets++;
    for (const [key, held] of [...this.entries]) if (matches(held.value, key)) this.remove(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.forgetWhere(() => true);
  }

  /** The entries, oldest first (a used entry moved to the end counts as young). */
  *[Symbol.iterator](): IterableIterator<[K, V]> {
    for (const [key, held] of this.entries) yield [key, held.value];
  }

  private remove(key: K): void {
    const held = this.entries.get(key);
    if (!held) return;
    this.entries.delete(key);
    this.total -= held.weight;
    this.onDrop?.(key, held.value);
  }

  private evict(): void {
    if (this.total <= this.maxWeight) return;
    // A used entry moved to the end comes round again unused, so this ends.
    for (const [key, held] of this.entries) {
      if (this.total <= this.maxWeight) return;
      if (held.used) {
        held.used = false;
        this.entries.delete(key);
        this.entries.set(key, held);
      } else {
        this.remove(key);
      }
    }
  }
}
