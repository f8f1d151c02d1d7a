/**
 * Status pages updated while open (docs/decisions.md#status-pages, issue 27): a visitor's page holds an event stream,
 * and is told when anything the page shows changed, so it fetches itself again. What changed is read from the status
 * versions (migration 025), which every process's writes bump: one indexed read per second per workspace that
 * has open pages in this process, whatever the number of visitors, and a change shows within about a second.
 * Each stream holds a connection: a process holds at most STREAMS_PER_ADDRESS per address and
 * BEACON_STATUS_STREAMS_MAX in all, and answers 429 past them (docs/operations.md).
 */
import type { ServerResponse } from 'node:http';
import type { ServerContext } from '../../context.js';
import { probeWorkspace } from '../../db/repositories/status-pages.js';
import { HttpError } from '../../errors.js';
import { perContext } from '../../per-context.js';

/** How often a watched workspace's versions are read. */
const WATCH_MS = 1000;
/** A comment now and then keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 25_000;
/** Open streams one address may hold (a few tabs of a few pages; an office behind one address). */
export const STREAMS_PER_ADDRESS = 20;
/** What a refused stream is asked to wait; the page polls meanwhile. */
const RETRY_AFTER_SECONDS = '30';

interface Watched {
  streams: Set<ServerResponse>;
  versions: string | null;
  timer: NodeJS.Timeout;
  reading: boolean;
}

export class StatusWatch {
  readonly #watched = new Map<string, Watched>();
  readonly #ctx: ServerContext;
  readonly #heartbeat: NodeJS.Timeout;
  readonly #perAddress = new Map<string, number>();
  #open = 0;

  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
    this.#heartbeat = setInterval(() => this.#writeAll(': heartbeat\n\n'), HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /** 429 when `address` holds its share of streams already, or the process holds as many as it may. */
  admit(address: string): void {
    const full =
      (this.#perAddress.get(address) ?? 0) >= STREAMS_PER_ADDRESS || this.#open >= this.#ctx.config.statusStreamsMax;
    if (full) {
      throw new HttpError(429, 'Too many open status streams; the page refreshes itself meanwhile', undefined, {
        'retry-after': RETRY_AFTER_SECONDS,
      });
    }
  }

  /** Holds `response` open as an event stream told of every change of the workspace's status pages. */
  open(workspaceId: string, response: ServerResponse, address: string): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-store, no-transform',
      connection: 'close',
      'x-accel-buffering': 'no',
    });
    response.write('retry: 5000\n\n');
    let watched = this.#watched.get(workspaceId);
    if (!watched) {
      const timer = setInterval(() => void this.#check(workspaceId), WATCH_MS);
      timer.unref();
      watched = { streams: new Set(), versions: null, timer, reading: false };
      this.#watched.set(workspaceId, watched);
      void this.#check(workspaceId);
    }
    watched.streams.add(response);
    this.#open++;
    this.#perAddress.set(address, (this.#perAddress.get(address) ?? 0) + 1);
    response.on('close', () => {
      this.#open--;
      const held = this.#perAddress.get(address)! - 1;
      if (held > 0) this.#perAddress.set(address, held);
      else this.#perAddress.delete(address);
      const current = this.#watched.get(workspaceId);
      if (!current) return;
      current.streams.delete(response);
      if (current.streams.size === 0) {
        clearInterval(current.timer);
        this.#watched.delete(workspaceId);
      }
    });
  }

  /** Ends every stream (shutdown: an open stream would hold the server's close). */
  closeAll(): void {
    clearInterval(this.#heartbeat);
    for (const watched of this.#watched.values()) {
      clearInterval(watched.timer);
      for (const stream of watched.streams) stream.end();
    }
    this.#watched.clear();
  }

  async #check(workspaceId: string): Promise<void> {
    const watched = this.#watched.get(workspaceId);
    if (!watched || watched.reading) return;
    watched.reading = true;
    try {
      // The versions a page is kept by (status-view.ts), read the same way; a workspace gone has none.
      const versions = (await probeWorkspace(this.#ctx.database.db, workspaceId))?.versions ?? '';
      const changed = watched.versions !== null && versions !== watched.versions;
      watched.versions = versions;
      if (changed) for (const stream of watched.streams) write(stream, 'data: changed\n\n');
    } catch (error) {
      // The database away: the next read tells of whatever changed meanwhile.
      this.#ctx.logger.debug({ err: error }, 'could not read status versions');
    } finally {
      watched.reading = false;
    }
  }

  #writeAll(text: string): void {
    for (const watched of this.#watched.values()) for (const stream of watched.streams) write(stream, text);
  }
}

function write(stream: ServerResponse, text: string): void {
  if (!stream.writableEnded && !stream.destroyed) stream.write(text);
}

export const statusWatchOf = perContext((ctx) => new StatusWatch(ctx));
