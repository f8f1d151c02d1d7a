/**
 * The shared runner's leases (jobs/shared-runner.ts): processes on one database share the checks through leases on
 * the check rows. At every reload a process beats its heartbeat, renews what it holds, gives back what it holds
 * beyond its share (the checks divided by the processes seen alive) and claims free or expired ones up to it.
 */
import { isSqlite } from '../../db/connect.js';
import {
  claimCheckLeases,
  countLiveSharedRunners,
  countSchedulableChecks,
  heartbeatSharedRunner,
  releaseCheckLeases,
  removeSharedRunner,
} from '../../db/repositories/health.js';
import type { Db } from '../../db/repositories/workspaces.js';

/** A process's share of `total` checks among `live` processes (itself at least). */
export function shareOf(total: number, live: number): number {
  return Math.ceil(total / Math.max(1, live));
}

/**
 * Which held checks to give back to come down to `share`: only ones not running (a probe in flight keeps its
 * check), in the order held.
 */
export function surplusOf(held: readonly string[], share: number, running: (id: string) => boolean): string[] {
  return held.filter((id) => !running(id)).slice(0, Math.max(0, held.length - share));
}

export interface LeaseRound {
  /** The checks this process holds now. */
  ids: string[];
  /** Until when it holds them (epoch ms). */
  until: number;
}

/** What this process holds going into a lease round. */
export interface Holding {
  held: readonly string[];
  /** A check with a probe in flight is kept whatever the share. */
  running(id: string): boolean;
  /** Told the checks given back before they are released, so none of them records another run. */
  dropped(ids: readonly string[]): void;
}

export interface Leasing {
  /** Heartbeat, renew, give back the surplus of what is held and claim up to the share. */
  lease(holding: Holding): Promise<LeaseRound>;
  /** Gives back every lease and the heartbeat (on stop). */
  giveBack(): Promise<void>;
}

export function createLeasing(db: Db, owner: string, leaseMs: number): Leasing {
  const sqlite = isSqlite(db);
  return {
    async lease({ held, running, dropped }) {
      const now = Date.now();
      // Runners silent for ten leases are forgotten as this one beats.
      await heartbeatSharedRunner(db, owner, now, now - 10 * leaseMs);
      const [live, total] = await Promise.all([countLiveSharedRunners(db, now - leaseMs), countSchedulableChecks(db)]);
      const share = shareOf(total, live);
      const released = surplusOf(held, share, running);
      dropped(released);
      const until = now + leaseMs;
      const ids = await claimCheckLeases(db, {
        owner,
        staleBefore: now - leaseMs,
        until,
        release: released,
        want: Math.max(0, share - (held.length - released.length)),
        sqlite,
      });
      return { ids, until };
    },
    async giveBack() {
      await releaseCheckLeases(db, owner);
      await removeSharedRunner(db, owner);
    },
  };
}
