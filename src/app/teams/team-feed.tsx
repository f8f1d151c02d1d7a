import { useQuery } from '@tanstack/react-query';
import { useApi } from '../session/use-api.js';
import { FeedList } from '../components/feed-list.js';
import { getTeamPublicFeedQueryOptions } from './teams-api.js';

/** The team's public feed: spinner while loading, 'No Events' when empty or failed (the feed is not served yet). */
export function TeamPublicFeed({ handle }: { handle: string }) {
  const api = useApi();
  const feed = useQuery(getTeamPublicFeedQueryOptions(api, handle));
  return <FeedList feed={feed} label="Public feed" />;
}
