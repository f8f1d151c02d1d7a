import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ProfileRef, Service, starredItem, Team } from '../../contract/catalogue.js';
import { SERVICES_PAGE_SIZE } from '../../domain/catalogue.js';
import { getPage, type ApiClient } from '../api/client.js';
import { retryUnlessClientError } from '../users/query-retry.js';

export type StarredItem = z.infer<typeof starredItem>;

export interface ServiceListParams {
  cursor: number;
  limit: number;
  q: string;
}

export interface ServicePage {
  items: Service[];
  total: number;
}

/** The owner select lists every team of the workspace; one page of the largest size the API allows. */
export const OWNER_TEAMS_LIMIT = 100;

export const servicePath = (handle: string) => `/services/${encodeURIComponent(handle)}`;

export function getServiceQueryOptions(api: ApiClient, handle: string) {
  return queryOptions({
    queryKey: ['service', handle] as const,
    queryFn: () => api.get<Service>(servicePath(handle)),
    retry: retryUnlessClientError,
  });
}

export function getServicesSearchQueryOptions(api: ApiClient, params: ServiceListParams) {
  return queryOptions({
    queryKey: ['services', 'search', params] as const,
    queryFn: () =>
      getPage<Service>(api, '/search/services', { cursor: params.cursor, limit: params.limit, q: params.q }),
    retry: retryUnlessClientError,
  });
}

export const firstServicesPage = (q = ''): ServiceListParams => ({ cursor: 0, limit: SERVICES_PAGE_SIZE, q });

export function getStarredQueryOptions(api: ApiClient, username: string) {
  return queryOptions({
    queryKey: ['user', username, 'starred'] as const,
    queryFn: () => api.get<StarredItem[]>(`/users/${encodeURIComponent(username)}/starred`),
    retry: retryUnlessClientError,
  });
}

/** The user's own teams (the same key as the profile's Teams tab: one endpoint, one cache entry). */
export function getMyTeamsQueryOptions(api: ApiClient, username: string) {
  return queryOptions({
    queryKey: ['user', username, 'teams'] as const,
    queryFn: () => api.get<Team[]>(`/users/${encodeURIComponent(username)}/teams`),
    retry: retryUnlessClientError,
  });
}

export function getTeamQueryOptions(api: ApiClient, handle: string) {
  return queryOptions({
    queryKey: ['team', handle] as const,
    queryFn: () => api.get<Team>(`/teams/${encodeURIComponent(handle)}`),
    retry: retryUnlessClientError,
  });
}

/** One team's services (the home panel shows them all, so the first page is the one largest page). */
export function getTeamServicesQueryOptions(api: ApiClient, team: string) {
  return queryOptions({
    queryKey: ['team', team, 'services', 'home'] as const,
    queryFn: () => api.get<Service[]>(`/teams/${encodeURIComponent(team)}/services`, { limit: OWNER_TEAMS_LIMIT }),
    retry: retryUnlessClientError,
  });
}

export function getOwnerTeamsQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: ['teams', 'search', { cursor: 0, limit: OWNER_TEAMS_LIMIT, q: '' }] as const,
    queryFn: () => getPage<Team>(api, '/search/teams', { cursor: 0, limit: OWNER_TEAMS_LIMIT }),
    retry: retryUnlessClientError,
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

/**
 * Stops the fetches in flight of every query holding the service, so an answer read before an optimistic edit
 * cannot land after it and undo it (they fetch again when next stale).
 */
export async function cancelServiceFetches(queryClient: QueryClient, handle: string): Promise<void> {
  await queryClient.cancelQueries({
    predicate: (query) =>
      query.state.fetchStatus === 'fetching' &&
      query.state.data !== undefined &&
      editCachedService(query.state.data, handle, (service) => ({ ...service })) !== query.state.data,
  });
}

/** Edits every cached copy of a service, in whichever query holds it. */
export function editServiceEverywhere(
  queryClient: QueryClient,
  handle: string,
  edit: (service: Service) => Service,
): void {
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
  queryClient.setQueryData(['service', service.handle], service);
  editServiceEverywhere(queryClient, service.handle, () => service);
}

export function serviceRef(service: Pick<Service, 'id' | 'handle' | 'name' | 'thumbnail_url'>): ProfileRef {
  return { id: service.id, handle: service.handle, name: service.name, thumbnail_url: service.thumbnail_url };
}
