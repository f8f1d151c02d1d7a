import type { ServerContext } from '../context.js';
import { deleteEventsBefore } from '../db/repositories/events.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Deletes events (and their notifications) older than BEACON_EVENT_RETENTION_DAYS, at start and hourly. Every
 * process may run it: a delete by age is the same whoever runs it.
 */
export function startEventRetention(ctx: ServerContext): { stop(): void; run(): Promise<number> } {
  const run = async () => {
    try {
      const before = new Date(ctx.now().getTime() - ctx.config.eventRetentionDays * DAY_MS).toISOString();
      const deleted = await deleteEventsBefore(ctx.database.jobs, before);
      if (deleted > 0) ctx.logger.info({ deleted }, 'old events deleted');
      return deleted;
    } catch (error) {
      ctx.logger.error({ err: error }, 'could not delete old events');
      return 0;
    }
  };
  const timer = setInterval(() => void run(), HOUR_MS);
  timer.unref();
  void run();
  return { stop: () => clearInterval(timer), run };
}
