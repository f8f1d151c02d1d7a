import { useQuery } from '@tanstack/react-query';
import { AvatarGroup } from 'primereact/avatargroup';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Team } from '../../contract/catalogue.js';
import { AVATAR_GROUP_MAX, TEAM_LIST_PAGE_SIZE } from '../../domain/catalogue.js';
import type { SearchPage } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { ProfileAvatar } from '../components/avatar.js';
import { ListPaginator } from '../components/list-paginator.js';
import { SearchBox } from '../components/search-box.js';
import { Spinner } from '../components/status-screens.js';
import { getTeamSearchQueryOptions } from './teams-api.js';
import { teamPath } from '../routing/paths.js';
import { LastSynced, loadStateOf, NotAvailableOffline } from '../components/load-state.js';

/** Spec: the members as an avatar group of at most 4; how many more there are follows as text. */
export function MemberAvatars({ team }: { team: Team }) {
  const shown = team.members.slice(0, AVATAR_GROUP_MAX);
  const more = Math.max(0, team.member_count - shown.length);
  const label = `${team.member_count} ${team.member_count === 1 ? 'member' : 'members'}`;
  return (
    <div role="group" aria-label={label} className="flex align-items-center gap-2">
      <AvatarGroup>
        {shown.map((member) => (
          <ProfileAvatar key={member.id} name={member.name} url={member.thumbnail_url} />
        ))}
      </AvatarGroup>
      {more > 0 && (
        <span className="text-600 text-sm" aria-hidden="true">
          +{more}
        </span>
      )}
    </div>
  );
}

function TeamsTable({ params, onPage }: { params: SearchPage; onPage: (cursor: number) => void }) {
  const api = useApi();
  const query = useQuery(getTeamSearchQueryOptions(api, params));
  const { data } = query;
  const state = loadStateOf(query);
  if (state === 'pending') return <Spinner label="Loading teams" />;
  if (state === 'offline') return <NotAvailableOffline />;
  const teams = data?.items ?? [];
  return (
    <>
      <LastSynced query={query} />
      <DataTable value={teams} dataKey="id" emptyMessage="No Teams." pt={{ table: { 'aria-label': 'Teams' } }}>
        <Column
          header={<span className="p-hidden-accessible">Avatar</span>}
          body={(team: Team) => <ProfileAvatar name={team.name} url={team.thumbnail_url} />}
          style={{ width: '4rem' }}
        />
        <Column header="Name" body={(team: Team) => <Link to={teamPath(team.handle)}>{team.name}</Link>} />
        <Column header="Description" body={(team: Team) => team.description?.trim() || '-'} />
        <Column header="Members" body={(team: Team) => <MemberAvatars team={team} />} />
      </DataTable>
      <ListPaginator page={params} total={data?.total ?? 0} onPage={onPage} />
    </>
  );
}

/** The teams list at /teams (spec/catalogue.md section 2.4). */
export default function TeamsScreen() {
  const [params, setParams] = useState<SearchPage>({ cursor: 0, limit: TEAM_LIST_PAGE_SIZE, q: '' });
  return (
    <section className="flex flex-column gap-3">
      <h1 className="text-3xl font-semibold m-0">Teams</h1>
      {/* Spec: a new search starts from offset 0. */}
      <SearchBox
        id="teams-search"
        label="Search teams"
        onSearch={(q) => setParams((current) => ({ ...current, q, cursor: 0 }))}
      />
      <TeamsTable params={params} onPage={(cursor) => setParams((current) => ({ ...current, cursor }))} />
    </section>
  );
}
