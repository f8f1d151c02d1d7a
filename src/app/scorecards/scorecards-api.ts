import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { BodyOf } from '../../contract/operation.js';
import { scorecardOperations } from '../../contract/operations/scorecards.js';
import type { Scorecard } from '../../contract/scorecards.js';
import type { ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';

export const SCORECARDS_PATH = '/scorecards';
export const scorecardPath = (handle: string) => `${SCORECARDS_PATH}/${handle}`;
/** Where admins define scorecards (beside the status pages, in the admin area). */
export const SCORECARD_EDITOR_PATH = '/admin/scorecards';
export const scorecardEditorPath = (handle: string) => `${SCORECARD_EDITOR_PATH}/${encodeURIComponent(handle)}`;

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

export type ScorecardCreateBody = BodyOf<(typeof scorecardOperations)['createScorecard']>;
export type ScorecardUpdateBody = BodyOf<(typeof scorecardOperations)['updateScorecard']>;

export function createScorecard(api: ApiClient, body: ScorecardCreateBody): Promise<Scorecard> {
  return api.call(scorecardOperations.createScorecard, { body });
}

export function updateScorecard(api: ApiClient, handle: string, body: ScorecardUpdateBody): Promise<Scorecard> {
  return api.call(scorecardOperations.updateScorecard, { params: { scorecard: handle }, body });
}

export function deleteScorecard(api: ApiClient, handle: string): Promise<null> {
  return api.call(scorecardOperations.deleteScorecard, { params: { scorecard: handle } });
}

/** Every read a definition decides: the scorecards, their results and history, and the services' tabs. */
function refreshResults(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: keys.scorecards() });
  void queryClient.invalidateQueries({
    predicate: (query) => query.queryKey[0] === 'service' && query.queryKey[2] === 'scorecards',
  });
}

/** After a save: the scorecard is the server's answer (evaluated anew), and what it decides reloads. */
export function storeScorecard(queryClient: QueryClient, card: Scorecard): void {
  refreshResults(queryClient);
  queryClient.setQueryData(keys.scorecard(card.handle), card);
}

/** After a delete: the scorecard is forgotten, and what it decided reloads. */
export function forgetScorecard(queryClient: QueryClient, handle: string): void {
  queryClient.removeQueries({ queryKey: keys.scorecard(handle) });
  refreshResults(queryClient);
}
