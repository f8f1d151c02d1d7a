import type { Logger } from 'pino';

/**
 * The loop an outbox job runs (mail, chat): a round drains what is due; a round runs when woken (after a request
 * queued something), when the next retry falls due, and at least every `pollMs` (work queued by other
 * processes). A wake-up during a round makes the round go again, so nothing queued meanwhile waits for the poll.
 */
export interface OutboxLoop {
  /** Runs a round as soon as the current request has answered. */
  wake(): void;
  /** Resolves once no round is running or about to run (tests). */
  idle(): Promise<void>;
  /** Stops looking and waits for the round in flight. */
  stop(): Promise<void>;
}

export interface OutboxLoopOptions {
  pollMs: number;
  log: Logger;
  /** Sends what is due; answers when the next retry is due (epoch ms), if any. */
  drain(isStopped: () => boolean): Promise<number | undefined>;
}

export function startOutboxLoop({ pollMs, log, drain }: OutboxLoopOptions): OutboxLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  /** When the next retry is due, so the job wakes for it before the next poll. */
  let nextDue = Infinity;

  const schedule = () => {
    if (stopped) return;
    // At least a few ms: a due row another process is claiming right now is skipped until it commits.
    const delay = Math.max(5, Math.min(pollMs, nextDue - Date.now()));
    timer = setTimeout(run, delay);
  };

  function run() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = (async () => {
      do {
        again = false;
        nextDue = Infinity;
        try {
          nextDue = (await drain(() => stopped)) ?? Infinity;
        } catch (error) {
          // Typically the database is away; the next poll tries again.
          log.warn({ err: error }, 'outbox round failed');
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
      schedule();
    });
  }

  // Deferred past the request's own work: a request never waits for what it queued.
  let wakeSoon: NodeJS.Immediate | undefined;
  const wake = () => {
    if (stopped || wakeSoon) return;
    wakeSoon = setImmediate(() => {
      wakeSoon = undefined;
      run();
    });
  };

  run();
  return {
    wake,
    async idle() {
      for (;;) {
        if (running) await running;
        else if (wakeSoon) await new Promise((resolve) => setImmediate(resolve));
        else return;
      }
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearImmediate(wakeSoon);
      await running;
    },
  };
}

/** Exponential backoff from `baseMs`, doubled per attempt, at most `maxMs`. */
export function retryDelay(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}
