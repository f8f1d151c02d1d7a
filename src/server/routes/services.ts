import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changeHealth,
  changeStage,
  changeVisibility,
  reparent,
  service,
  serviceCreate,
  serviceParams,
  servicePageQuery,
  serviceUpdate,
  teamParams,
} from '../../contract/catalogue.js';
import { errorResponses, pageQuery } from '../../contract/common.js';
import type { ServerContext } from '../context.js';
import { requireCaller, sendPage } from '../http.js';
import {
  changeService,
  clearServiceIcon,
  createService,
  deleteService,
  getService,
  listTeamServices,
  reparentService,
  searchServices,
  setServiceIcon,
  updateServiceFields,
} from '../services/catalogue-services.js';
import { readIconUpload } from './users.js';

const serviceResponses = { 200: service, ...errorResponses(400, 401, 403, 404) };

export function serviceRoutes(ctx: ServerContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/search/services',
      {
        config: { scope: 'beacon.service.read' },
        schema: {
          tags: ['services'],
          summary: 'Services the viewer may see, by name, paged (36) and searchable; total in the `total` header',
          querystring: servicePageQuery,
          response: { 200: z.array(service), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const { services, total } = await searchServices(ctx, await requireCaller(ctx, request), request.query);
        return sendPage(reply, services, total);
      },
    );

    app.get(
      '/teams/:team/services',
      {
        config: { scope: 'beacon.service.read' },
        schema: {
          tags: ['services'],
          summary: 'Services of a team the viewer may see, paged; total in the `total` header',
          params: teamParams,
          querystring: pageQuery,
          response: { 200: z.array(service), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const caller = await requireCaller(ctx, request);
        const { services, total } = await listTeamServices(ctx, caller, request.params.team, request.query);
        return sendPage(reply, services, total);
      },
    );

    app.post(
      '/teams/:team/services',
      {
        config: { scope: 'beacon.service.manage' },
        schema: {
          tags: ['services'],
          summary: 'Create a service owned by a team (its members, workspace admins and owners; not guests)',
          params: teamParams,
          body: serviceCreate,
          response: { 201: service, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const caller = await requireCaller(ctx, request);
        return reply.code(201).send(await createService(ctx, caller, request.params.team, request.body));
      },
    );

    app.get(
      '/services/:service',
      {
        config: { scope: 'beacon.service.read' },
        schema: {
          tags: ['services'],
          summary: 'One service by handle or id; 404 when missing or hidden from the viewer (also the handle check)',
          params: serviceParams,
          response: { 200: service, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => getService(ctx, await requireCaller(ctx, request), request.params.service),
    );

    app.patch(
      '/services/:service',
      {
        config: { scope: 'beacon.service.manage' },
        schema: {
          tags: ['services'],
          summary: 'Edit name, description or links (members of the owning team, workspace admins and owners)',
          params: serviceParams,
          body: serviceUpdate,
          response: serviceResponses,
        },
      },
      async (request) =>
        updateServiceFields(ctx, await requireCaller(ctx, request), request.params.service, request.body),
    );

    app.delete(
      '/services/:service',
      {
        config: { scope: 'beacon.service.manage' },
        schema: {
          tags: ['services'],
          summary: 'Delete a service (editors)',
          params: serviceParams,
          response: { 204: z.null().describe('Deleted'), ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await deleteService(ctx, await requireCaller(ctx, request), request.params.service);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/services/:service/actions/reparent',
      {
        config: { scope: 'beacon.service.manage' },
        schema: {
          tags: ['services'],
          summary: 'Move a service to another team of this workspace (id or handle; editors)',
          params: serviceParams,
          body: reparent,
          response: serviceResponses,
        },
      },
      async (request) =>
        reparentService(ctx, await requireCaller(ctx, request), request.params.service, request.body.owner.id),
    );

    // The three state changes differ only in the field they set.
    const changes = [
      ['change-health', changeHealth, 'Set the service health (editors)'],
      ['change-visibility', changeVisibility, 'Set who may see the service (editors)'],
      ['change-stage', changeStage, 'Set the service stage (editors)'],
    ] as const;
    for (const [action, body, summary] of changes) {
      app.post(
        `/services/:service/actions/${action}`,
        {
          config: { scope: 'beacon.service.manage' },
          schema: { tags: ['services'], summary, params: serviceParams, body, response: serviceResponses },
        },
        async (request) => changeService(ctx, await requireCaller(ctx, request), request.params.service, request.body),
      );
    }

    app.post(
      '/services/:service/icon',
      {
        config: { scope: 'beacon.service.manage' },
        schema: {
          tags: ['services'],
          summary: 'Upload the service photo (multipart field `icon`, PNG, JPEG, GIF or WebP; editors)',
          params: serviceParams,
          consumes: ['multipart/form-data'],
          response: serviceResponses,
        },
      },
      async (request) => {
        const caller = await requireCaller(ctx, request);
        const data = await readIconUpload(request, ctx.config.maxUploadBytes);
        return setServiceIcon(ctx, caller, request.params.service, data);
      },
    );

    app.delete(
      '/services/:service/icon',
      {
        config: { scope: 'beacon.service.manage' },
        schema: {
          tags: ['services'],
          summary: 'Clear the service photo (editors)',
          params: serviceParams,
          response: serviceResponses,
        },
      },
      async (request) => clearServiceIcon(ctx, await requireCaller(ctx, request), request.params.service),
    );
  };
}
