/**
 * Maintenance windows told to status page subscribers (DESIGN.md 13, issue 27): an hour before a scheduled
 * window starts, when it starts and when it is due to end, each once per subscription. Each moment is queued once
 * as news (its key names it, so several processes running this job queue it once too) and jobs/status-news.ts
 * tells it. A window whose notice was closed meanwhile is not told: its closing update was.
 */
import type { ServerContext } from '../context.js';
import { queueNews, type NoticeNews } from '../services/status-subscriptions.js';

const MINUTE_MS = 60_000;
/** How long before a window its "starts soon" goes out. */
export const MAINTENANCE_NOTICE_AHEAD_MS = 60 * MINUTE_MS;
/** Moments further back than this are not told any more (the job was down for a day: old news). */
const LOOK_BACK_MS = 24 * 60 * MINUTE_MS;

type Moment = { stage: 'soon' | 'start' | 'end'; event: NoticeNews['event']; headline: string };

/** The moments of a window that have come by `now` and are still news. */
export function dueMoments(window: { starts_at: string | null; ends_at: string | null }, now: number): Moment[] {
  const moments: Moment[] = [];
  const starts = window.starts_at ? Date.parse(window.starts_at) : null;
  const ends = window.ends_at ? Date.parse(window.ends_at) : null;
  const fresh = (at: number) => at <= now && at > now - LOOK_BACK_MS;
  if (starts !== null && now < starts && fresh(starts - MAINTENANCE_NOTICE_AHEAD_MS)) {
    moments.push({ stage: 'soon', event: 'maintenance.starting', headline: 'starts within the hour' });
  }
  if (starts !== null && fresh(starts) && (ends === null || now < ends)) {
    moments.push({ stage: 'start', event: 'maintenance.started', headline: 'starting now' });
  }
  if (ends !== null && fresh(ends)) {
    moments.push({ stage: 'end', event: 'maintenance.ended', headline: 'window over' });
  }
  return moments;
}

export function startMaintenanceReminders(
  ctx: ServerContext,
  options: { pollMs?: number } = {},
): { stop(): void; run(): Promise<void> } {
  const { db } = ctx.database;
  const run = async () => {
    try {
      const now = ctx.now().getTime();
      const from = new Date(now - LOOK_BACK_MS).toISOString();
      const to = new Date(now + MAINTENANCE_NOTICE_AHEAD_MS).toISOString();
      const windows = await db
        .selectFrom('notices')
        .select(['id', 'workspace_id', 'service_id', 'type', 'title', 'status', 'open', 'starts_at', 'ends_at'])
        .where('type', '=', 'maintenance')
        .where('open', '=', 1)
        .where((eb) =>
          eb.or([
            eb.and([eb('starts_at', '>=', from), eb('starts_at', '<=', to)]),
            eb.and([eb('ends_at', '>=', from), eb('ends_at', '<=', new Date(now).toISOString())]),
          ]),
        )
        .execute();
      for (const window of windows) {
        for (const moment of dueMoments(window, now)) {
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
      if (windows.length > 0) ctx.wakeStatusNews?.();
    } catch (error) {
      ctx.logger.warn({ err: error }, 'could not tell maintenance windows');
    }
  };
  const timer = setInterval(() => void run(), options.pollMs ?? MINUTE_MS);
  timer.unref();
  return { stop: () => clearInterval(timer), run };
}
