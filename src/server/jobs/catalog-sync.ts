/**
 * The catalogue's sources over time (DESIGN.md 15): entities a source stopped describing are removed once their
 * grace has passed (a team only when nothing is left in it), unless a file claims them again meanwhile.
 */
import type { ServerContext } from '../context.js';
import { deleteAsset } from '../db/repositories/assets.js';
import { expiredOrphans } from '../db/repositories/catalog.js';
import { recordEvent } from '../db/repositories/events.js';
import { countTeamChildren, deleteTeam } from '../db/repositories/teams.js';
import { orphanGraceMs } from '../services/catalog.js';
import { forgetTeamViewers } from '../services/viewer.js';

const POLL_MS = 60_000;
const BATCH = 200;

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
      const forget = () =>
        trx
          .deleteFrom('catalog_entities')
          .where('source_id', '=', orphan.source_id)
          .where('kind', '=', orphan.kind)
          .where('handle', '=', orphan.handle)
          .execute();
      if (orphan.entity_id === null) return forget();
      if (orphan.kind === 'service') {
        const service = await trx
          .selectFrom('services')
          .select(['id', 'name', 'handle', 'owner_team_id', 'icon_asset_id'])
          .where('id', '=', orphan.entity_id)
          .executeTakeFirst();
        if (service) {
          await trx.deleteFrom('services').where('id', '=', service.id).execute();
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
      await removeExpiredOrphans(ctx);
    } catch (error) {
      ctx.logger.warn({ err: error }, 'could not sync the catalogue sources');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), options.pollMs ?? POLL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
