/**
 * Whether the database is away (docs/operations.md): every unit that meets an unreachable database pauses the
 * runner here, and the next reload that succeeds resumes it. No probe starts while paused.
 */
import type { Logger } from 'pino';

export interface Outage {
  readonly paused: boolean;
  /** The database did not answer: pause (once; later calls while paused say nothing). */
  pause(error: unknown): void;
  /** A reload succeeded: resume and write what was buffered meanwhile. */
  resume(): void;
}

export function createOutage(log: Logger, onResume: () => void, buffered: () => number): Outage {
  let paused = false;
  return {
    get paused() {
      return paused;
    },
    pause(error) {
      if (paused) return;
      paused = true;
      log.warn({ err: error }, 'database unavailable: the shared runner pauses until it answers again');
    },
    resume() {
      if (!paused) return;
      paused = false;
      log.info({ buffered: buffered() }, 'database back: the shared runner resumes');
      onResume();
    },
  };
}
