import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Member, Service, Team } from '../../contract/catalogue.js';
import { teamServiceCount } from '../../domain/catalogue.js';
import type { Page } from '../../domain/pagination.js';
import { getPage, type ApiClient } from '../api/client.js';
import type { FeedEvent } from '../components/feed-list.js';
import type { Crumbs } from '../shell/breadcrumb.js';
import { retryUnlessClientError } from '../users/query-retry.js';

/** Spec catalogue 8: shown when the team cannot be loaded. */
export const TEAM_NOT_FOUND = 'The team was not found';

/** The team's API path, which is also its screen's route: /teams/{handle}. */
export function teamPath(handle: string): string {
  return `/teams/${encodeURIComponent(handle)}`;
}

export interface TeamSearch extends Page {
  q: string;
}

/** The team by route id; a failure (404) is the not-found view. */
export function getTeamQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: ['team', id] as const,
    queryFn: () => api.get<Team>(teamPath(id)),
    retry: retryUnlessClientError,
  });
}

export function getTeamSearchQueryOptions(api: ApiClient, params: TeamSearch) {
  return queryOptions({
    queryKey: ['teams', 'search', params] as const,
    queryFn: () => getPage<Team>(api, '/search/teams', { cursor: params.cursor, limit: params.limit, q: params.q }),
    retry: retryUnlessClientError,
  });
}

export function getTeamMembersQueryOptions(api: ApiClient, team: string, page: Page) {
  return queryOptions({
    queryKey: ['team', team, 'members', page] as const,
    queryFn: () => getPage<Member>(api, `${teamPath(team)}/members`, { cursor: page.cursor, limit: page.limit }),
    retry: retryUnlessClientError,
  });
}

export function getTeamServicesQueryOptions(api: ApiClient, team: string, page: Page) {
  return queryOptions({
    queryKey: ['team', team, 'services', page] as const,
    queryFn: () => getPage<Service>(api, `${teamPath(team)}/services`, { cursor: page.cursor, limit: page.limit }),
    retry: retryUnlessClientError,
  });
}

export function getSubTeamsQueryOptions(api: ApiClient, team: string, page: Page) {
  return queryOptions({
    queryKey: ['team', team, 'teams', page] as const,
    queryFn: () => getPage<Team>(api, `${teamPath(team)}/teams`, { cursor: page.cursor, limit: page.limit }),
    retry: retryUnlessClientError,
  });
}

/** Spec catalogue 7: services and sub-teams, each asked with limit=1, their totals summed. */
export function getTeamServiceCountQueryOptions(api: ApiClient, team: string) {
  return queryOptions({
    queryKey: ['team', team, 'service-count'] as const,
    queryFn: async () => {
      const [services, teams] = await Promise.all([
        getPage<Service>(api, `${teamPath(team)}/services`, { limit: 1 }),
        getPage<Team>(api, `${teamPath(team)}/teams`, { limit: 1 }),
      ]);
      return teamServiceCount(services.total, teams.total);
    },
    retry: retryUnlessClientError,
  });
}

export function getTeamPublicFeedQueryOptions(api: ApiClient, team: string) {
  return queryOptions({
    queryKey: ['team', team, 'public-feed'] as const,
    queryFn: () => api.get<FeedEvent[]>(`${teamPath(team)}/public-feed`),
    retry: retryUnlessClientError,
  });
}

/** The breadcrumb of a team tab: the team's avatar and name linking to it, then the tab's label. */
export function teamCrumbs(team: Team, label: string): Crumbs {
  return { name: team.name, to: teamPath(team.handle), avatarUrl: team.thumbnail_url, crumbs: [{ label }] };
}

/** After a change to a team's members or fields: its record (by handle and by id) and the teams lists refetch. */
export function invalidateTeam(queryClient: QueryClient, team: Pick<Team, 'id' | 'handle'>): void {
  void queryClient.invalidateQueries({ queryKey: ['team', team.handle], exact: true });
  void queryClient.invalidateQueries({ queryKey: ['team', team.id], exact: true });
  void queryClient.invalidateQueries({ queryKey: ['teams'] });
}
