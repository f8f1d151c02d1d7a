import { useQuery } from '@tanstack/react-query';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Link } from 'react-router-dom';
import type { Team } from '../../contract/catalogue.js';
import { useApi } from '../session/use-api.js';
import { ProfileAvatar } from '../components/avatar.js';
import { Spinner } from '../components/status-screens.js';
import { teamPath } from '../routing/paths.js';
import { getUserTeamsQueryOptions } from '../api/shared-queries.js';

/** The Teams tab: the user's teams; a failed list shows the empty text (spec: lists only set an error flag). */
export function ProfileTeams({ handle }: { handle: string }) {
  const api = useApi();
  const { data, isPending } = useQuery(getUserTeamsQueryOptions(api, handle));
  if (isPending) return <Spinner label="Loading teams" />;
  const teams = data ?? [];
  return (
    <DataTable value={teams} dataKey="id" emptyMessage="No Teams." pt={{ table: { 'aria-label': 'Teams' } }}>
      <Column
        header={<span className="p-hidden-accessible">Avatar</span>}
        body={(team: Team) => <ProfileAvatar name={team.name} url={team.thumbnail_url} />}
        style={{ width: '4rem' }}
      />
      <Column header="Name" body={(team: Team) => <Link to={teamPath(team.handle)}>{team.name}</Link>} />
      <Column header="Description" body={(team: Team) => team.description?.trim() || '-'} />
    </DataTable>
  );
}
