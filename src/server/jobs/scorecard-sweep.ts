/**
 * The scorecards' periodic sweep (DESIGN.md 14): what changes with time alone (a certificate nearing expiry, an
 * error budget burning, a check result growing stale, an exemption ending) is re-read for every scorecard of
 * every workspace that has one. What the app changes itself is re-read just after its event (the refresh below).
 */
import type { ServerContext } from '../context.js';
import { recordedEvents, type RecordedEvent } from '../db/repositories/events.js';
import { workspacesWithScorecards } from '../db/repositories/scorecards.js';
import { evaluateScorecards } from '../services/scorecards.js';

const SWEEP_MS = 5 * 60_000;

/** Answers how many results changed. */
export async function sweepScorecards(ctx: ServerContext): Promise<number> {
  let changed = 0;
  for (const workspaceId of await workspacesWithScorecards(ctx.database.db)) {
    changed += await evaluateScorecards(ctx, workspaceId);
  }
  return changed;
}

export function startScorecardSweep(ctx: ServerContext, options: { pollMs?: number } = {}): { stop(): void } {
  let running = false;
  const run = async () => {
    // A sweep slower than the period is not overlapped by the next one.
    if (running) return;
    running = true;
    try {
      await sweepScorecards(ctx);
    } catch (error) {
      ctx.logger.warn({ err: error }, 'could not sweep the scorecards');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), options.pollMs ?? SWEEP_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** How long a change's event waits before its services are re-read: its transaction commits meanwhile. */
const REFRESH_DELAY_MS = 50;

/**
 * Re-evaluates the services an event of this process concerns (issue 28: results fresh soon after what they read
 * changed): the service itself and those depending on it (a dependency's stage is a rule), or every service of a
 * team whose members changed. Events are gathered for a moment and evaluated together. The scorecards' own events
 * are left out (they follow an evaluation).
 */
export function startScorecardRefresh(ctx: ServerContext): { stop(): void; settled(): Promise<void> } {
  const pending = new Map<string, { services: Set<string>; teams: Set<string> }>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const refresh = async (batch: typeof pending) => {
    const db = ctx.database.db;
    for (const [workspaceId, touched] of batch) {
      const ids = new Set(touched.services);
      if (touched.services.size > 0) {
        const dependents = await db
          .selectFrom('service_dependencies')
          .select('service_id')
          .where('workspace_id', '=', workspaceId)
          .where('dependency_id', 'in', [...touched.services])
          .execute();
        for (const row of dependents) ids.add(row.service_id);
      }
      if (touched.teams.size > 0) {
        const owned = await db
          .selectFrom('services')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('owner_team_id', 'in', [...touched.teams])
          .execute();
        for (const row of owned) ids.add(row.id);
      }
      if (ids.size > 0) await evaluateScorecards(ctx, workspaceId, { serviceIds: [...ids] });
    }
  };

  // The gathering under way: done once its evaluation is.
  let gathering: Promise<void> | undefined;
  const onRecorded = (event: RecordedEvent) => {
    if (event.type.startsWith('scorecard.') || event.profileType === 'user') return;
    let touched = pending.get(event.workspaceId);
    if (!touched) pending.set(event.workspaceId, (touched = { services: new Set(), teams: new Set() }));
    (event.profileType === 'team' ? touched.teams : touched.services).add(event.profileId);
    gathering ??= new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        timer = undefined;
        gathering = undefined;
        const batch = new Map(pending);
        pending.clear();
        running = running
          .then(() => refresh(batch))
          .catch((error: unknown) => ctx.logger.warn({ err: error }, 'could not refresh the scorecards'));
        void running.then(resolve);
      }, REFRESH_DELAY_MS);
    });
  };
  recordedEvents.on('recorded', onRecorded);
  return {
    stop: () => {
      recordedEvents.off('recorded', onRecorded);
      if (timer) clearTimeout(timer);
    },
    /** Resolves once what was recorded so far has been evaluated (for tests). */
    settled: () => gathering ?? running,
  };
}
