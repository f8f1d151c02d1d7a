import type { FastifyInstance } from 'fastify';
import { serviceOperations } from '../../contract/operations/services.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import { keptServiceAnswer, keptServicesAnswer, keptTeamServicesAnswer } from '../cache/catalogue-cache.js';
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
} from '../services/catalogue/services.js';
import { readIconUpload } from './uploads.js';

export function serviceRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(
      ctx,
      app,
      serviceOperations,
      {
        searchServices: async ({ caller, query }) => {
          const { services, total } = await searchServices(ctx, caller, query);
          return { items: services, total };
        },
        listTeamServices: async ({ caller, params, query }) => {
          const { services, total } = await listTeamServices(ctx, caller, params.team, query);
          return { items: services, total };
        },
        createService: ({ caller, params, body }) => createService(ctx, caller, params.team, body),
        getService: ({ caller, params }) => getService(ctx, caller, params.service),
        updateService: ({ caller, params, body }) => updateServiceFields(ctx, caller, params.service, body),
        deleteService: async ({ caller, params }) => {
          await deleteService(ctx, caller, params.service);
          return null;
        },
        reparentService: ({ caller, params, body }) => reparentService(ctx, caller, params.service, body.owner.id),
        changeServiceHealth: ({ caller, params, body }) => changeService(ctx, caller, params.service, body),
        changeServiceVisibility: ({ caller, params, body }) => changeService(ctx, caller, params.service, body),
        changeServiceStage: ({ caller, params, body }) => changeService(ctx, caller, params.service, body),
        uploadServiceIcon: async ({ caller, params, request }) =>
          setServiceIcon(ctx, caller, params.service, await readIconUpload(request, ctx.config.maxUploadBytes)),
        clearServiceIcon: ({ caller, params }) => clearServiceIcon(ctx, caller, params.service),
      },
      {
        searchServices: { keep: keptServicesAnswer },
        listTeamServices: { keep: keptTeamServicesAnswer },
        getService: { keep: keptServiceAnswer },
      },
    );
}
