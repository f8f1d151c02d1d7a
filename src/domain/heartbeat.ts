/**
 * Heartbeats (docs/decisions.md#checks, Healthchecks.io's model): a job pings a secret URL; the check is late when no
 * success ping came within its period plus grace, or, with a cron schedule, since the latest time the job was due
 * (plus grace). A `fail` ping (or a non-zero exit code) fails it until the next success ping.
 */
import { Cron } from 'croner';
import { plural } from './words.js';

export interface HeartbeatState {
  /** Seconds between pings (the check's frequency). */
  periodSeconds: number;
  graceSeconds: number;
  /** Cron, 5 fields, in `timeZone` (default UTC); null: every period. */
  schedule: string | null;
  timeZone: string | null;
  /** The latest success or fail ping, epoch ms; null: none yet (a `start` ping is not one). */
  lastPingAt: number | null;
  lastPingKind: 'success' | 'fail' | null;
  /** When the check was created (or last changed): the clock starts there before the first ping. */
  since: number;
}

export type HeartbeatVerdict =
  { state: 'up' } | { state: 'failed' } | { state: 'late'; dueAt: number; message: string };

/** "90 s" -> "1 min 30 s": how people read a period. */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return seconds % 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds / 60} min`;
  if (seconds < 86_400) return seconds % 3600 ? `${(seconds / 3600).toFixed(1)} h` : plural(seconds / 3600, 'hour');
  return seconds % 86_400 ? `${(seconds / 86_400).toFixed(1)} days` : plural(seconds / 86_400, 'day');
}

/** The latest time the job was due at or before `at`, by its schedule; null when none since `since`. */
function lastDue(state: HeartbeatState, at: number): number | null {
  const cron = new Cron(state.schedule!, { timezone: state.timeZone ?? 'UTC', paused: true });
  // croner steps forward only: walk from `since` (bounded: a schedule every minute over a week is 10,080 steps).
  let due: number | null = null;
  let next = cron.nextRun(new Date(Math.max(state.since, at - 7 * 86_400_000)));
  for (let steps = 0; next && next.getTime() <= at && steps < 20_000; steps++) {
    due = next.getTime();
    next = cron.nextRun(next);
  }
  return due;
}

/** Whether the heartbeat is on time at `now`. */
export function heartbeatVerdict(state: HeartbeatState, now: number): HeartbeatVerdict {
  if (state.lastPingKind === 'fail') return { state: 'failed' };
  const graceMs = state.graceSeconds * 1000;
  const lastOk = state.lastPingKind === 'success' ? state.lastPingAt : null;
  if (state.schedule) {
    const due = lastDue(state, now - graceMs);
    // A ping within the grace before the due time counts (a job that starts a little early).
    if (due === null || (lastOk !== null && lastOk >= due - graceMs)) return { state: 'up' };
    return {
      state: 'late',
      dueAt: due + graceMs,
      message: `No ping since the job was due at ${new Date(due).toISOString()} (grace ${formatSeconds(state.graceSeconds)})`,
    };
  }
  const from = lastOk ?? state.since;
  const dueAt = from + state.periodSeconds * 1000 + graceMs;
  if (now <= dueAt) return { state: 'up' };
  return {
    state: 'late',
    dueAt,
    message:
      `No ping for ${formatSeconds(Math.round((now - from) / 1000))}: expected every ` +
      `${formatSeconds(state.periodSeconds)} plus ${formatSeconds(state.graceSeconds)} grace`,
  };
}
