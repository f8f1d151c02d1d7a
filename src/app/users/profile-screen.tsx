import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Route, Routes, useParams } from 'react-router-dom';
import type { User } from '../../contract/accounts.js';
import { keys } from '../api/query-keys.js';
import { useAuth } from '../session/auth-context.js';
import { ProfileAvatar } from '../components/avatar.js';
import { SectionNav } from '../components/section-nav.js';
import { NotFound, Spinner } from '../components/status-screens.js';
import { ProfileMuted } from './profile-muted.js';
import { ProfileOverview } from './profile-overview.js';
import { ProfileSettings } from './profile-settings.js';
import { ProfileTeams } from './profile-teams.js';
import { getUserQueryOptions } from './users-api.js';
import { userPath } from '../routing/paths.js';
import { LastSynced, loadStateOf, NotAvailableOffline } from '../components/load-state.js';

interface ProfileTab {
  label: string;
  /** The sub-path under /users/{id}; '' is the overview. */
  path: string;
  visible: boolean;
}

/** Spec catalogue 2.5: Overview and Teams for everyone; Muted and Settings only on one's own profile. */
export function profileTabs(isSelf: boolean): ProfileTab[] {
  return [
    { label: 'Overview', path: '', visible: true },
    { label: 'Teams', path: 'teams', visible: true },
    { label: 'Muted', path: 'muted', visible: isSelf },
    { label: 'Settings', path: 'settings', visible: isSelf },
  ].filter((tab) => tab.visible);
}

/** Whether the viewer is looking at their own profile (the route id may be a handle or an id). */
export function isOwnProfile(viewer: { id?: string; handle?: string; username?: string | null }, user: User): boolean {
  return (
    (viewer.id !== undefined && viewer.id === user.id) ||
    viewer.handle === user.handle ||
    viewer.username === user.handle
  );
}

/** User profile screens at /users/:id/* (spec/catalogue.md section 2.5). */
export default function ProfileScreen() {
  const params = useParams();
  const id = params.id ?? '';
  const subPath = params['*'] ?? '';
  const { api, state } = useAuth();
  const queryClient = useQueryClient();
  const options = getUserQueryOptions(api, id);
  const query = useQuery(options);
  const user = query.data;
  const loadState = loadStateOf(query);

  if (loadState === 'pending') return <Spinner label="Loading user" />;
  if (loadState === 'offline') return <NotAvailableOffline />;
  if (!user) return <NotFound title="404 Not Found" text="No pages found" />;

  const isSelf = isOwnProfile({ id: state.user?.id, handle: state.user?.handle, username: state.username }, user);
  const base = userPath(id);
  const tabs = profileTabs(isSelf);
  const section = subPath.replace(/\/+$/, '');
  const activeIndex = tabs.findIndex((tab) => tab.path === section);
  const replaceUser = (updated: User) => {
    queryClient.setQueryData(options.queryKey, updated);
    void queryClient.invalidateQueries({ queryKey: keys.users() });
  };

  return (
    <section className="flex flex-column gap-3">
      <LastSynced query={query} />
      <header className="flex align-items-center gap-3">
        <ProfileAvatar name={user.name} url={user.thumbnail_url} size="xlarge" />
        <h1 className="text-3xl font-semibold m-0">{user.name}</h1>
      </header>
      <SectionNav
        label="Profile sections"
        id="profile-tabs"
        wide="tabs"
        links={tabs.map((tab, index) => ({
          label: tab.label,
          to: tab.path ? `${base}/${tab.path}` : base,
          active: index === activeIndex,
        }))}
      />
      <Routes>
        <Route index element={<ProfileOverview user={user} isSelf={isSelf} />} />
        <Route path="teams" element={<ProfileTeams handle={user.handle} />} />
        {isSelf && <Route path="muted" element={<ProfileMuted handle={user.handle} />} />}
        {isSelf && <Route path="settings" element={<ProfileSettings user={user} onUpdated={replaceUser} />} />}
        <Route path="*" element={<NotFound />} />
      </Routes>
    </section>
  );
}
