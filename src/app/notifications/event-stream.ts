import { readEventStream, SseParser, type SseEvent } from './sse.js';

/** The server's `retry:` is 5 s; until it says so, this. */
export const DEFAULT_RETRY_MS = 5_000;
/** Failures in a row back off up to this. */
export const MAX_BACKOFF_MS = 60_000;

export interface EventStreamOptions {
  /** Opens the stream (with `Last-Event-ID` when one was seen); rejects when it cannot. */
  open(lastEventId: string, signal: AbortSignal): Promise<Response>;
  onEvent(event: SseEvent): void;
  /** Whether the stream is open (true once an answer arrived) or down (between connections). */
  onStatus(up: boolean): void;
  /** The last event id heard before (from another tab's stream): the first connection resumes after it. */
  lastEventId?: string;
  /** A number in [0, 1) (jitter); Math.random by default. */
  random?: () => number;
}

export interface EventStream {
  /** Reconnects now if waiting to (the browser came back online). */
  wake(): void;
  close(): void;
}

/**
 * The delay before reconnection attempt `failures` (1, 2, ...): the server's retry time, doubled for each
 * failure in a row up to {@link MAX_BACKOFF_MS}, with up to a fifth of jitter so that many tabs and devices do
 * not come back at the same moment after a restart.
 */
export function backoffDelay(failures: number, retryMs: number, random: () => number = Math.random): number {
  const base = Math.min(retryMs * 2 ** Math.max(0, failures - 1), MAX_BACKOFF_MS);
  return Math.round(base * (0.8 + 0.2 * random()));
}

/**
 * Holds an event stream open: reads it, and when it ends or fails reconnects after the retry time with backoff,
 * sending the last event id seen so the server replays what was missed meanwhile (docs/decisions.md#feeds).
 */
export function openEventStream(options: EventStreamOptions): EventStream {
  const controller = new AbortController();
  const random = options.random ?? Math.random;
  let retryMs = DEFAULT_RETRY_MS;
  let wakeUp: (() => void) | null = null;
  const parser = new SseParser({
    onEvent: (event) => options.onEvent(event),
    onRetry: (milliseconds) => (retryMs = milliseconds),
  });
  parser.lastEventId = options.lastEventId ?? '';

  const sleep = (milliseconds: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakeUp = null;
        controller.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, milliseconds);
      wakeUp = done;
      controller.signal.addEventListener('abort', done);
    });

  void (async () => {
    let failures = 0;
    while (!controller.signal.aborted) {
      let heard = false;
      try {
        const response = await options.open(parser.lastEventId, controller.signal);
        if (!response.body) throw new Error('The event stream has no body');
        options.onStatus(true);
        heard = true;
        await readEventStream(response.body, parser);
      } catch {
        // Down: told below, then tried again.
      }
      parser.end();
      if (controller.signal.aborted) break;
      options.onStatus(false);
      // A stream that was open and ended (a server restart, a proxy's timeout) starts the count again.
      failures = heard ? 1 : failures + 1;
      await sleep(backoffDelay(failures, retryMs, random));
    }
  })();

  return {
    wake: () => wakeUp?.(),
    close: () => controller.abort(),
  };
}
