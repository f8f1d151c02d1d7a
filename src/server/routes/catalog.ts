import type { FastifyInstance } from 'fastify';
import { CATALOG_PLAN_BODY_LIMIT } from '../../contract/catalog.js';
import { catalogOperations } from '../../contract/operations/catalog.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import {
  applyPlan,
  createCatalogSource,
  createPlan,
  deleteCatalogSource,
  exportCatalog,
  getCatalogSource,
  listCatalogEntities,
  listCatalogSources,
  syncCatalogSource,
  updateCatalogSource,
} from '../services/descriptors/descriptors.js';

export function catalogRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) => {
    routes(
      ctx,
      app,
      catalogOperations,
      {
        createCatalogPlan: ({ caller, body }) => createPlan(ctx, caller, body),
        applyCatalogPlan: ({ caller, params }) => applyPlan(ctx, caller, params.plan),
        listCatalogSources: ({ caller }) => listCatalogSources(ctx, caller),
        createCatalogSource: ({ caller, body }) => createCatalogSource(ctx, caller, body),
        getCatalogSource: ({ caller, params }) => getCatalogSource(ctx, caller, params.source),
        updateCatalogSource: ({ caller, params, body }) => updateCatalogSource(ctx, caller, params.source, body),
        deleteCatalogSource: async ({ caller, params }) => {
          await deleteCatalogSource(ctx, caller, params.source);
          return null;
        },
        syncCatalogSource: ({ caller, params }) => syncCatalogSource(ctx, caller, params.source),
        listCatalogEntities: ({ caller, query }) => listCatalogEntities(ctx, caller, query),
        exportCatalog: ({ caller }) => exportCatalog(ctx, caller),
      },
      { createCatalogPlan: { bodyLimit: CATALOG_PLAN_BODY_LIMIT } },
    );
  };
}
