import type { StarredItem, WatchedService } from '../../../contract/catalogue.js';
import { isoNow, type ServerContext } from '../../context.js';
import {
  addToStarredCount,
  findService,
  listStarredServices,
  listWatchedServices,
} from '../../db/repositories/services.js';
import { deleteStar, insertStar } from '../../db/repositories/stars.js';
import type { Caller } from '../accounts/auth.js';
import { getService, serviceRef } from './services.js';
import { findUserOr404, requireSelf } from '../accounts/users.js';
import { serviceScope, viewerOf } from '../../cache/viewer.js';

/** Another user's stars, minus the services the viewer may not see. */
export async function listStarred(ctx: ServerContext, caller: Caller, username: string): Promise<StarredItem[]> {
  const target = await findUserOr404(ctx, caller.workspace.id, username);
  const scope = serviceScope(caller, await viewerOf(ctx, caller));
  const rows = await listStarredServices(ctx.database.db, caller.workspace.id, target.id, scope);
  return rows.map((row) => ({ id: row.id, profile: serviceRef(row) }));
}

/**
 * Idempotent (the offline outbox replays it): the star's primary key turns a second PUT into a no-op, and the
 * count moves only when a row was really added, in the same transaction.
 */
export async function starService(ctx: ServerContext, caller: Caller, username: string, service: string) {
  const user = await requireSelf(ctx, caller, username, 'You can only change your own stars');
  const { id } = await getService(ctx, caller, service);
  const workspaceId = caller.workspace.id;
  await ctx.database.db.transaction().execute(async (trx) => {
    const row = { workspace_id: workspaceId, user_id: user.id, service_id: id, created_at: isoNow(ctx) };
    if (await insertStar(trx, row)) await addToStarredCount(trx, workspaceId, id, 1);
  });
}

/** Idempotent too: unstarring a service not starred, hidden since, or deleted since is a quiet success. */
export async function unstarService(ctx: ServerContext, caller: Caller, username: string, service: string) {
  const user = await requireSelf(ctx, caller, username, 'You can only change your own stars');
  const workspaceId = caller.workspace.id;
  const row = await findService(ctx.database.db, workspaceId, service, user.id);
  if (!row?.starred_at) return;
  await ctx.database.db.transaction().execute(async (trx) => {
    if (await deleteStar(trx, workspaceId, user.id, row.id)) await addToStarredCount(trx, workspaceId, row.id, -1);
  });
}

/**
 * Watched services (docs/decisions.md#open-decisions): those of the user's teams and those they starred, as far as the
 * viewer may see them. Mutes are private, so `muted` is reported to the user themself only.
 */
export async function listWatched(ctx: ServerContext, caller: Caller, username: string): Promise<WatchedService[]> {
  const target = await findUserOr404(ctx, caller.workspace.id, username);
  const scope = serviceScope(caller, await viewerOf(ctx, caller));
  const rows = await listWatchedServices(ctx.database.db, caller.workspace.id, target.id, scope);
  const self = target.id === caller.user.id;
  return rows.map((row) => ({
    service: { id: row.id, handle: row.handle, name: row.name },
    muted: self && (row.activity === 1 || row.notifications === 1),
  }));
}
