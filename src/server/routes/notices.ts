import type { FastifyInstance } from 'fastify';
import { noticeOperations } from '../../contract/operations/notices.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import { createNotice, listNotices, updateNotice } from '../services/notices/notices.js';

/** Notices of a service (spec/catalogue.md section 7; docs/decisions.md#api-conventions). */
export function noticeRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(ctx, app, noticeOperations, {
      listNotices: ({ caller, params, query }) => listNotices(ctx, caller, params.service, query),
      createNotice: ({ caller, params, body }) => createNotice(ctx, caller, params.service, body),
      updateNotice: ({ caller, params, body }) => updateNotice(ctx, caller, params.id, body),
    });
}
