import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { assetParams } from '../../contract/accounts.js';
import type { ServerContext } from '../context.js';
import { findAsset } from '../db/repositories/assets.js';
import { notFound } from '../errors.js';
import { requireCaller, SESSION_COOKIE } from '../http.js';
import { authenticateBearer, authenticateCookie } from '../services/auth.js';

/** Uploaded images, readable by members of their workspace (bearer token or, for <img> tags, the session cookie). */
export function assetRoutes(ctx: ServerContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/assets/:assetId',
      { config: { scope: null }, schema: { tags: ['assets'], summary: 'An uploaded image', params: assetParams } },
      async (request, reply) => {
        const { workspace } = await requireCaller(ctx, request, (domain) =>
          request.headers.authorization
            ? authenticateBearer(ctx, domain, request.headers.authorization)
            : authenticateCookie(ctx, domain, request.cookies[SESSION_COOKIE]),
        );
        const asset = await findAsset(ctx.database.db, workspace.id, request.params.assetId);
        if (!asset) throw notFound('Asset not found');
        // Ids are never reused: a new upload gets a new id, so the bytes can be cached for good.
        return reply
          .header('content-type', asset.content_type)
          .header('cache-control', 'private, max-age=31536000, immutable')
          .send(asset.data);
      },
    );
  };
}
