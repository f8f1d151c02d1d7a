import { queryOptions } from '@tanstack/react-query';
import { scorecardOperations } from '../../contract/operations/scorecards.js';
import type { ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';

export const SCORECARDS_PATH = '/scorecards';
export const scorecardPath = (handle: string) => `${SCORECARDS_PATH}/${handle}`;

/** The matrix's page size: a screen of rows, whatever the scorecard's size. */
export const RESULTS_PAGE_SIZE = 25;

export interface ResultsFilter {
  cursor: number;
  level: string;
  team: string;
}

export function getScorecardsQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: keys.scorecards(),
    queryFn: () => api.call(scorecardOperations.listScorecards),
  });
}

export function getScorecardQueryOptions(api: ApiClient, handle: string) {
  return queryOptions({
    queryKey: keys.scorecard(handle),
    queryFn: () => api.call(scorecardOperations.getScorecard, { params: { scorecard: handle } }),
  });
}

export function getScorecardResultsQueryOptions(api: ApiClient, handle: string, filter: ResultsFilter) {
  const query = {
    cursor: filter.cursor,
    limit: RESULTS_PAGE_SIZE,
    ...(filter.level ? { level: filter.level } : {}),
    ...(filter.team ? { team: filter.team } : {}),
  };
  return queryOptions({
    queryKey: keys.scorecardResults(handle, { ...filter, limit: RESULTS_PAGE_SIZE }),
    queryFn: () => api.page(scorecardOperations.listScorecardResults, { params: { scorecard: handle }, query }),
  });
}

export function getServiceScorecardsQueryOptions(api: ApiClient, service: string) {
  return queryOptions({
    queryKey: keys.serviceScorecards(service),
    queryFn: () => api.call(scorecardOperations.listServiceScorecards, { params: { service } }),
  });
}

/** The last 30 days, ending today (UTC): one cache entry a day. */
export function getScorecardHistoryQueryOptions(api: ApiClient, handle: string) {
  const to = new Date().toISOString().slice(0, 10);
  return queryOptions({
    queryKey: keys.scorecardHistory(handle, to),
    queryFn: () => api.call(scorecardOperations.getScorecardHistory, { params: { scorecard: handle }, query: { to } }),
  });
}
