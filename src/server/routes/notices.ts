import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serviceParams } from '../../contract/catalogue.js';
import { errorResponses } from '../../contract/common.js';
import { notice, noticeCreate, noticeParams, noticeQuery, noticeUpdate } from '../../contract/notices.js';
import type { ServerContext } from '../context.js';
import { requireCaller, sendPage } from '../http.js';
import { createNotice, listNotices, updateNotice } from '../services/notices.js';

/** Notices of a service (spec/catalogue.md section 7; DESIGN.md 4a). */
export function noticeRoutes(ctx: ServerContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/services/:service/notices',
      {
        config: { scope: 'beacon.notice.read' },
        schema: {
          tags: ['notices'],
          summary:
            'Notices of a service, newest first; `type` (incident, maintenance) and `status` (open, closed) take ' +
            'comma lists, default incident,maintenance and open; total in the `total` header',
          params: serviceParams,
          querystring: noticeQuery,
          response: { 200: z.array(notice), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const caller = await requireCaller(ctx, request);
        const { items, total } = await listNotices(ctx, caller, request.params.service, request.query);
        return sendPage(reply, items, total);
      },
    );

    app.post(
      '/services/:service/notices',
      {
        config: { scope: 'beacon.notice.manage' },
        schema: {
          tags: ['notices'],
          summary:
            'Open a notice (editors of the service); a given health is applied to the service in the same ' +
            'transaction, and must be good for a resolved or completed status',
          params: serviceParams,
          body: noticeCreate,
          response: { 201: notice, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const caller = await requireCaller(ctx, request);
        return reply.code(201).send(await createNotice(ctx, caller, request.params.service, request.body));
      },
    );

    app.patch(
      '/notices/:id',
      {
        config: { scope: 'beacon.notice.manage' },
        schema: {
          tags: ['notices'],
          summary: "Update a notice's status and message (a new history entry), optionally the service's health",
          params: noticeParams,
          body: noticeUpdate,
          response: { 200: notice, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => updateNotice(ctx, await requireCaller(ctx, request), request.params.id, request.body),
    );
  };
}
