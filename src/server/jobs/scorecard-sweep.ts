/**
 * The scorecards' periodic sweep (DESIGN.md 14): what changes with time alone (a certificate nearing expiry, an
 * error budget burning, a check result growing stale, an exemption ending) is re-read for every scorecard of
 * every workspace that has one. What the app changes itself is re-read just after its event (the refresh below).
 */
import type { ServerContext } from '../context.js';
import { committedEvents, recordedEvents, type RecordedEvent } from '../db/repositories/events.js';
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

/** How long events are gathered before their services are re-read. */
const REFRESH_DELAY_MS = 10;
/**
 * An event whose row is not yet visible (its transaction still open) is looked at again after twice as long each
 * time, up to 5 s between looks, for a minute; then it is left to the sweep (it was most likely rolled back).
 */
const LOOK_AGAIN_MAX_MS = 5_000;
const COMMIT_WAIT_MS = 60_000;

interface Touch {
  event: RecordedEvent;
  recordedAt: number;
  /** How many times its row was looked for and not seen. */
  looks: number;
}

/**
 * Re-evaluates the services an event of this process concerns (issue 28: results fresh soon after what they read
 * changed): the service itself and those depending on it (a dependency's stage is a rule), or every service of a
 * team whose members changed. The scorecards' own events are left out (they follow an evaluation).
 *
 * An event is recorded inside its transaction, so its change is read only once the event's row is visible, that is,
 * once the transaction committed: events are gathered for a moment, those visible are evaluated together, and the
 * others are looked at again at the next gathering (an event never seen was rolled back).
 */
export function startScorecardRefresh(ctx: ServerContext): {
  stop(): void;
  passes(): number;
  settled(): Promise<void>;
} {
  let pending: Touch[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  let passes = 0;
  /** Evaluates what the committed events of `batch` touch; answers the events still waiting for their commit. */
  const refresh = async (batch: readonly Touch[]): Promise<Touch[]> => {
    passes++;
    const db = ctx.database.db;
    const waiting: Touch[] = [];
    const byWorkspace = new Map<string, Touch[]>();
    for (const touch of batch) {
      const touches = byWorkspace.get(touch.event.workspaceId);
      if (touches) touches.push(touch);
      else byWorkspace.set(touch.event.workspaceId, [touch]);
    }
    for (const [workspaceId, touches] of byWorkspace) {
      const committed = await committedEvents(
        db,
        workspaceId,
        touches.map((touch) => touch.event.id),
      );
      const services = new Set<string>();
      const teams = new Set<string>();
      for (const touch of touches) {
        if (committed.has(touch.event.id)) {
          (touch.event.profileType === 'team' ? teams : services).add(touch.event.profileId);
        } else if (Date.now() - touch.recordedAt < COMMIT_WAIT_MS) {
          waiting.push({ ...touch, looks: touch.looks + 1 });
        }
      }
      const ids = new Set(services);
      if (services.size > 0) {
        const dependents = await db
          .selectFrom('service_dependencies')
          .select('service_id')
          .where('workspace_id', '=', workspaceId)
          .where('dependency_id', 'in', [...services])
          .execute();
        for (const row of dependents) ids.add(row.service_id);
      }
      if (teams.size > 0) {
        const owned = await db
          .selectFrom('services')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('owner_team_id', 'in', [...teams])
          .execute();
        for (const row of owned) ids.add(row.id);
      }
      if (ids.size > 0) await evaluateScorecards(ctx, workspaceId, { serviceIds: [...ids] });
    }
    return waiting;
  };

  // The gathering under way: done once its evaluation is.
  let gathering: Promise<void> | undefined;
  let stopped = false;
  const gather = (delayMs: number) => {
    // A refresh still running when stopped would otherwise gather again, for events waiting on their commit.
    if (stopped) return;
    gathering ??= new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        timer = undefined;
        gathering = undefined;
        const batch = pending;
        pending = [];
        running = running
          .then(async () => {
            const waiting = await refresh(batch);
            if (waiting.length === 0) return;
            pending.push(...waiting);
            const looks = Math.min(...waiting.map((touch) => touch.looks));
            gather(Math.min(REFRESH_DELAY_MS * 2 ** looks, LOOK_AGAIN_MAX_MS));
          })
          .catch((error: unknown) => ctx.logger.warn({ err: error }, 'could not refresh the scorecards'));
        void running.then(resolve);
      }, delayMs);
    });
  };
  const onRecorded = (event: RecordedEvent) => {
    if (event.type.startsWith('scorecard.') || event.profileType === 'user') return;
    pending.push({ event, recordedAt: Date.now(), looks: 0 });
    gather(REFRESH_DELAY_MS);
  };
  recordedEvents.on('recorded', onRecorded);
  return {
    stop: () => {
      stopped = true;
      recordedEvents.off('recorded', onRecorded);
      if (timer) clearTimeout(timer);
      gathering = undefined;
    },
    /** How many gatherings have been evaluated or begun (for tests). */
    passes: () => passes,
    /** Resolves once what was recorded so far has been evaluated, or given up waiting for (for tests). */
    settled: async () => {
      while (gathering) await gathering;
      await running;
    },
  };
}
