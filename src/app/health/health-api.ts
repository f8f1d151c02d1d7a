import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { Service } from '../../contract/catalogue.js';
import type { HealthCheck, HealthCheckResult } from '../../contract/health.js';
import { dailyHealthReportFrom, type DailyHealth, type DailyHealthRollup } from '../../domain/health.js';
import type { ApiClient } from '../api/client.js';
import { useAuth } from '../auth/auth-context.js';
import { servicePath } from '../services/service-api.js';
import { retryUnlessClientError } from '../users/query-retry.js';
import { rollupDailyHealthOffThread } from './rollup-client.js';

/** A team runner as GET /teams/{team}/runners lists it; the health-check form only needs these. */
export interface RunnerOption {
  handle: string;
  name: string;
}

export const healthCheckPath = (id: string) => `/health-checks/${encodeURIComponent(id)}`;
export const healthChecksPath = (service: string) => `${servicePath(service)}/health-checks`;
export const healthChecksScreenPath = (service: string) => `/services/${encodeURIComponent(service)}/health-checks`;

const healthChecksKey = (service: string) => ['service', service, 'health-checks'] as const;

export function getHealthChecksQueryOptions(api: ApiClient, service: string) {
  return queryOptions({
    queryKey: healthChecksKey(service),
    queryFn: () => api.get<HealthCheck[]>(healthChecksPath(service)),
    retry: retryUnlessClientError,
  });
}

/** The last 24 hours of a check's results, oldest first (the server's default range). */
export function getHealthCheckResultsQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: ['health-check', id, 'results'] as const,
    queryFn: () => api.get<HealthCheckResult[]>(`${healthCheckPath(id)}/reports/health-check-results`),
    retry: retryUnlessClientError,
  });
}

/** The daily-health report from `from` (ISO) to now. */
export function getServiceHealthDailyQueryOptions(api: ApiClient, service: string, from: string) {
  return queryOptions({
    queryKey: ['service', service, 'health-daily', from] as const,
    queryFn: () => api.get<DailyHealth[]>(`${servicePath(service)}/reports/service-health-daily`, { from }),
    retry: retryUnlessClientError,
  });
}

/**
 * The runners of the service's owner team, for the runner select. The key is the team's runners key with one
 * more part, so invalidating the team's runners refreshes it too without sharing another screen's data shape.
 */
export function getTeamRunnerOptionsQueryOptions(api: ApiClient, team: string) {
  return queryOptions({
    queryKey: ['team', team, 'runners', 'health-check-options'] as const,
    queryFn: async () => {
      const runners = await api.get<unknown>(`/teams/${encodeURIComponent(team)}/runners`);
      return Array.isArray(runners) ? (runners as RunnerOption[]) : [];
    },
    retry: retryUnlessClientError,
  });
}

/**
 * After a check is added or changed: the answer goes into the service's list at once (added at the end, or in
 * its place), then the list refetches. Each card's results follow their own key.
 */
export function storeHealthCheck(queryClient: QueryClient, service: string, saved: HealthCheck): Promise<void> {
  queryClient.setQueryData<HealthCheck[]>(healthChecksKey(service), (list) => {
    if (!list) return list;
    return list.some((check) => check.id === saved.id)
      ? list.map((check) => (check.id === saved.id ? saved : check))
      : [...list, saved];
  });
  return queryClient.invalidateQueries({ queryKey: healthChecksKey(service) });
}

/**
 * A service's daily health rolled up for display (uptime, each day's status and messages), computed in the
 * health worker. The report starts at the later of the service's creation and the first of the last 90 days.
 */
export function useServiceHealth(service: Pick<Service, 'handle' | 'created_at'>) {
  const { api } = useAuth();
  const now = Date.now();
  const from = new Date(dailyHealthReportFrom(Date.parse(service.created_at), now)).toISOString();
  const report = useQuery(getServiceHealthDailyQueryOptions(api, service.handle, from));
  const rollup = useQuery({
    queryKey: ['health-rollup', service.handle, from, report.dataUpdatedAt] as const,
    queryFn: (): Promise<DailyHealthRollup> => rollupDailyHealthOffThread(report.data ?? [], Date.now()),
    enabled: report.isSuccess,
    // Derived on this device from the report: never stored, never stale on its own.
    staleTime: Infinity,
    placeholderData: keepPreviousData,
    meta: { persist: false },
  });
  return { report, rollup };
}
