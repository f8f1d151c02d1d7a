import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ProfileRef, Service } from '../../contract/catalogue.js';
import type { BodyOf, PageOf } from '../../contract/operation.js';
import { serviceOperations } from '../../contract/operations/services.js';
import { teamOperations } from '../../contract/operations/teams.js';
import { OWNER_PICKER_LIST_MAX, SERVICES_PAGE_SIZE } from '../../domain/catalogue.js';
import type { ApiClient } from '../api/client.js';
import { keys, type SearchPage } from '../api/query-keys.js';

export type ServicePage = PageOf<Service>;

/** The home panel lists a team's services on one page of the largest size the API allows. */
export const HOME_TEAM_SERVICES_LIMIT = 100;

export function getServiceQueryOptions(api: ApiClient, handle: string) {
  return queryOptions({
    queryKey: keys.service(handle),
    queryFn: () => api.call(serviceOperations.getService, { params: { service: handle } }),
  });
}

export function getServicesSearchQueryOptions(api: ApiClient, params: SearchPage) {
  return queryOptions({
    queryKey: keys.serviceSearch(params),
    queryFn: () => api.page(serviceOperations.searchServices, { query: params }),
  });
}

export const firstServicesPage = (q = ''): SearchPage => ({ cursor: 0, limit: SERVICES_PAGE_SIZE, q });

// ---- writes (spec section 4: each answers the service, which replaces the cached one) ----

type Op = typeof serviceOperations;

export function createService(api: ApiClient, team: string, body: BodyOf<Op['createService']>): Promise<Service> {
  return api.call(serviceOperations.createService, { params: { team }, body });
}

export function deleteService(api: ApiClient, handle: string): Promise<null> {
  return api.call(serviceOperations.deleteService, { params: { service: handle } });
}

/** The settings' calls on one service. */
export function serviceEdits(api: ApiClient, handle: string) {
  const params = { service: handle };
  return {
    update: (body: BodyOf<Op['updateService']>) => api.call(serviceOperations.updateService, { params, body }),
    reparent: (owner: string) =>
      api.call(serviceOperations.reparentService, { params, body: { owner: { id: owner } } }),
    changeHealth: (body: BodyOf<Op['changeServiceHealth']>) =>
      api.call(serviceOperations.changeServiceHealth, { params, body }),
    changeVisibility: (body: BodyOf<Op['changeServiceVisibility']>) =>
      api.call(serviceOperations.changeServiceVisibility, { params, body }),
    changeStage: (body: BodyOf<Op['changeServiceStage']>) =>
      api.call(serviceOperations.changeServiceStage, { params, body }),
    uploadIcon: (icon: File) =>
      api.upload(serviceOperations.uploadServiceIcon, { params }, { field: 'icon', value: icon }),
    clearIcon: () => api.call(serviceOperations.clearServiceIcon, { params }),
  };
}

/** One team's services (the home panel shows them all, so the first page is the one largest page). */
export function getTeamServicesQueryOptions(api: ApiClient, team: string) {
  return queryOptions({
    queryKey: keys.teamServicesAll(team),
    queryFn: () =>
      api.call(serviceOperations.listTeamServices, { params: { team }, query: { limit: HOME_TEAM_SERVICES_LIMIT } }),
  });
}

/** The settings owner picker's first teams and their total: past OWNER_PICKER_LIST_MAX the picker searches. */
export function getOwnerTeamsQueryOptions(api: ApiClient) {
  const page = { cursor: 0, limit: OWNER_PICKER_LIST_MAX };
  return queryOptions({
    queryKey: keys.teamSearch({ ...page, q: '' }),
    queryFn: () => api.page(teamOperations.searchTeams, { query: page }),
  });
}

// ---- cache edits ----

function isService(value: unknown): value is Service {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Service).handle === 'string' &&
    typeof (value as Service).starred_count === 'number'
  );
}

/**
 * Applies `edit` to every cached copy of the service `handle`: a service query, a list of services or a page
 * of them. Other cached data is returned as it is (the same object, so nothing re-renders for it).
 */
export function editCachedService(data: unknown, handle: string, edit: (service: Service) => Service): unknown {
  if (isService(data)) return data.handle === handle ? edit(data) : data;
  if (Array.isArray(data)) {
    if (!data.some((item) => isService(item) && item.handle === handle)) return data;
    return data.map((item) => (isService(item) && item.handle === handle ? edit(item) : item));
  }
  if (typeof data === 'object' && data !== null && Array.isArray((data as ServicePage).items)) {
    const page = data as ServicePage;
    const items = editCachedService(page.items, handle, edit);
    return items === page.items ? data : { ...page, items };
  }
  return data;
}

/** Edits every cached copy of a service, in whichever query holds it. */
function editServiceEverywhere(queryClient: QueryClient, handle: string, edit: (service: Service) => Service): void {
  // Only the queries that hold it are written: writing a query marks it fresh.
  for (const query of queryClient.getQueryCache().findAll()) {
    const data = query.state.data;
    if (data === undefined) continue;
    const next = editCachedService(data, handle, edit);
    if (next !== data) queryClient.setQueryData(query.queryKey, next);
  }
}

/**
 * Spec section 4: updates, uploads, icon deletion and health/stage/visibility changes replace the service with
 * the response; the lists holding it follow.
 */
export function replaceService(queryClient: QueryClient, service: Service): void {
  queryClient.setQueryData(keys.service(service.handle), service);
  editServiceEverywhere(queryClient, service.handle, () => service);
}

export function serviceRef(service: Pick<Service, 'id' | 'handle' | 'name' | 'thumbnail_url'>): ProfileRef {
  return { id: service.id, handle: service.handle, name: service.name, thumbnail_url: service.thumbnail_url };
}
