/**
 * The loop both runners share (the shared runner in `beacon serve`, the team runner agent): it starts the due
 * checks of a CheckScheduler as probes, never overlapping a check with itself, wakes for the next slot, and on
 * stop waits for the probes in flight (each ends by its own timeout).
 */
import { HEALTH_CHECK_BOUNDS } from '../domain/health.js';
import type { CheckScheduler, ScheduledCheck } from './schedule.js';

export interface ProbeLoopOptions<C extends ScheduledCheck, R> {
  scheduler: CheckScheduler<C>;
  /** Runs a check once (a probe, or a heartbeat's look at its last ping); ends by the check's own timeout. */
  run(check: C): Promise<R>;
  onResult(check: C, result: R): void;
  onError(check: C, error: unknown): void;
  /** False while no probe may start (the shared runner's leases running out). */
  mayStart?(now: number): boolean;
  /** Told how late each probe starts after its slot, ms. */
  onStart?(lagMs: number): void;
  /** Probes in flight at most; due checks wait for the next tick beyond it. */
  maxInFlight?: number;
  /** How often the loop wakes at most, ms (earlier when a check is due sooner). */
  tickMs?: number;
}

export interface ProbeLoop {
  /** Starts no more probes, then waits for those in flight (at most the longest timeout). */
  stop(): Promise<void>;
}

export function startProbeLoop<C extends ScheduledCheck, R>(options: ProbeLoopOptions<C, R>): ProbeLoop {
  const { scheduler } = options;
  const maxInFlight = options.maxInFlight ?? 200;
  const tickMs = options.tickMs ?? 1000;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const run = (check: C) => {
    const task = options
      .run(check)
      .then((result) => options.onResult(check, result))
      .catch((error: unknown) => options.onError(check, error))
      .finally(() => {
        scheduler.finished(check.id, Date.now());
        inFlight.delete(task);
        // A loop held back by the cap goes on as soon as a probe ends, not at its next timer.
        if (waitingForRoom) wakeSoon();
      });
    inFlight.add(task);
  };

  let waitingForRoom = false;
  const wakeSoon = () => {
    waitingForRoom = false;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, 0);
    timer.unref();
  };

  const tick = () => {
    timer = undefined;
    if (stopped) return;
    const now = Date.now();
    const room = maxInFlight - inFlight.size;
    const held = options.mayStart ? !options.mayStart(now) : false;
    const due = room <= 0 || held ? [] : scheduler.due(now, room);
    for (const id of due) {
      const entry = scheduler.get(id);
      if (!entry) continue;
      const dueAt = entry.dueAt;
      if (!scheduler.started(id, now)) continue;
      options.onStart?.(now - dueAt);
      run(entry.check);
    }
    const wake = scheduler.nextWake();
    if (held) {
      timer = setTimeout(tick, tickMs);
    } else if (wake !== null && wake <= now && inFlight.size >= maxInFlight) {
      // Overdue checks wait for room: a finishing probe wakes the loop (the timer only backs it up).
      waitingForRoom = true;
      timer = setTimeout(tick, tickMs);
    } else {
      timer = setTimeout(tick, wake === null ? tickMs : Math.min(tickMs, Math.max(10, wake - Date.now())));
    }
    timer.unref();
  };
  tick();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      // Probes end by their own timeout; the bound only guards against a bug.
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise((resolve) => {
          bound = setTimeout(resolve, (HEALTH_CHECK_BOUNDS.timeout.max + 1) * 1000);
        }),
      ]);
      clearTimeout(bound);
    },
  };
}
