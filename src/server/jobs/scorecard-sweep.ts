/**
 * The scorecards' periodic sweep (docs/decisions.md#slos-and-scorecards): what changes with time alone (a certificate
 * nearing expiry, an error budget burning, a check result growing stale, an exemption ending) is re-read for every
 * scorecard of every workspace that has one. What changes a fact is re-read within a second of its commit (the refresh
 * below).
 */
import type { ServerContext } from '../context.js';
import {
  servicesTouched,
  takeScorecardTouches,
  workspacesWithScorecards,
  type ScorecardTouch,
} from '../db/repositories/scorecards.js';
import { evaluateScorecards } from '../services/reliability/scorecards.js';

const SWEEP_MS = 5 * 60_000;

/** Answers how many results changed. */
export async function sweepScorecards(ctx: ServerContext): Promise<number> {
  let changed = 0;
  for (const workspaceId of await workspacesWithScorecards(ctx.database.jobs)) {
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

/** How often the touches are looked for: a change is evaluated within this and its evaluation. */
const REFRESH_POLL_MS = 250;
/** Touches taken at one look; more are taken at once after. */
const TAKE_LIMIT = 1000;
/** Past this many services of one workspace at once (an import), the workspace is evaluated whole, as by the sweep. */
const WHOLE_WORKSPACE = 500;

/** Evaluates the services the touches reach (the service, its dependents: a dependency's stage is a rule; a team's). */
async function refreshTouched(ctx: ServerContext, touches: readonly ScorecardTouch[]): Promise<void> {
  const byWorkspace = new Map<string, { services: Set<string>; teams: Set<string> }>();
  for (const touch of touches) {
    let touched = byWorkspace.get(touch.workspace_id);
    if (!touched) byWorkspace.set(touch.workspace_id, (touched = { services: new Set(), teams: new Set() }));
    if (touch.service_id) touched.services.add(touch.service_id);
    if (touch.team_id) touched.teams.add(touch.team_id);
  }
  for (const [workspaceId, touched] of byWorkspace) {
    const ids = await servicesTouched(ctx.database.jobs, workspaceId, [...touched.services], [...touched.teams]);
    if (ids.size > WHOLE_WORKSPACE) await evaluateScorecards(ctx, workspaceId);
    else if (ids.size > 0) await evaluateScorecards(ctx, workspaceId, { serviceIds: [...ids] });
  }
}

/**
 * Re-evaluates the services whose facts changed (issue 28: results fresh soon after what they read changed; issue
 * 48: every fact, whichever process wrote it). Triggers log each write of a fact with the service or team it
 * concerns (migration 040); every process looks for those touches a few times a second, takes what it finds and
 * evaluates it. A touch is logged in its write's transaction, so it is seen once that committed, with its change.
 * What could not be evaluated (the database away) is tried again at the next look.
 */
export function startScorecardRefresh(
  ctx: ServerContext,
  options: { pollMs?: number } = {},
): {
  stop(): void;
  passes(): number;
  settled(): Promise<void>;
} {
  let passes = 0;
  let untried: ScorecardTouch[] = [];
  /** Answers whether it took a full batch (more may be waiting). */
  const pass = async (): Promise<boolean> => {
    passes++;
    let touches = untried;
    untried = [];
    try {
      const taken = await takeScorecardTouches(ctx.database.jobs, TAKE_LIMIT);
      touches = [...touches, ...taken];
      if (touches.length > 0) await refreshTouched(ctx, touches);
      return taken.length === TAKE_LIMIT;
    } catch (error) {
      untried = touches;
      ctx.logger.warn({ err: error }, 'could not refresh the scorecards');
      return false;
    }
  };
  // One look at a time; the next is set when one ends.
  let running: Promise<boolean> = Promise.resolve(false);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const look = (): Promise<boolean> => (running = running.then(pass));
  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      void look().then((more) => schedule(more ? 0 : (options.pollMs ?? REFRESH_POLL_MS)));
    }, delayMs);
    timer.unref();
  };
  schedule(options.pollMs ?? REFRESH_POLL_MS);
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
    /** How many looks have begun (for tests). */
    passes: () => passes,
    /** Resolves once what was committed before the call has been evaluated (for tests and benches). */
    settled: async () => {
      while (await look());
    },
  };
}
