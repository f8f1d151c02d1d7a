import type { FastifyInstance } from 'fastify';
import { assetOperations } from '../../contract/operations/assets.js';
import type { ServerContext } from '../context.js';
import { findAsset } from '../db/repositories/assets.js';
import { notFound } from '../errors.js';
import { bearerOrCookie } from '../http.js';
import { routes } from '../operations.js';

/** Uploaded images, readable by members of their workspace (bearer token or, for <img> tags, the session cookie). */
export function assetRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(
      ctx,
      app,
      assetOperations,
      {
        getAsset: async ({ caller, params, reply }) => {
          const asset = await findAsset(ctx.database.db, caller.workspace.id, params.assetId);
          if (!asset) throw notFound('Asset not found');
          // Ids are never reused: a new upload gets a new id, so the bytes can be cached for good.
          return reply
            .header('content-type', asset.content_type)
            .header('cache-control', 'private, max-age=31536000, immutable')
            .send(asset.data);
        },
      },
      {
        getAsset: { authenticate: bearerOrCookie(ctx) },
      },
    );
}
