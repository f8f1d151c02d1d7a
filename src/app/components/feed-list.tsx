import { Button } from 'primereact/button';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import { useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { FeedEvent } from '../../contract/feeds.js';
import { capitalise } from '../../domain/roles.js';
import { ProfileAvatar } from './avatar.js';
import { isNetworkFailure, LastSynced, NOT_AVAILABLE_OFFLINE } from './load-state.js';
import { Spinner } from './status-screens.js';
import { fromNow } from './from-now.js';

export type { FeedEvent };

/** Spec: '/{profile type}s/{profile handle}'. */
export function feedProfilePath(event: FeedEvent): string {
  return `/${event.profile.type}s/${event.profile.handle}`;
}

export interface FeedListProps {
  /** The feed query's state; a failed or malformed answer shows as empty. */
  feed: {
    data: FeedEvent[] | undefined;
    isPending: boolean;
    isError: boolean;
    error?: unknown;
    dataUpdatedAt?: number;
  };
  /** The list's accessible name, e.g. 'Public feed'. */
  label: string;
  /** Shown while the feed loads. */
  loading?: ReactNode;
  /** Darker secondary text, as on the home panels. */
  strong?: boolean;
  /** Each event's menu (home's Activity: Mute); none when left out. */
  menu?: (event: FeedEvent) => MenuItem[];
  /** Marks what was last seen as such while offline (where the screen does not already). */
  showSynced?: boolean;
}

/** A feed of events: who, by what, when, the title and a link to the profile; 'No Events' when there are none. */
export function FeedList({
  feed,
  label,
  loading = <Spinner label="Loading events" />,
  strong = false,
  menu,
  showSynced = false,
}: FeedListProps) {
  const popup = useRef<Menu>(null);
  const [menuItems, setMenuItems] = useState<MenuItem[]>([]);
  if (feed.isPending) return loading;
  const events = Array.isArray(feed.data) ? feed.data : [];
  if (events.length === 0)
    return (
      <p className="text-600 m-0">
        {feed.data === undefined && feed.isError && isNetworkFailure(feed.error) ? NOT_AVAILABLE_OFFLINE : 'No Events'}
      </p>
    );
  return (
    <>
      {showSynced && feed.dataUpdatedAt !== undefined && (
        <LastSynced query={{ data: feed.data, isError: feed.isError, dataUpdatedAt: feed.dataUpdatedAt }} />
      )}
      {menu && <Menu model={menuItems} popup ref={popup} id={`${label.toLowerCase().replace(/\s+/g, '-')}-menu`} />}
      <ul className="list-none p-0 m-0 flex flex-column gap-3" aria-label={label}>
        {events.map((event) => (
          <li key={event.id} className="flex gap-3 align-items-start">
            <ProfileAvatar name={event.profile.name} url={event.profile.thumbnail_url} />
            <div className="flex-1" style={{ minWidth: 0 }}>
              <div className="flex flex-wrap gap-2 align-items-baseline">
                <span className="font-semibold">{event.profile.name}</span>
                <span className={strong ? 'text-700' : 'text-600'}>{event.agent_name}</span>
                <span className={strong ? 'text-700 text-sm' : 'text-500 text-sm'}>{fromNow(event.created_at)}</span>
              </div>
              <div>{event.title}</div>
              <Link to={feedProfilePath(event)}>View {capitalise(event.profile.type)}</Link>
            </div>
            {menu && (
              <Button
                type="button"
                icon="pi pi-ellipsis-v"
                text
                rounded
                size="small"
                className="flex-none"
                aria-label={`Actions for ${event.profile.name}: ${event.title}`}
                aria-haspopup
                onClick={(click) => {
                  setMenuItems(menu(event));
                  popup.current?.toggle(click);
                }}
              />
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
