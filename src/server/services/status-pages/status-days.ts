/**
 * The 90 days of health a status page draws for each component, made again on every change of the page without
 * reading 90 days of each service again (issue 27: the first answer after a change under 100 ms on a page of 500
 * components). Per page and per UTC day, each service's complete past days are read once (through the daily
 * cache, services/health/health.ts), with its transitions of today; on each later change only the transitions written
 * since the previous read are read, for all the page's services in one query, and today is counted again in
 * memory from them. The day boundary starts afresh.
 */
import { dailyHealth, utcDate, utcDayStart, type HealthTransition } from '../../../domain/health.js';
import {
  statusDays,
  uptimeOfSeconds,
  uptimeSeconds,
  type StatusDay,
  type UptimeSeconds,
} from '../../../domain/status-pages.js';
import type { ServerContext } from '../../context.js';
import { listHealthTransitions, listTransitionsSince } from '../../db/repositories/health.js';
import { recentDailyHealth } from '../health/health.js';

/** Days of bars a page shows. */
export const STATUS_DAYS = 90;

/**
 * How far back each read of new transitions reaches behind the previous one: a transition's time is taken when
 * its transaction runs, and it may commit (become visible) that much later, in this process or another.
 */
const LATE_COMMIT_MS = 60_000;

export interface DaysService {
  id: string;
  created_at: string;
}

/** A component's bars as the page draws them (the days before today, and today), and its uptime over them. */
export interface Bars {
  past: readonly StatusDay[];
  today: StatusDay | undefined;
  uptime: number | null;
}

interface Kept {
  createdAt: string;
  /** The bars of the days before today (oldest first), and their seconds: neither moves until midnight. */
  past: StatusDay[];
  pastSeconds: UptimeSeconds;
  /** Today's transitions, and the last one before today (the state today starts in). */
  log: HealthTransition[];
  seen: Set<string>;
}

export class StatusDays {
  private date = '';
  private readonly services = new Map<string, Kept>();
  /** When the previous read of transitions began. */
  private readFrom = 0;
  /** The reports asked for run one after another: each reads from where the one before stopped. */
  private queue: Promise<unknown> = Promise.resolve();

  /** Each service's last `STATUS_DAYS` days of bars (oldest first, today last) as of `now`, by service id. */
  bars(
    ctx: ServerContext,
    workspaceId: string,
    services: readonly DaysService[],
    now: number,
  ): Promise<Map<string, Bars>> {
    const run = () => this.read(ctx, workspaceId, services, now);
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  private async read(
    ctx: ServerContext,
    workspaceId: string,
    services: readonly DaysService[],
    now: number,
  ): Promise<Map<string, Bars>> {
    const date = utcDate(now);
    if (date !== this.date) {
      this.date = date;
      this.services.clear();
      this.readFrom = 0;
    }
    const since = this.readFrom - LATE_COMMIT_MS;
    const known = services.filter((service) => this.services.get(service.id)?.createdAt === service.created_at);
    const fresh = services.filter((service) => this.services.get(service.id)?.createdAt !== service.created_at);
    if (known.length > 0) {
      const rows = await listTransitionsSince(
        ctx.database.db,
        workspaceId,
        known.map((service) => service.id),
        since,
      );
      for (const row of rows) remember(this.services.get(row.service_id)!, row);
    }
    const todayStart = utcDayStart(date);
    for (const service of fresh) {
      const [report, log] = await Promise.all([
        recentDailyHealth(ctx, workspaceId, service, now),
        listHealthTransitions(ctx.database.db, workspaceId, service.id, todayStart, now),
      ]);
      const past = report.filter((day) => day.date !== date);
      const span = { now, createdAt: Date.parse(service.created_at), count: STATUS_DAYS };
      const kept: Kept = {
        createdAt: service.created_at,
        past: statusDays(past, span).slice(0, -1),
        pastSeconds: uptimeSeconds(past, span),
        log: [],
        seen: new Set(),
      };
      for (const transition of log) remember(kept, transition);
      this.services.set(service.id, kept);
    }
    // Only once all was read: a failed read is read again next time.
    this.readFrom = Math.max(this.readFrom, now);
    const wanted = new Set(services.map((service) => service.id));
    for (const id of this.services.keys()) if (!wanted.has(id)) this.services.delete(id);
    const bars = new Map<string, Bars>();
    for (const service of services) {
      const kept = this.services.get(service.id)!;
      const createdAt = Date.parse(service.created_at);
      const from = Math.max(todayStart, createdAt);
      const today = from <= now ? dailyHealth(kept.log, { from, to: now, initial: 'good' }) : [];
      const span = { now, createdAt, count: 1 };
      const seconds = uptimeSeconds(today, span);
      bars.set(service.id, {
        past: kept.past,
        today: statusDays(today, span)[0],
        uptime: uptimeOfSeconds({
          observed: kept.pastSeconds.observed + seconds.observed,
          problem: kept.pastSeconds.problem + seconds.problem,
        }),
      });
    }
    return bars;
  }
}

function remember(kept: Kept, transition: HealthTransition): void {
  const key = `${transition.at}:${transition.health}`;
  if (kept.seen.has(key)) return;
  kept.seen.add(key);
  kept.log.push({ at: transition.at, health: transition.health });
}
