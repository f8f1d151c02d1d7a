import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { Service } from '../../contract/catalogue.js';
import type { HealthCheck, HealthCheckResult } from '../../contract/health.js';
import type { BodyOf } from '../../contract/operation.js';
import { healthOperations } from '../../contract/operations/health.js';
import { dailyHealthReportFrom, type DailyHealthRollup } from '../../domain/health.js';
import type { ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { rollupDailyHealthOffThread } from './rollup-client.js';
import { servicePath } from '../routing/paths.js';

type HealthCheckCreate = BodyOf<typeof healthOperations.createHealthCheck>;
type HealthCheckUpdate = BodyOf<typeof healthOperations.updateHealthCheck>;
type HealthCheckTest = BodyOf<typeof healthOperations.testHealthCheck>;

/** The health checks tab of a service: /services/{handle}/health-checks. */
export const healthChecksScreenPath = (service: string) => `${servicePath(service)}/health-checks`;

export function getHealthChecksQueryOptions(api: ApiClient, service: string) {
  return queryOptions({
    queryKey: keys.serviceHealthChecks(service),
    queryFn: () => api.call(healthOperations.listHealthChecks, { params: { service } }),
  });
}

/** The last 24 hours of a check's results, oldest first (the server's default range). */
export function getHealthCheckResultsQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: keys.healthCheckResults(id),
    queryFn: () => api.call(healthOperations.listHealthCheckResults, { params: { id } }),
  });
}

/**
 * A check's aggregates (probes, failures, p50/p95/max of the successful probes) per `bucket` over the last
 * `spanMs` to now, oldest first (docs/api.md#health-check-reports). The range is taken when the fetch runs, so the key
 * stays the same and what was last seen is kept offline like every other read.
 */
export function getHealthCheckAggregatesQueryOptions(
  api: ApiClient,
  id: string,
  bucket: 'minute' | 'hour' | 'day',
  span: { id: string; ms: number },
) {
  return queryOptions({
    queryKey: keys.healthCheckAggregates(id, bucket, span.id),
    queryFn: () => {
      const to = Date.now();
      return api.call(healthOperations.listHealthCheckAggregates, {
        params: { id },
        query: { from: new Date(to - span.ms).toISOString(), to: new Date(to).toISOString(), bucket },
      });
    },
  });
}

/** The daily-health report from `from` (ISO) to now. */
export function getServiceHealthDailyQueryOptions(api: ApiClient, service: string, from: string) {
  return queryOptions({
    queryKey: keys.serviceDailyHealth(service, from),
    queryFn: () => api.call(healthOperations.getServiceHealthDaily, { params: { service }, query: { from } }),
  });
}

export function createHealthCheck(api: ApiClient, service: string, body: HealthCheckCreate): Promise<HealthCheck> {
  return api.call(healthOperations.createHealthCheck, { params: { service }, body });
}

export function updateHealthCheck(api: ApiClient, id: string, body: HealthCheckUpdate): Promise<HealthCheck> {
  return api.call(healthOperations.updateHealthCheck, { params: { id }, body });
}

/**
 * Runs the check as the form has it once, saving nothing (docs/decisions.md#checks): one result, every assertion's
 * actual.
 */
export function testHealthCheck(api: ApiClient, service: string, body: HealthCheckTest): Promise<HealthCheckResult> {
  return api.call(healthOperations.testHealthCheck, { params: { service }, body });
}

/** A heartbeat's new secret ping URL; the old one stops working at once. */
export function rotatePingUrl(api: ApiClient, id: string): Promise<HealthCheck> {
  return api.call(healthOperations.rotateHeartbeatPingUrl, { params: { id } });
}

/**
 * After a check is added or changed: the answer goes into the service's list at once (added at the end, or in
 * its place), then the list refetches. Each card's results follow their own key.
 */
export function storeHealthCheck(queryClient: QueryClient, service: string, saved: HealthCheck): Promise<void> {
  queryClient.setQueryData<HealthCheck[]>(keys.serviceHealthChecks(service), (list) => {
    if (!list) return list;
    return list.some((check) => check.id === saved.id)
      ? list.map((check) => (check.id === saved.id ? saved : check))
      : [...list, saved];
  });
  return queryClient.invalidateQueries({ queryKey: keys.serviceHealthChecks(service) });
}

/**
 * A service's daily health rolled up for display (uptime, each day's status and messages), computed in the
 * health worker. The report starts at the later of the service's creation and the first of the last 90 days.
 */
export function useServiceHealth(service: Pick<Service, 'handle' | 'created_at'>) {
  const api = useApi();
  const now = Date.now();
  const from = new Date(dailyHealthReportFrom(Date.parse(service.created_at), now)).toISOString();
  const report = useQuery(getServiceHealthDailyQueryOptions(api, service.handle, from));
  const rollup = useQuery({
    queryKey: keys.healthRollup(service.handle, from, report.dataUpdatedAt),
    queryFn: (): Promise<DailyHealthRollup> => rollupDailyHealthOffThread(report.data ?? [], Date.now()),
    enabled: report.isSuccess,
    // Derived on this device from the report: never stored, never stale on its own.
    staleTime: Infinity,
    placeholderData: keepPreviousData,
    meta: { persist: false },
  });
  return { report, rollup };
}
