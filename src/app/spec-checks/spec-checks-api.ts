import { queryOptions } from '@tanstack/react-query';
import { specCheckOperations } from '../../contract/operations/spec-checks.js';
import type { ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';

export function getDriftQueryOptions(api: ApiClient, service: string) {
  return queryOptions({
    queryKey: keys.serviceDrift(service),
    queryFn: () => api.call(specCheckOperations.listApiDrift, { params: { service } }),
    // Drift comes from the checks' runs, not from this viewer's changes.
    refetchInterval: 60_000,
  });
}

/** `server` empty: the spec's own first server. */
export function getSpecProbesQueryOptions(api: ApiClient, service: string, page: string, server: string) {
  return queryOptions({
    queryKey: keys.serviceSpecProbes(service, page, server),
    queryFn: () =>
      api.call(specCheckOperations.listSpecProbes, {
        params: { service, page },
        query: server ? { server } : {},
      }),
  });
}
