/**
 * The SLO burn-rate alerts (docs/decisions.md#slos-and-scorecards, issue 28): once a minute, each SLO whose service
 * could be burning (a problem now, a transition within the alerts' longest window, or an alert firing) is read over
 * that window. An alert that starts firing is recorded as a `slo.burn_alert` event of the service, so it reaches the
 * notifications of its watchers and team and its Slack channel like every event (events.ts). The firing flag is set by
 * a conditional update in the event's transaction: with several processes running this job, one announces it.
 */
import {
  BURN_ALERTS,
  BURN_WINDOWS,
  burnRate,
  firingBurnAlerts,
  windowSeconds,
  type BurnAlert,
} from '../../domain/slo.js';
import { eventTitle } from '../../domain/events.js';
import type { ServerContext } from '../context.js';
import { followSignal } from '../services/alerting/lifecycle.js';
import { recordEvent } from '../services/events/record-event.js';
import { listHealthTransitions } from '../db/repositories/health.js';
import { listSlosThatMayBurn, moveSloFiring } from '../db/repositories/slos.js';
import { sloOf } from '../services/reliability/slo.js';
import { agentColumns, type Agent } from '../services/accounts/agents.js';

const MINUTE_MS = 60_000;
/** Who the alert events name. */
const SLO_AGENT: Agent = { id: null, name: 'Beacon SLOs' };
/** The longest window an alert reads. */
const ALERT_SPAN_MS = Math.max(...BURN_ALERTS.map((alert) => BURN_WINDOWS[alert.long])) * 1000;
const FLAG = { fast: 'fast_firing', slow: 'slow_firing' } as const satisfies Record<BurnAlert, string>;

/** One sweep at `ctx.now()`; resolves with the alerts announced. */
export async function sweepSloAlerts(ctx: ServerContext): Promise<number> {
  const { db } = ctx.database;
  const now = ctx.now().getTime();
  const since = now - ALERT_SPAN_MS;
  const rows = await listSlosThatMayBurn(db, since);
  let announced = 0;
  for (const row of rows) {
    const slo = sloOf(row);
    const transitions = await listHealthTransitions(db, row.workspace_id, row.service_id, since, now);
    const log = { transitions, createdAt: Date.parse(row.created_at), now };
    const firing = firingBurnAlerts(slo, log);
    for (const alert of BURN_ALERTS) {
      const flag = FLAG[alert.key];
      const was = row[flag] === 1;
      if (firing[alert.key] === was) continue;
      await db.transaction().execute(async (trx) => {
        const moved = await moveSloFiring(trx, row.service_id, flag, was, firing[alert.key]);
        if (!moved) return;
        const rate = burnRate(windowSeconds(log, BURN_WINDOWS[alert.long]), slo.target);
        const data = {
          alert: alert.key,
          target: slo.target,
          window_days: slo.window_days,
          burn_rate: rate === null ? null : Math.round(rate * 100) / 100,
        };
        // The service's SLO alert (docs/decisions.md#alerts): a fast burn pages (critical), a slow one warns; it
        // resolves once neither burns.
        await followSignal(trx, {
          workspaceId: row.workspace_id,
          serviceId: row.service_id,
          source: 'slo',
          severity: firing.fast ? 'critical' : firing.slow ? 'warning' : null,
          summary: firing[alert.key] ? eventTitle('slo.burn_alert', data) : 'The error budget is no longer burning',
          at: new Date(now),
        });
        if (!firing[alert.key]) return;
        await recordEvent(trx, {
          workspace_id: row.workspace_id,
          profile_type: 'service',
          profile_id: row.service_id,
          type: 'slo.burn_alert',
          ...agentColumns(SLO_AGENT),
          data,
          created_at: new Date(now).toISOString(),
        });
        announced++;
      });
    }
  }
  return announced;
}

export function startSloAlerts(ctx: ServerContext, options: { pollMs?: number } = {}): { stop(): void } {
  const run = () =>
    sweepSloAlerts(ctx).catch((error: unknown) => ctx.logger.warn({ err: error }, 'could not read the SLO alerts'));
  const timer = setInterval(() => void run(), options.pollMs ?? MINUTE_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
