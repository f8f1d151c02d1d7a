import type { SseEvent } from './sse.js';

/**
 * One tab holds the event stream and relays it to the others (docs/decisions.md#feeds): browsers allow six HTTP/1.1
 * connections per host, so a stream per tab would soon starve the app's own requests. The tab holding a Web Lock
 * is the leader: it opens the stream, and posts every event and every change of the stream's status on a
 * BroadcastChannel; the others listen there. When the leader goes (closed, logged out), the browser grants the
 * lock to the next tab waiting for it, which opens the stream in its turn.
 */

/** What the tabs say to each other. */
export type RelayMessage =
  | { type: 'event'; event: SseEvent }
  | { type: 'status'; up: boolean }
  /** A tab that just started asks the leader how the stream is. */
  | { type: 'hello' };

/** The parts of BroadcastChannel used here (a fake stands in for it in unit tests). */
export interface RelayChannel {
  postMessage(message: RelayMessage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<RelayMessage>) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent<RelayMessage>) => void): void;
  close(): void;
}

/** The part of the Web Locks API used here. */
export interface RelayLocks {
  request(name: string, options: { signal: AbortSignal }, callback: () => Promise<void>): Promise<unknown>;
}

/** A stream this tab opened, as `connect` returns it. */
export interface Connection {
  wake(): void;
  close(): void;
}

export interface LiveRelayOptions {
  /** The lock's and the channel's name: one per workspace and user. */
  name: string;
  /**
   * Opens the stream in this tab (the leader's), reporting its events and status; `lastEventId` is the last one
   * this tab heard (relayed by the previous leader), so nothing is missed across the hand-over.
   */
  connect(handlers: { onEvent(event: SseEvent): void; onStatus(up: boolean): void }, lastEventId: string): Connection;
  /** Every event, whichever tab holds the stream. */
  onEvent(event: SseEvent): void;
  /** Whether the stream is up (in whichever tab holds it). */
  onStatus(up: boolean): void;
  /** Navigator's locks, undefined where the browser has none; every tab then holds a stream of its own. */
  locks?: RelayLocks | undefined;
  /** Opens the channel; undefined where there is no BroadcastChannel (each tab streams for itself). */
  channel?: ((name: string) => RelayChannel) | undefined;
}

export interface LiveRelay {
  /** Whether this tab holds the stream. */
  readonly leading: boolean;
  /** Reconnects now if this tab's stream is waiting to (the browser came back online). */
  wake(): void;
  /** Closes the stream (if this tab holds it) and leaves the relay; the lock passes to the next tab. */
  stop(): void;
}

export function startLiveRelay(options: LiveRelayOptions): LiveRelay {
  const { name, locks } = options;
  const channel = locks ? options.channel?.(name) : undefined;
  const stopping = new AbortController();
  let connection: Connection | null = null;
  let up = false;
  let lastEventId = '';
  const heard = (event: SseEvent) => {
    if (event.id) lastEventId = event.id;
    options.onEvent(event);
  };

  const post = (message: RelayMessage) => {
    try {
      channel?.postMessage(message);
    } catch {
      // A closed channel: this tab is going.
    }
  };

  const lead = (): Connection =>
    options.connect(
      {
        onEvent: (event) => {
          heard(event);
          post({ type: 'event', event });
        },
        onStatus: (status) => {
          up = status;
          options.onStatus(status);
          post({ type: 'status', up: status });
        },
      },
      lastEventId,
    );

  const listener = (message: MessageEvent<RelayMessage>) => {
    const data = message.data;
    if (connection) {
      // The leader answers a newcomer; it hears no events but its own.
      if (data.type === 'hello') post({ type: 'status', up });
      return;
    }
    if (data.type === 'event') heard(data.event);
    else if (data.type === 'status') options.onStatus(data.up);
  };

  if (!locks || !channel) {
    // Without both, relaying is impossible: this tab streams for itself.
    connection = lead();
  } else {
    channel.addEventListener('message', listener);
    post({ type: 'hello' });
    locks
      .request(name, { signal: stopping.signal }, async () => {
        if (stopping.signal.aborted) return;
        connection = lead();
        // Held until this tab stops; then the next tab in line takes the stream.
        await new Promise<void>((resolve) => stopping.signal.addEventListener('abort', () => resolve()));
      })
      // Aborted while still waiting for the lock.
      .catch(() => undefined);
  }

  return {
    get leading() {
      return connection !== null;
    },
    wake: () => connection?.wake(),
    stop: () => {
      if (stopping.signal.aborted) return;
      const held = connection;
      connection = null;
      held?.close();
      // The others poll until the next leader's stream is up.
      if (held && up) post({ type: 'status', up: false });
      stopping.abort();
      channel?.removeEventListener('message', listener);
      channel?.close();
    },
  };
}
