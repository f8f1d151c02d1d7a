import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Route, Routes, useParams } from 'react-router-dom';
import type { Team } from '../../contract/catalogue.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { ProfileAvatar } from '../components/avatar.js';
import { SectionNav } from '../components/section-nav.js';
import { MessageCard, NotFound, Spinner } from '../components/status-screens.js';
import { TeamHealth } from './team-health.js';
import { TeamMembers } from './team-members.js';
import { TeamOverview } from './team-overview.js';
import { TeamRunnersPage } from './team-runners.js';
import { TeamScorecardsPage } from './team-scorecards.js';
import { TeamServices } from './team-services.js';
import { TeamSettings } from './team-settings.js';
import { TEAM_NOT_FOUND } from './teams-api.js';
import { teamPath } from '../routing/paths.js';
import { getTeamQueryOptions } from '../api/shared-queries.js';
import { MANAGED_TEAM_FIELDS, ManagedMark } from '../components/managed-mark.js';
import { LastSynced, loadStateOf, NotAvailableOffline } from '../components/load-state.js';

interface TeamTab {
  label: string;
  /** The sub-path under /teams/{id}; '' is the overview, active only on its exact path. */
  path: string;
}

/**
 * Spec catalogue 2.3: Overview, Health, Services, Members for everyone; Settings for team admins only. Issue 28 adds
 * Scorecards, the levels of the team's services.
 */
export function teamTabs(isAdmin: boolean): TeamTab[] {
  return [
    { label: 'Overview', path: '' },
    { label: 'Health', path: 'health' },
    { label: 'Services', path: 'services' },
    { label: 'Members', path: 'members' },
    { label: 'Scorecards', path: 'scorecards' },
    ...(isAdmin ? [{ label: 'Settings', path: 'settings' }] : []),
  ];
}

/** The tab of a sub-path: its first segment (a tab's child paths keep it active); -1 when none matches. */
export function activeTabIndex(tabs: TeamTab[], subPath: string): number {
  const section = subPath.replace(/^\/+|\/+$/g, '').split('/')[0] ?? '';
  return tabs.findIndex((tab) => tab.path === section);
}

function TeamHeader({ team }: { team: Team }) {
  return (
    <header className="flex align-items-center gap-3">
      <ProfileAvatar name={team.name} url={team.thumbnail_url} size="xlarge" />
      <div>
        <h1 className="text-3xl font-semibold m-0">{team.name}</h1>
        {team.parent && (
          <p className="m-0 mt-1 text-700">
            Part of <Link to={teamPath(team.parent.handle)}>{team.parent.name}</Link>
          </p>
        )}
        <ManagedMark managedBy={team.managed_by} what={MANAGED_TEAM_FIELDS} />
      </div>
    </header>
  );
}

/** Team screens at /teams/:id/* (spec/catalogue.md section 2.3). */
export default function TeamScreen() {
  const params = useParams();
  const id = params.id ?? '';
  const subPath = params['*'] ?? '';
  const api = useApi();
  const queryClient = useQueryClient();
  const options = getTeamQueryOptions(api, id);
  const query = useQuery(options);
  const team = query.data;
  const state = loadStateOf(query);

  if (state === 'pending') return <Spinner label="Loading team" />;
  if (state === 'offline') return <NotAvailableOffline />;
  if (!team) return <MessageCard title={TEAM_NOT_FOUND} icon="pi-map" />;

  const base = teamPath(id);
  const tabs = teamTabs(team.is_admin);
  const active = activeTabIndex(tabs, subPath);
  const replaceTeam = (updated: Team) => {
    queryClient.setQueryData(options.queryKey, updated);
    void queryClient.invalidateQueries({ queryKey: keys.teams() });
  };

  return (
    <section className="flex flex-column gap-3">
      <LastSynced query={query} />
      <TeamHeader team={team} />
      <SectionNav
        label="Team sections"
        id="team-tabs"
        wide="tabs"
        links={tabs.map((tab, index) => ({
          label: tab.label,
          to: tab.path ? `${base}/${tab.path}` : base,
          active: index === active,
        }))}
      />
      {/* Keyed by the team: moving to another team starts every tab afresh (paging, dialogs). */}
      <Routes key={team.id}>
        <Route index element={<TeamOverview team={team} />} />
        <Route path="health" element={<TeamHealth team={team} />} />
        <Route path="services" element={<TeamServices team={team} />} />
        <Route path="members" element={<TeamMembers team={team} />} />
        <Route path="runners" element={<TeamRunnersPage team={team} />} />
        <Route path="scorecards" element={<TeamScorecardsPage team={team} />} />
        {team.is_admin && <Route path="settings" element={<TeamSettings team={team} onUpdated={replaceTeam} />} />}
        <Route path="*" element={<NotFound />} />
      </Routes>
    </section>
  );
}
