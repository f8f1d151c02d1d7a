/**
 * The catalogue's sources over time (docs/decisions.md#catalogue-as-code): URL sources are read again when their
 * interval is up, and entities a source stopped describing are removed once their grace has passed (a team only when
 * nothing is left in it), unless a file claims them again meanwhile.
 */
import type { ServerContext } from '../context.js';
import { deleteAsset } from '../db/repositories/assets.js';
import { claimDueSource, deleteSourceEntity, dueSources, expiredOrphans } from '../db/repositories/catalog.js';
import { deleteService, findServiceToRemove } from '../db/repositories/services.js';
import { recordEvent } from '../services/events/record-event.js';
import { countTeamChildren, deleteTeam } from '../db/repositories/teams.js';
import type { Agent } from '../services/accounts/agents.js';
import type { FetchOptions } from '../services/descriptors/fetch.js';
import { orphanGraceMs, syncSource } from '../services/descriptors/descriptors.js';
import { forgetTeamViewers } from '../cache/viewer.js';

const POLL_MS = 60_000;
const BATCH = 200;
const SOURCES_PER_RUN = 50;

/** Who a scheduled sync's changes are by. */
export const CATALOG_SYNC_AGENT: Agent = { id: null, name: 'Beacon' };

/**
 * Syncs the URL sources whose time has come, one after another; one that fails (a bad URL, a database error) is
 * logged and never stops the others. Answers how many were synced.
 */
export async function syncDueSources(ctx: ServerContext, options: FetchOptions = {}): Promise<number> {
  const { db } = ctx.database;
  let synced = 0;
  for (const source of await dueSources(db, ctx.now().getTime(), SOURCES_PER_RUN)) {
    try {
      // Claimed by moving its next sync on: another process reading the same due rows skips it, and a sync that
      // throws is tried again an interval later rather than every minute.
      const next = ctx.now().getTime() + source.interval_minutes * 60_000;
      if (!(await claimDueSource(db, source.id, source.next_sync_at, next))) continue;
      await syncSource(ctx, source, CATALOG_SYNC_AGENT, options);
      synced += 1;
    } catch (error) {
      ctx.logger.warn({ err: error, sourceId: source.id }, 'could not sync a catalogue source');
    }
  }
  return synced;
}

/** Answers how many entities were removed. */
export async function removeExpiredOrphans(ctx: ServerContext): Promise<number> {
  const { db } = ctx.database;
  const before = new Date(ctx.now().getTime() - orphanGraceMs(ctx)).toISOString();
  const now = ctx.now().toISOString();
  let removed = 0;
  // Services before teams: a team is removed only once its services are gone.
  const orphans = (await expiredOrphans(db, before, BATCH)).sort((a, b) =>
    a.kind === b.kind ? 0 : a.kind === 'service' ? -1 : 1,
  );
  for (const orphan of orphans) {
    await db.transaction().execute(async (trx) => {
      const forget = () => deleteSourceEntity(trx, orphan.source_id, orphan.kind, orphan.handle);
      if (orphan.entity_id === null) return forget();
      if (orphan.kind === 'service') {
        const service = await findServiceToRemove(trx, orphan.entity_id);
        if (service) {
          await deleteService(trx, orphan.workspace_id, service.id);
          await recordEvent(trx, {
            workspace_id: orphan.workspace_id,
            profile_type: 'team',
            profile_id: service.owner_team_id,
            type: 'service.deleted',
            actor_id: null,
            agent_name: 'Beacon',
            data: { name: service.name, handle: service.handle },
            created_at: now,
          });
          if (service.icon_asset_id) await deleteAsset(trx, orphan.workspace_id, service.icon_asset_id);
          removed += 1;
        }
        return forget();
      }
      const children = await countTeamChildren(trx, orphan.workspace_id, orphan.entity_id);
      // Still holding services or teams: kept, orphaned, until they go.
      if (children.services + children.teams > 0) return;
      await deleteTeam(trx, orphan.workspace_id, orphan.entity_id);
      forgetTeamViewers(ctx, orphan.entity_id);
      removed += 1;
      return forget();
    });
  }
  return removed;
}

export function startCatalogSync(ctx: ServerContext, options: { pollMs?: number } = {}): { stop(): void } {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await syncDueSources(ctx);
    } catch (error) {
      ctx.logger.warn({ err: error }, 'could not sync the catalogue sources');
    }
    try {
      await removeExpiredOrphans(ctx);
    } catch (error) {
      ctx.logger.warn({ err: error }, 'could not remove orphaned catalogue entities');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), options.pollMs ?? POLL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
