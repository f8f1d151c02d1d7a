import { useQuery } from '@tanstack/react-query';
import { useApi } from '../session/use-api.js';
import { FeedList } from '../components/feed-list.js';
import { getUserPublicFeedQueryOptions } from './users-api.js';

/** A user's public feed: spinner while loading, 'No Events' when empty or failed. */
export function UserPublicFeed({ handle }: { handle: string }) {
  const api = useApi();
  const feed = useQuery(getUserPublicFeedQueryOptions(api, handle));
  return <FeedList feed={feed} label="Public feed" />;
}
