import { queryOptions, useQuery } from '@tanstack/react-query';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Link } from 'react-router-dom';
import type { ApiClient } from '../api/client.js';
import { useAuth } from '../auth/auth-context.js';
import { ProfileAvatar } from '../components/avatar.js';
import { Spinner } from '../components/status-screens.js';
import { retryUnlessClientError } from './query-retry.js';

/** The team fields this list shows (spec/catalogue.md section 3, Team). */
export interface UserTeam {
  id: string;
  handle: string;
  name: string;
  description: string | null;
  thumbnail_url: string | null;
}

export function getUserTeamsQueryOptions(api: ApiClient, handle: string) {
  return queryOptions({
    queryKey: ['user', handle, 'teams'] as const,
    queryFn: () => api.get<UserTeam[]>(`/users/${encodeURIComponent(handle)}/teams`),
    retry: retryUnlessClientError,
  });
}

/** The Teams tab: the user's teams; a failed list shows the empty text (spec: lists only set an error flag). */
export function ProfileTeams({ handle }: { handle: string }) {
  const { api } = useAuth();
  const { data, isPending, isError } = useQuery(getUserTeamsQueryOptions(api, handle));
  if (isPending) return <Spinner label="Loading teams" />;
  const teams = isError || !Array.isArray(data) ? [] : data;
  return (
    <DataTable value={teams} dataKey="id" emptyMessage="No Teams." pt={{ table: { 'aria-label': 'Teams' } }}>
      <Column
        header={<span className="p-hidden-accessible">Avatar</span>}
        body={(team: UserTeam) => <ProfileAvatar name={team.name} url={team.thumbnail_url} />}
        style={{ width: '4rem' }}
      />
      <Column
        header="Name"
        body={(team: UserTeam) => <Link to={`/teams/${encodeURIComponent(team.handle)}`}>{team.name}</Link>}
      />
      <Column header="Description" body={(team: UserTeam) => team.description?.trim() || '-'} />
    </DataTable>
  );
}
