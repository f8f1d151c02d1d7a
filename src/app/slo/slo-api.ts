import { queryOptions } from '@tanstack/react-query';
import { sloOperations } from '../../contract/operations/slo.js';
import type { Slo } from '../../domain/slo.js';
import { ApiError, type ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';

/** A 404 is an answer here: the service has no SLO (kept offline like any other). */
async function noneWhenMissing<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function getSloQueryOptions(api: ApiClient, service: string) {
  return queryOptions({
    queryKey: keys.serviceSlo(service),
    queryFn: () => noneWhenMissing(api.call(sloOperations.getSlo, { params: { service } })),
  });
}

export function getSloStatusQueryOptions(api: ApiClient, service: string) {
  return queryOptions({
    queryKey: keys.serviceSloStatus(service),
    queryFn: () => noneWhenMissing(api.call(sloOperations.getSloStatus, { params: { service } })),
    // Burn rates move with the clock, not only with changes.
    refetchInterval: 60_000,
  });
}

export const setSlo = (api: ApiClient, service: string, body: Slo) =>
  api.call(sloOperations.setSlo, { params: { service }, body });

export const deleteSlo = (api: ApiClient, service: string) =>
  api.call(sloOperations.deleteSlo, { params: { service } });
