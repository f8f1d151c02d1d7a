import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Skeleton } from 'primereact/skeleton';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Service } from '../../contract/catalogue.js';
import { feedOperations } from '../../contract/operations/feeds.js';
import type { ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';
import { useAuth } from '../session/auth-context.js';
import { ProfileAvatar } from '../components/avatar.js';
import { FeedList, type FeedEvent } from '../components/feed-list.js';
import { useWrite } from '../local/local-provider.js';
import { MUTE_ALL, muteWrite } from '../users/index.js';
import { HealthStatus } from '../services/index.js';
import { getTeamServicesQueryOptions } from '../services/index.js';
import { GuidedTour, HOME_TOUR_STEPS } from './guided-tour.js';
import { getStarredQueryOptions, getUserTeamsQueryOptions } from '../api/shared-queries.js';
import { servicePath, teamPath } from '../routing/paths.js';

/** Spec: placeholder rows while a panel loads, 3 by default. */
export const PLACEHOLDER_ROWS = 3;

export function getActivityFeedQueryOptions(api: ApiClient, username: string) {
  return queryOptions({
    queryKey: keys.userFeed(username),
    queryFn: () => api.call(feedOperations.getUserFeed, { params: { username } }),
  });
}

function PlaceholderRows({ label, count = PLACEHOLDER_ROWS }: { label: string; count?: number }) {
  return (
    <div role="status" aria-label={label} aria-busy="true" className="flex flex-column gap-3">
      {Array.from({ length: count }, (_, row) => (
        <div key={row} className="flex align-items-center gap-2" data-placeholder-row>
          <Skeleton shape="circle" size="2rem" />
          <div className="flex-1 flex flex-column gap-1">
            <Skeleton width="70%" height="0.9rem" />
            <Skeleton width="40%" height="0.7rem" />
          </div>
        </div>
      ))}
    </div>
  );
}

function Panel({ title, id, children }: { title: string; id?: string; children: ReactNode }) {
  const headingId = `${id ?? title.toLowerCase().replace(/\s+/g, '-')}-title`;
  return (
    <section id={id} aria-labelledby={headingId}>
      <Card
        title={
          <h2 id={headingId} className="text-lg font-semibold m-0">
            {title}
          </h2>
        }
      >
        {children}
      </Card>
    </section>
  );
}

function EmptyText({ children }: { children: string }) {
  return <p className="m-0 text-600">{children}</p>;
}

/** My Services: the services of the user's teams, each once. */
function MyServices({ username }: { username: string }) {
  const { api } = useAuth();
  const teams = useQuery(getUserTeamsQueryOptions(api, username));
  const teamList = Array.isArray(teams.data) ? teams.data : [];
  const services = useQueries({
    queries: teamList.map((team) => getTeamServicesQueryOptions(api, team.handle)),
    combine: (results) => {
      const byHandle = new Map<string, Service>();
      for (const result of results)
        if (Array.isArray(result.data)) for (const service of result.data) byHandle.set(service.handle, service);
      return {
        pending: results.some((result) => result.isPending),
        list: [...byHandle.values()].sort((a, b) => a.name.localeCompare(b.name)),
      };
    },
  });

  let body: ReactNode;
  if (teams.isPending || services.pending) body = <PlaceholderRows label="Loading services" />;
  else if (services.list.length === 0) body = <EmptyText>No Services</EmptyText>;
  else
    body = (
      <ul className="list-none p-0 m-0 flex flex-column gap-3" aria-label="My services">
        {services.list.map((service) => (
          <li key={service.id} className="flex align-items-center gap-2">
            <ProfileAvatar name={service.name} url={service.thumbnail_url} />
            <div className="flex flex-column" style={{ minWidth: 0 }}>
              <Link to={servicePath(service.handle)} className="font-semibold">
                {service.name}
              </Link>
              <span className="text-sm text-700">
                Status: <HealthStatus health={service.health} />
              </span>
            </div>
          </li>
        ))}
      </ul>
    );
  return <Panel title="My Services">{body}</Panel>;
}

function MyTeams({ username }: { username: string }) {
  const { api } = useAuth();
  const { data, isPending } = useQuery(getUserTeamsQueryOptions(api, username));
  const teams = Array.isArray(data) ? data : [];
  return (
    <Panel title="My Teams">
      {isPending ? (
        <PlaceholderRows label="Loading teams" />
      ) : teams.length === 0 ? (
        <EmptyText>No Teams</EmptyText>
      ) : (
        <ul className="list-none p-0 m-0 flex flex-column gap-3" aria-label="My teams">
          {teams.map((team) => (
            <li key={team.id} className="flex align-items-center gap-2">
              <ProfileAvatar name={team.name} url={team.thumbnail_url} />
              <div className="flex flex-column">
                <Link to={teamPath(team.handle)} className="font-semibold">
                  {team.name}
                </Link>
                <span className="text-sm text-700">Members: {team.member_count}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

/**
 * The activity feed: events of the user's watched services and teams, each with a menu to mute its profile
 * (through the outbox: the profile's events leave the feed at once, online or not).
 */
function ActivityFeed({ username }: { username: string }) {
  const { api } = useAuth();
  const write = useWrite();
  const feed = useQuery(getActivityFeedQueryOptions(api, username));
  const mute = (event: FeedEvent) => {
    const input = { params: { username, profile: event.profile.id }, body: MUTE_ALL };
    // A refused write is undone by the write path (the feed is read again).
    void write(muteWrite, input, { label: `Mute ${event.profile.name}` }).catch(() => undefined);
  };
  return (
    <Panel title="Activity" id="home-activity">
      <FeedList
        feed={feed}
        label="Activity feed"
        loading={<PlaceholderRows label="Loading events" />}
        strong
        showSynced
        menu={(event) =>
          event.profile.id ? [{ label: 'Mute', icon: 'pi pi-volume-off', command: () => mute(event) }] : []
        }
      />
    </Panel>
  );
}

function StarredServices({ username }: { username: string }) {
  const { api } = useAuth();
  const { data, isPending } = useQuery(getStarredQueryOptions(api, username));
  const starred = Array.isArray(data) ? data : [];
  return (
    <Panel title="Starred Services" id="home-starred">
      {isPending ? (
        <PlaceholderRows label="Loading starred services" />
      ) : starred.length === 0 ? (
        <EmptyText>No Starred</EmptyText>
      ) : (
        <ul className="list-none p-0 m-0 flex flex-column gap-3" aria-label="Starred services">
          {starred.map((item) => (
            <li key={item.profile.handle} className="flex align-items-center gap-2">
              <ProfileAvatar name={item.profile.name} url={item.profile.thumbnail_url} />
              <Link to={servicePath(item.profile.handle)} className="font-semibold">
                {item.profile.name}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

/** Home (spec/platform.md, Home): my services and teams, the activity feed, starred services, the tour. */
export default function HomeScreen() {
  const { state } = useAuth();
  const username = state.user?.handle ?? state.username ?? '';
  const [touring, setTouring] = useState(false);

  return (
    <section className="flex flex-column gap-3">
      <div className="flex align-items-center gap-3">
        <h1 className="text-3xl font-semibold m-0 flex-1">Welcome{state.user ? `, ${state.user.name}` : ''}</h1>
        <Button
          type="button"
          label="Help"
          icon="pi pi-question-circle"
          outlined
          aria-haspopup="dialog"
          onClick={() => setTouring(true)}
        />
      </div>
      {username && (
        <div className="grid">
          <div id="home-my-panel" className="col-12 lg:col-3 flex flex-column gap-3">
            <MyServices username={username} />
            <MyTeams username={username} />
          </div>
          <div className="col-12 lg:col-6">
            <ActivityFeed username={username} />
          </div>
          <div className="col-12 lg:col-3">
            <StarredServices username={username} />
          </div>
        </div>
      )}
      {touring && <GuidedTour steps={HOME_TOUR_STEPS} onClose={() => setTouring(false)} />}
    </section>
  );
}
