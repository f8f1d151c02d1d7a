/**
 * The service graph's answers, kept per process (DESIGN.md 8). A graph is costly to walk (tens of milliseconds for
 * a hub) and large (hundreds of kilobytes), yet it changes only when a service, a dependency or a link does: every
 * such write bumps the workspace's graph version in its own transaction (migration 012), and every request reads
 * the versions first (one indexed read), so an answer is kept exactly as long as no process changed its graph.
 *
 * An answer is keyed by the versions of the workspace and of the workspaces it links to, by the root and depth
 * asked for, and by the viewer's visibility class: the owner-only services' teams the viewer may see (all of
 * them for workspace admins, the teams they belong to for others). Two viewers of one class see the same graph;
 * a viewer is never given an answer computed for a class that sees more.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { perContext } from '../per-context.js';

export type Coding = 'br' | 'gzip';

/** Bytes of answers (and their compressed twins) one process keeps, at the most: the least recently used go. */
export const GRAPH_CACHE_BYTES = 64 * 1024 * 1024;
/** Below this an answer goes as it is: compressing a few hundred bytes saves nothing worth the header. */
const COMPRESS_FROM_BYTES = 1024;

const compressors: Record<Coding, (body: Buffer) => Promise<Buffer>> = {
  // Quality 5: most of brotli's gain over gzip at a fraction of the time 11 takes on a large graph. Both run
  // on libuv's threads, not on the event loop.
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => promisify(gzip)(body),
};

/** One answer: its JSON, and its compressed twins, each made once on first demand. */
export class GraphAnswer {
  private readonly coded = new Map<Coding, Promise<Buffer>>();

  constructor(
    readonly body: Buffer,
    private readonly grew: (bytes: number) => void = () => {},
  ) {}

  /** Whether compressing is worth it for this answer. */
  get compressible(): boolean {
    return this.body.length >= COMPRESS_FROM_BYTES;
  }

  encoded(coding: Coding): Promise<Buffer> {
    let coded = this.coded.get(coding);
    if (!coded) {
      coded = compressors[coding](this.body);
      this.coded.set(coding, coded);
      coded.then(
        (bytes) => this.grew(bytes.length),
        () => this.coded.delete(coding),
      );
    }
    return coded;
  }
}

interface Entry {
  workspaceId: string;
  answer: Promise<GraphAnswer>;
  bytes: number;
}

interface WorkspaceGraphs {
  versions: string;
  /** The teams owning an owner-only service at these versions, sorted. */
  restricted: Promise<string[]>;
  keys: Set<string>;
}

export class GraphCache {
  /** Every answer, least recently used first. */
  private readonly entries = new Map<string, Entry>();
  private readonly workspaces = new Map<string, WorkspaceGraphs>();
  private bytes = 0;

  constructor(private readonly budget: number = GRAPH_CACHE_BYTES) {}

  /** Bytes held now (answers resolved so far, with their compressed twins). */
  get size(): number {
    return this.bytes;
  }

  /**
   * The teams whose owner-only services the workspace has at `versions`, read once a version. Seeing new
   * versions forgets the workspace's answers of the old ones: no request will ask for them again (a request that
   * read the old versions just before the change misses, and walks).
   */
  restrictedTeams(workspaceId: string, versions: string, read: () => Promise<string[]>): Promise<string[]> {
    const held = this.workspaces.get(workspaceId);
    if (held?.versions === versions) return held.restricted;
    if (held) for (const key of held.keys) this.drop(key);
    const restricted = read().then((teams) => [...teams].sort());
    const graphs: WorkspaceGraphs = { versions, restricted, keys: new Set() };
    this.workspaces.set(workspaceId, graphs);
    restricted.catch(() => {
      if (this.workspaces.get(workspaceId) === graphs) this.workspaces.delete(workspaceId);
    });
    return restricted;
  }

  /**
   * The answer held for `key` at the workspace's `versions`, or the one `compute` makes (once, however many
   * requests ask meanwhile). A failure (the root is missing or hidden) is not kept.
   */
  answer(workspaceId: string, versions: string, key: string, compute: () => Promise<Buffer>): Promise<GraphAnswer> {
    const id = `${workspaceId}\u0000${versions}\u0000${key}`;
    const held = this.entries.get(id);
    if (held) {
      this.entries.delete(id);
      this.entries.set(id, held);
      return held.answer;
    }
    const entry: Entry = { workspaceId, answer: undefined as never, bytes: 0 };
    const grew = (bytes: number) => {
      if (this.entries.get(id) !== entry) return;
      entry.bytes += bytes;
      this.bytes += bytes;
      this.evict();
    };
    entry.answer = compute().then((body) => {
      const answer = new GraphAnswer(body, grew);
      grew(body.length);
      return answer;
    });
    this.entries.set(id, entry);
    const graphs = this.workspaces.get(workspaceId);
    if (graphs?.versions === versions) graphs.keys.add(id);
    entry.answer.catch(() => this.drop(id));
    return entry.answer;
  }

  private drop(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.bytes -= entry.bytes;
    this.workspaces.get(entry.workspaceId)?.keys.delete(id);
  }

  private evict(): void {
    for (const id of this.entries.keys()) {
      if (this.bytes <= this.budget) return;
      this.drop(id);
    }
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

/** The read of a key that runs, and the one the requests that came in meanwhile wait for. */
interface Slot<T> {
  running: Promise<T> | null;
  queued: Promise<T> | null;
}

/** What each graph request reads first: the graph versions and, for a user who is not an admin, their teams. */
export interface GraphState {
  versions: string;
  teams: string[];
}

export const graphCacheOf = perContext(() => ({ answers: new GraphCache(), states: new FreshReads<GraphState>() }));
