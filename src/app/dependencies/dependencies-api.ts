/** The dependency side of a service (docs/decisions.md#graph): its reads, each with one key, and its writes. */
import { queryOptions } from '@tanstack/react-query';
import { dependencyOperations } from '../../contract/operations/dependencies.js';
import type { ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';

export function getDependenciesQueryOptions(api: ApiClient, service: string) {
  return queryOptions({
    queryKey: keys.serviceDependencies(service),
    queryFn: () => api.call(dependencyOperations.listDependencies, { params: { service } }),
  });
}

export function getDependentsQueryOptions(api: ApiClient, service: string) {
  return queryOptions({
    queryKey: keys.serviceDependents(service),
    queryFn: () => api.call(dependencyOperations.listDependents, { params: { service } }),
  });
}

export function getRemoteDependenciesQueryOptions(api: ApiClient, service: string) {
  return queryOptions({
    queryKey: keys.serviceRemoteDependencies(service),
    queryFn: () => api.call(dependencyOperations.listRemoteDependencies, { params: { service } }),
  });
}

/** The graph of a service at `depth` (spec default 2). */
export function getServiceGraphQueryOptions(api: ApiClient, service: string, depth: number) {
  return queryOptions({
    queryKey: keys.serviceGraph(service, depth),
    queryFn: () => api.call(dependencyOperations.getServiceGraph, { params: { service }, query: { depth } }),
  });
}
