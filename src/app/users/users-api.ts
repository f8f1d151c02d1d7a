import { queryOptions } from '@tanstack/react-query';
import { feedOperations } from '../../contract/operations/feeds.js';
import { inviteOperations } from '../../contract/operations/invites.js';
import { userOperations } from '../../contract/operations/users.js';
import { DEFAULT_PAGE_SIZE } from '../../domain/pagination.js';
import type { ApiClient } from '../api/client.js';
import { keys, type SearchPage } from '../api/query-keys.js';

/** Spec: users page size 20 from offset 0. */
export const USERS_PAGE_SIZE = DEFAULT_PAGE_SIZE;

export function getUserQueryOptions(api: ApiClient, idOrHandle: string) {
  return queryOptions({
    queryKey: keys.user(idOrHandle),
    queryFn: () => api.call(userOperations.getUser, { params: { username: idOrHandle } }),
  });
}

export function getUsersQueryOptions(api: ApiClient, params: SearchPage) {
  return queryOptions({
    queryKey: keys.userSearch(params),
    queryFn: () => api.page(userOperations.searchUsers, { query: params }),
  });
}

export function getInvitesQueryOptions(api: ApiClient, params: SearchPage) {
  return queryOptions({
    queryKey: keys.invites(params),
    queryFn: () => api.page(inviteOperations.listInvites, { query: params }),
  });
}

export function getUserPublicFeedQueryOptions(api: ApiClient, username: string) {
  return queryOptions({
    queryKey: keys.userPublicFeed(username),
    queryFn: () => api.call(feedOperations.getUserPublicFeed, { params: { username } }),
  });
}
