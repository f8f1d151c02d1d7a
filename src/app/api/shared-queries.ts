/**
 * The reads that more than one feature makes, each once: one function, one key, one cache entry (a feature's
 * other reads sit beside it, in its own `*-api.ts`).
 */
import { queryOptions } from '@tanstack/react-query';
import { runnerOperations } from '../../contract/operations/runners.js';
import { starOperations } from '../../contract/operations/stars.js';
import { teamOperations } from '../../contract/operations/teams.js';
import { userTeamOperations } from '../../contract/operations/user-teams.js';
import type { ApiClient } from './client.js';
import { keys } from './query-keys.js';

/** A team by handle or id (its screen, a create form's breadcrumb); a 404 is the not-found view. */
export function getTeamQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: keys.team(id),
    queryFn: () => api.call(teamOperations.getTeam, { params: { team: id } }),
  });
}

/** A team's runners: its Runners page, and the runner choices of its services' health checks. */
export function getTeamRunnersQueryOptions(api: ApiClient, team: string) {
  return queryOptions({
    queryKey: keys.teamRunners(team),
    queryFn: () => api.call(runnerOperations.listRunners, { params: { team } }),
  });
}

/** The teams a user belongs to: the profile's Teams tab, Home's own teams, Create Service's owner choices. */
export function getUserTeamsQueryOptions(api: ApiClient, username: string) {
  return queryOptions({
    queryKey: keys.userTeams(username),
    queryFn: () => api.call(userTeamOperations.listUserTeams, { params: { username } }),
  });
}

/** The services a user starred: Home's Starred Services, and read at sign-in (spec section 4). */
export function getStarredQueryOptions(api: ApiClient, username: string) {
  return queryOptions({
    queryKey: keys.userStarred(username),
    queryFn: () => api.call(starOperations.listStarredServices, { params: { username } }),
  });
}
