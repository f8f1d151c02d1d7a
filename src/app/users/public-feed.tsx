import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiClient } from '../api/client.js';
import { useAuth } from '../auth/auth-context.js';
import { FeedList, type FeedEvent } from '../components/feed-list.js';
import { retryUnlessClientError } from './query-retry.js';

export function getUserPublicFeedQueryOptions(api: ApiClient, handle: string) {
  return queryOptions({
    queryKey: ['user', handle, 'public-feed'] as const,
    queryFn: () => api.get<FeedEvent[]>(`/users/${encodeURIComponent(handle)}/public-feed`),
    retry: retryUnlessClientError,
  });
}

/** A user's public feed: spinner while loading, 'No Events' when empty or failed. */
export function UserPublicFeed({ handle }: { handle: string }) {
  const { api } = useAuth();
  const feed = useQuery(getUserPublicFeedQueryOptions(api, handle));
  return <FeedList feed={feed} label="Public feed" />;
}
