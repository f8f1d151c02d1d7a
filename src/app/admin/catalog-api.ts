/**
 * The catalogue as code in the admin area (docs/decisions.md#catalogue-as-code): sources, what is not in sync, plans
 * and applying them.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { CatalogPlanAnswer, CatalogSource } from '../../contract/catalog.js';
import type { BodyOf } from '../../contract/operation.js';
import { catalogOperations } from '../../contract/operations/catalog.js';
import type { PlanAction } from '../../domain/catalog-plan.js';
import type { DescriptorFile } from '../../domain/descriptors.js';
import type { ApiClient } from '../api/client.js';

export const CATALOG_PATH = '/admin/catalog';
export type EntityFilter = 'all' | 'errored' | 'orphaned' | 'conflict';
export type SourceCreateBody = BodyOf<(typeof catalogOperations)['createCatalogSource']>;

export const catalogKeys = {
  all: () => ['catalog'] as const,
  sources: () => ['catalog', 'sources'] as const,
  entities: (filter: EntityFilter, cursor: number) => ['catalog', 'entities', filter, cursor] as const,
};

export const ENTITIES_PAGE_SIZE = 20;

export function getSourcesQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: catalogKeys.sources(),
    queryFn: () => api.call(catalogOperations.listCatalogSources),
  });
}

export function getEntitiesQueryOptions(api: ApiClient, filter: EntityFilter, cursor: number) {
  return queryOptions({
    queryKey: catalogKeys.entities(filter, cursor),
    queryFn: () =>
      api.page(catalogOperations.listCatalogEntities, {
        query: { cursor, limit: ENTITIES_PAGE_SIZE, ...(filter === 'all' ? {} : { state: filter }) },
      }),
  });
}

export function createSource(api: ApiClient, body: SourceCreateBody): Promise<CatalogSource> {
  return api.call(catalogOperations.createCatalogSource, { body });
}

export function syncSource(api: ApiClient, id: string): Promise<CatalogSource> {
  return api.call(catalogOperations.syncCatalogSource, { params: { source: id } });
}

export function deleteSource(api: ApiClient, id: string): Promise<null> {
  return api.call(catalogOperations.deleteCatalogSource, { params: { source: id } });
}

export function planFiles(api: ApiClient, files: DescriptorFile[], source: string | null): Promise<CatalogPlanAnswer> {
  return api.call(catalogOperations.createCatalogPlan, { body: { files, ...(source ? { source } : {}) } });
}

export function applyPlan(api: ApiClient, id: string): Promise<CatalogPlanAnswer> {
  return api.call(catalogOperations.applyCatalogPlan, { params: { plan: id } });
}

/** After an apply or a sync, the catalogue itself changed: every read of it is read again. */
export function forgetCatalogue(queryClient: QueryClient): void {
  void queryClient.invalidateQueries();
}

/** The files a person picked, as a plan takes them (by name: a folder's files keep their relative path). */
export async function readPickedFiles(list: FileList | readonly File[]): Promise<DescriptorFile[]> {
  return Promise.all(
    [...list].map(async (file) => ({
      path: (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name,
      content: await file.text(),
    })),
  );
}

/** How each action reads in the plan, and its icon. */
export const ACTION_LABELS: Record<PlanAction, { label: string; icon: string; severity: string }> = {
  create: { label: 'Create', icon: 'pi pi-plus-circle', severity: 'success' },
  update: { label: 'Update', icon: 'pi pi-pencil', severity: 'info' },
  unchanged: { label: 'Unchanged', icon: 'pi pi-check', severity: 'secondary' },
  delete: { label: 'Delete', icon: 'pi pi-trash', severity: 'danger' },
  conflict: { label: 'Conflict', icon: 'pi pi-exclamation-triangle', severity: 'warning' },
  error: { label: 'Error', icon: 'pi pi-times-circle', severity: 'danger' },
  skipped: { label: 'Skipped', icon: 'pi pi-minus-circle', severity: 'secondary' },
};
