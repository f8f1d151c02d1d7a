import { randomUUID } from 'node:crypto';
import { detectImageType } from '../../../domain/images.js';
import { isoNow, type ServerContext } from '../../context.js';
import { deleteAsset, insertAsset } from '../../db/repositories/assets.js';
import type { Db } from '../../db/repositories/workspaces.js';
import { badRequest } from '../../errors.js';

/**
 * Stores an uploaded image as a new asset, points a team or service at it (`point`) and drops the previous
 * asset, in one transaction (the same steps as a user's avatar). Images only, by their bytes.
 */
export async function replaceIcon(
  ctx: ServerContext,
  workspaceId: string,
  previous: string | null,
  data: Buffer,
  point: (trx: Db, assetId: string) => Promise<void>,
): Promise<void> {
  const contentType = detectImageType(data);
  if (!contentType) throw badRequest('The icon must be a PNG, JPEG, GIF or WebP image', { icon: ['Not an image'] });
  const assetId = randomUUID();
  await ctx.database.db.transaction().execute(async (trx) => {
    await insertAsset(trx, {
      id: assetId,
      workspace_id: workspaceId,
      content_type: contentType,
      data,
      created_at: isoNow(ctx),
    });
    await point(trx, assetId);
    if (previous) await deleteAsset(trx, workspaceId, previous);
  });
}

/** Clears an icon and deletes its asset; nothing to do without one. */
export async function removeIcon(
  ctx: ServerContext,
  workspaceId: string,
  previous: string | null,
  unpoint: (trx: Db) => Promise<void>,
): Promise<void> {
  if (!previous) return;
  await ctx.database.db.transaction().execute(async (trx) => {
    await unpoint(trx);
    await deleteAsset(trx, workspaceId, previous);
  });
}
