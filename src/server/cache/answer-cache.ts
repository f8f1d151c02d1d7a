/**
 * Answers kept per process for exactly as long as what they were read from is unchanged: the graph's (services/
 * graph-cache.ts) and the catalogue's reads (cache/catalogue-cache.ts). Each workspace has a version that
 * triggers bump in the very transaction of every write that could change an answer, whichever process writes
 * (migrations/version-triggers.ts); a request reads the version first and is answered from what was made at that
 * version, or makes it. A request that read the old version just before a change may still be answered from
 * the old answer: the same it would have read itself, since its read would have come before the change too.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { BoundedMap } from './bounded-map.js';

export type Coding = 'br' | 'gzip';

/** Below this an answer goes as it is: compressing a few hundred bytes saves nothing worth the header. */
const COMPRESS_FROM_BYTES = 1024;

/** Compressors at a level (brotli's quality, gzip's level). Both run on libuv's threads, not on the event loop. */
function compressorsAt(brotliQuality: number, gzipLevel: number): Record<Coding, (body: Buffer) => Promise<Buffer>> {
  return {
    br: (body) =>
      promisify(brotliCompress)(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: brotliQuality,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    gzip: (body) => promisify(gzip)(body, { level: gzipLevel }),
  };
}

/** Brotli 5: most of brotli's gain over gzip at a fraction of the time 11 takes on a large graph. */
const compressors = compressorsAt(5, constants.Z_DEFAULT_COMPRESSION);

/**
 * From this size an answer's first askers get a quickly made twin while the small one is made: brotli 5 takes
 * about 7 ms a MB (26 ms for a status page of 500 components, 3.7 MB, and four times that on a busy machine),
 * brotli 1 about 1 ms a MB, for about twice the bytes (131 KB against 61 KB on that page).
 */
const QUICK_FROM_BYTES = 1 << 20;
const quickCompressors = compressorsAt(1, 1);

/**
 * A large answer's small twin is made only when it is asked for this long after the answer was made. A page
 * changing several times a second (a status page while checks move) was compressing every short-lived version at
 * brotli 5 as well, beside the making of the next one: on two cores that doubled the first answer after a change
 * at times (issue 27). A version that lives on gets its small twin from its first request after this.
 */
const SETTLE_MS = 250;

/** One answer: its JSON, the headers that go with it, and its compressed twins, each made once on first demand. */
export class Answer {
  private readonly coded = new Map<Coding, Promise<Buffer>>();
  /** The twins made and kept, each given from then on. */
  private readonly made = new Set<Coding>();
  /** A large answer's quick twins, given until the kept one is made. */
  private readonly quick = new Map<Coding, Promise<Buffer>>();
  private readonly madeAt = Date.now();

  constructor(
    readonly body: Buffer,
    private readonly grew: (bytes: number) => void = () => {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}

  /** Whether compressing is worth it for this answer. */
  get compressible(): boolean {
    return this.body.length >= COMPRESS_FROM_BYTES;
  }

  encoded(coding: Coding): Promise<Buffer> {
    const large = this.body.length >= QUICK_FROM_BYTES;
    let coded = this.coded.get(coding);
    if (!coded && (!large || Date.now() - this.madeAt >= SETTLE_MS)) {
      coded = compressors[coding](this.body);
      this.coded.set(coding, coded);
      coded.then(
        (bytes) => {
          this.made.add(coding);
          this.quick.delete(coding);
          this.grew(bytes.length);
        },
        () => this.coded.delete(coding),
      );
    }
    if (coded && (this.made.has(coding) || !large)) return coded;
    let quick = this.quick.get(coding);
    if (!quick) {
      quick = quickCompressors[coding](this.body);
      this.quick.set(coding, quick);
      quick.catch(() => this.quick.delete(coding));
    }
    return quick;
  }
}

/** What `compute` makes for an answer: its JSON bytes and the headers that go with them. */
export interface Made {
  body: Buffer;
  headers?: Record<string, string>;
  /** What the read answered, before it was serialised (the items, for a page). */
  value?: unknown;
  /**
   * How the read serializes one of its items (of a page, or the single thing it answers), for an answer shared
   * between callers (shared-answers.ts).
   */
  serializeItem?: (item: Record<string, unknown>) => Buffer;
  /** What stays the same from one making to the next for this serializer (the operation): what learned facts of its
   * output are kept under. */
  itemShape?: object;
}

interface Entry {
  workspaceId: string;
  answer: Promise<Answer>;
}

interface Held {
  versions: string;
  keys: Set<string>;
}

export class AnswerCache {
  /** Every answer, weighing its bytes (with its compressed twins, as they are made). */
  private readonly entries: BoundedMap<string, Entry>;
  private readonly workspaces = new Map<string, Held>();
  /** Answers given from what was kept, and answers made: the hit rate the benchmarks report. */
  hits = 0;
  made = 0;

  constructor(budget: number) {
    this.entries = new BoundedMap({
      maxWeight: budget,
      onDrop: (id, entry) => this.workspaces.get(entry.workspaceId)?.keys.delete(id),
    });
  }

  /** Bytes held now (answers resolved so far, with their compressed twins). */
  get size(): number {
    return this.entries.weight;
  }

  /**
   * Notes the versions a request read. Seeing new versions forgets the workspace's answers of the old ones (no
   * request will ask for them again); answers `true` then, and `false` when they are the ones held.
   */
  see(workspaceId: string, versions: string): boolean {
    const held = this.workspaces.get(workspaceId);
    if (held?.versions === versions) return false;
    if (held) for (const key of [...held.keys]) this.entries.forget(key);
    this.workspaces.set(workspaceId, { versions, keys: new Set() });
    return true;
  }

  /**
   * The answer held for `key` at the workspace's `versions`, or the one `compute` makes (once, however many
   * requests ask meanwhile). A failure (say, the thing asked for is missing or hidden) is not kept.
   */
  answer(workspaceId: string, versions: string, key: string, compute: () => Promise<Made | Buffer>): Promise<Answer> {
    const id = `${workspaceId}\u0000${versions}\u0000${key}`;
    const held = this.entries.get(id);
    if (held) {
      this.hits++;
      return held.answer;
    }
    this.made++;
    const entry: Entry = { workspaceId, answer: undefined as never };
    const grew = (bytes: number) => {
      if (this.entries.peek(id) === entry) this.entries.addWeight(id, bytes);
    };
    entry.answer = compute().then((made) => {
      const { body, headers } = Buffer.isBuffer(made) ? { body: made, headers: {} } : made;
      const answer = new Answer(body, grew, headers);
      grew(body.length);
      return answer;
    });
    this.entries.set(id, entry, 0);
    const workspace = this.workspaces.get(workspaceId);
    if (workspace?.versions === versions) workspace.keys.add(id);
    entry.answer.catch(() => {
      if (this.entries.peek(id) === entry) this.entries.forget(id);
    });
    return entry.answer;
  }
}

/**
 * Reads shared by the requests that wait for them, never older than the request: a request arriving while a read
 * of its key runs waits for the next one, which starts once that one is done, so it sees every change committed
 * before it arrived (another process's write included), as a read of its own would; under load one read serves
 * all the requests that came in meanwhile, instead of one each.
 */
export class FreshReads<T> {
  private readonly slots = new Map<string, Slot<T>>();

  read(key: string, read: () => Promise<T>): Promise<T> {
    let slot = this.slots.get(key);
    if (!slot) this.slots.set(key, (slot = { running: null, queued: null }));
    const { running } = slot;
    if (!running) return this.start(key, slot, read);
    const held = slot;
    const next = () => {
      held.queued = null;
      return this.start(key, held, read);
    };
    held.queued ??= running.then(next, next);
    return held.queued;
  }

  private start(key: string, slot: Slot<T>, read: () => Promise<T>): Promise<T> {
    const running: Promise<T> = read().finally(() => {
      if (slot.running === running) slot.running = null;
      if (!slot.running && !slot.queued && this.slots.get(key) === slot) this.slots.delete(key);
    });
    slot.running = running;
    return running;
  }
}

/**
 * Synchronous reads (SQLite's side reader) shared by the requests of one turn of the event loop: the first request
 * to ask schedules the read for the turn's end (setImmediate runs after every request the turn's poll brought in),
 * and every request that asked before then gets it. So each is still answered from a read made after it arrived,
 * as FreshReads gives, and a page asked by hundreds at once costs one read a turn rather than one each (issue 27:
 * a status page's read of its versions was a fifth of each request's time under load).
 */
export class TurnReads<T> {
  private readonly next = new Map<string, Promise<T>>();

  read(key: string, read: () => T | Promise<T>): Promise<T> {
    let held = this.next.get(key);
    if (!held) {
      held = new Promise<T>((resolve, reject) =>
        setImmediate(() => {
          // Asked from now on: a later read's.
          this.next.delete(key);
          try {
            resolve(read());
          } catch (error) {
            reject(error as Error);
          }
        }),
      );
      this.next.set(key, held);
    }
    return held;
  }
}

/** The read of a key that runs, and the one the requests that came in meanwhile wait for. */
interface Slot<T> {
  running: Promise<T> | null;
  queued: Promise<T> | null;
}
