import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Team } from '../../contract/catalogue.js';
import { clientOperations } from '../../contract/operations/clients.js';
import { feedOperations } from '../../contract/operations/feeds.js';
import { serviceOperations } from '../../contract/operations/services.js';
import { teamOperations } from '../../contract/operations/teams.js';
import { teamServiceCount } from '../../domain/catalogue.js';
import type { Page } from '../../domain/pagination.js';
import type { ApiClient } from '../api/client.js';
import { keys, type SearchPage } from '../api/query-keys.js';
import type { Crumbs } from '../shell/breadcrumb.js';
import { teamPath } from '../routing/paths.js';

/** Spec catalogue 8: shown when the team cannot be loaded. */
export const TEAM_NOT_FOUND = 'The team was not found';

export function getTeamSearchQueryOptions(api: ApiClient, params: SearchPage) {
  return queryOptions({
    queryKey: keys.teamSearch(params),
    queryFn: () => api.page(teamOperations.searchTeams, { query: params }),
  });
}

export function getTeamMembersQueryOptions(api: ApiClient, team: string, page: Page) {
  return queryOptions({
    queryKey: keys.teamMembers(team, page),
    queryFn: () => api.page(teamOperations.listTeamMembers, { params: { team }, query: page }),
  });
}

export function getTeamServicesQueryOptions(api: ApiClient, team: string, page: Page) {
  return queryOptions({
    queryKey: keys.teamServices(team, page),
    queryFn: () => api.page(serviceOperations.listTeamServices, { params: { team }, query: page }),
  });
}

export function getSubTeamsQueryOptions(api: ApiClient, team: string, page: Page) {
  return queryOptions({
    queryKey: keys.subTeams(team, page),
    queryFn: () => api.page(teamOperations.listSubTeams, { params: { team }, query: page }),
  });
}

/** Spec catalogue 7: services and sub-teams, each asked with limit=1, their totals summed. */
export function getTeamServiceCountQueryOptions(api: ApiClient, team: string) {
  const input = { params: { team }, query: { limit: 1 } };
  return queryOptions({
    queryKey: keys.teamServiceCount(team),
    queryFn: async () => {
      const [services, teams] = await Promise.all([
        api.page(serviceOperations.listTeamServices, input),
        api.page(teamOperations.listSubTeams, input),
      ]);
      return teamServiceCount(services.total, teams.total);
    },
  });
}

export function getTeamPublicFeedQueryOptions(api: ApiClient, team: string) {
  return queryOptions({
    queryKey: keys.teamPublicFeed(team),
    queryFn: () => api.call(feedOperations.getTeamPublicFeed, { params: { team } }),
  });
}

/** The team's API clients (Settings, team admins). */
export function getTeamClientsQueryOptions(api: ApiClient, team: string) {
  return queryOptions({
    queryKey: keys.teamClients(team),
    queryFn: () => api.call(clientOperations.listClients, { params: { team } }),
  });
}

/** The breadcrumb of a team tab: the team's avatar and name linking to it, then the tab's label. */
export function teamCrumbs(team: Team, label: string): Crumbs {
  return { name: team.name, to: teamPath(team.handle), avatarUrl: team.thumbnail_url, crumbs: [{ label }] };
}

/** After a change to a team's members or fields: its record (by handle and by id) and the teams lists refetch. */
export function invalidateTeam(queryClient: QueryClient, team: Pick<Team, 'id' | 'handle'>): void {
  void queryClient.invalidateQueries({ queryKey: keys.team(team.handle), exact: true });
  void queryClient.invalidateQueries({ queryKey: keys.team(team.id), exact: true });
  void queryClient.invalidateQueries({ queryKey: keys.teams() });
}
