/**
 * Maintenance windows told to status page subscribers (docs/decisions.md#status-pages, issue 27): an hour before a
 * scheduled window starts, when it starts and when it is due to end, each once per subscription, within a minute of its
 * time (issue 48). Each moment is queued once as news (its key names it, so several processes running this job queue
 * it once too) and jobs/status-news.ts tells it. A window whose notice was closed meanwhile is not told: its
 * closing update was.
 */
import type { ServerContext } from '../context.js';
import { listMaintenanceWindowsDue } from '../db/repositories/notices.js';
import { queueNews, type NoticeNews } from '../services/status-pages/status-subscriptions.js';

const MINUTE_MS = 60_000;
/** How long before a window its "starts soon" goes out. */
export const MAINTENANCE_NOTICE_AHEAD_MS = 60 * MINUTE_MS;
/** Moments further back than this are not told any more (the job was down for a day: old news). */
const LOOK_BACK_MS = 24 * 60 * MINUTE_MS;

type Moment = { stage: 'soon' | 'start' | 'end'; event: NoticeNews['event']; headline: string };
type Window = { starts_at: string | null; ends_at: string | null };

const timeOf = (iso: string | null) => (iso ? Date.parse(iso) : null);

/**
 * The moments of a window that have come by `now` and are still news. A start is told once its window is on, and
 * still within a minute of the window's end, so a short window between two looks has both told, in order.
 */
export function dueMoments(window: Window, now: number): Moment[] {
  const moments: Moment[] = [];
  const starts = timeOf(window.starts_at);
  const ends = timeOf(window.ends_at);
  const fresh = (at: number) => at <= now && at > now - LOOK_BACK_MS;
  if (starts !== null && now < starts && fresh(starts - MAINTENANCE_NOTICE_AHEAD_MS)) {
    moments.push({ stage: 'soon', event: 'maintenance.starting', headline: 'starts within the hour' });
  }
  if (starts !== null && fresh(starts) && (ends === null || now < ends + MINUTE_MS)) {
    moments.push({ stage: 'start', event: 'maintenance.started', headline: 'starting now' });
  }
  if (ends !== null && fresh(ends)) {
    moments.push({ stage: 'end', event: 'maintenance.ended', headline: 'window over' });
  }
  return moments;
}

/** The first moment of these windows after `now` (epoch ms), or null: when the job looks next. */
export function nextMomentAt(windows: readonly Window[], now: number): number | null {
  let next: number | null = null;
  for (const window of windows) {
    const starts = timeOf(window.starts_at);
    const ends = timeOf(window.ends_at);
    const soon = starts === null ? null : starts - MAINTENANCE_NOTICE_AHEAD_MS;
    for (const at of [soon, starts, ends]) if (at !== null && at > now && (next === null || at < next)) next = at;
  }
  return next;
}

/**
 * Looks every `pollMs` (a minute), and at the next start or end it knows of (and when woken: a window just made
 * or moved in this process), so each moment is told at its time. Several processes each look; each moment is told
 * once per subscription.
 */
export function startMaintenanceReminders(
  ctx: ServerContext,
  options: { pollMs?: number } = {},
): { stop(): void; run(): Promise<void> } {
  const { db } = ctx.database;
  const pollMs = options.pollMs ?? MINUTE_MS;
  /** Tells what is due; answers the next moment within the poll. */
  const look = async (): Promise<number | null> => {
    try {
      const now = ctx.now().getTime();
      const iso = (at: number) => new Date(at).toISOString();
      const [from, soonTo, endTo] = [
        iso(now - LOOK_BACK_MS),
        iso(now + MAINTENANCE_NOTICE_AHEAD_MS + pollMs),
        iso(now + pollMs),
      ];
      const windows = await listMaintenanceWindowsDue(db, { from, soonTo, endTo });
      let told = false;
      for (const window of windows) {
        for (const moment of dueMoments(window, now)) {
          told = true;
          await db.transaction().execute((trx) =>
            queueNews(trx, {
              notice: window,
              key: moment.stage,
              message: `${window.title}: ${moment.headline}.`,
              event: moment.event,
              headline: moment.headline,
            }),
          );
        }
      }
      if (told) ctx.wakeStatusNews?.();
      return nextMomentAt(windows, now);
    } catch (error) {
      ctx.logger.warn({ err: error }, 'could not tell maintenance windows');
      return null;
    }
  };
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const run = (): Promise<void> =>
    (running = running.then(async () => {
      const next = await look();
      if (stopped) return;
      clearTimeout(timer);
      const wait = next === null ? pollMs : Math.min(pollMs, next - ctx.now().getTime());
      timer = setTimeout(() => void run(), Math.max(0, wait));
      timer.unref();
    }));
  const wake = () => void run();
  ctx.wakeMaintenance = wake;
  void run();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      if (ctx.wakeMaintenance === wake) ctx.wakeMaintenance = undefined;
    },
    run,
  };
}
