import { z } from 'zod';
import {
  catalogEntitiesQuery,
  catalogEntity,
  catalogExport,
  catalogPlan,
  catalogSource,
  planCreate,
  planParams,
  sourceCreate,
  sourceParams,
  sourceUpdate,
} from '../catalog.js';
import { defineOperations } from '../operation.js';

const tags = ['catalog'];
/** Workspace admins and owners, and API clients with the scope (checked again by the server for users). */
const manage = { tags, access: 'beacon.catalog.manage' } as const;

/**
 * The catalogue as code (docs/decisions.md#catalogue-as-code): plan descriptor files, apply the plan, keep sources in
 * sync.
 */
export const catalogOperations = defineOperations({
  createCatalogPlan: {
    ...manage,
    method: 'POST',
    path: '/catalog/plans',
    summary:
      'What applying these descriptor files would do, per entity (writes nothing); against a source, its entities ' +
      'the files no longer describe are deleted. The plan can be applied for an hour',
    body: planCreate,
    response: catalogPlan,
    status: 201,
    errors: [400, 401, 403, 404, 413],
  },
  applyCatalogPlan: {
    ...manage,
    method: 'POST',
    path: '/catalog/plans/:plan/actions/apply',
    summary: 'Apply exactly this plan; 409 when the catalogue changed since in a way that changes the plan',
    params: planParams,
    response: catalogPlan,
    errors: [401, 403, 404, 409],
  },
  listCatalogSources: {
    ...manage,
    method: 'GET',
    path: '/catalog/sources',
    summary: "The workspace's sources of descriptor files, with their last sync",
    response: z.array(catalogSource),
    errors: [401, 403],
  },
  createCatalogSource: {
    ...manage,
    method: 'POST',
    path: '/catalog/sources',
    summary: 'Add a source: a URL synced on a schedule, or (without a URL) files uploaded through plans',
    body: sourceCreate,
    response: catalogSource,
    status: 201,
    errors: [400, 401, 403, 409],
  },
  getCatalogSource: {
    ...manage,
    method: 'GET',
    path: '/catalog/sources/:source',
    summary: 'A source (by id or name)',
    params: sourceParams,
    response: catalogSource,
    errors: [401, 403, 404],
  },
  updateCatalogSource: {
    ...manage,
    method: 'PATCH',
    path: '/catalog/sources/:source',
    summary: "Change a source's name, URL, mode or interval",
    params: sourceParams,
    body: sourceUpdate,
    response: catalogSource,
    errors: [400, 401, 403, 404, 409],
  },
  deleteCatalogSource: {
    ...manage,
    method: 'DELETE',
    path: '/catalog/sources/:source',
    summary: 'Remove a source: the entities it managed stay, and Beacon owns them from then on',
    params: sourceParams,
    response: null,
    errors: [401, 403, 404],
  },
  syncCatalogSource: {
    ...manage,
    method: 'POST',
    path: '/catalog/sources/:source/actions/sync',
    summary: 'Sync now: read the URL (or the uploaded files again) and apply. A timeout, 5xx or 404 deletes nothing',
    params: sourceParams,
    response: catalogSource,
    errors: [401, 403, 404],
  },
  exportCatalog: {
    ...manage,
    method: 'GET',
    path: '/catalog/export',
    summary:
      'The workspace as descriptor files: one per team with its Group and its Components, and a Location naming ' +
      'them; planning them answers no changes',
    response: catalogExport,
    errors: [401, 403],
  },
  listCatalogEntities: {
    ...manage,
    method: 'GET',
    path: '/catalog/entities',
    summary: 'What the sources describe that is not synced, and why (errored, orphaned, conflict)',
    query: catalogEntitiesQuery,
    response: z.array(catalogEntity),
    paged: true,
    errors: [400, 401, 403],
  },
});
