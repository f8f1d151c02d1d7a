import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { Service, Team } from '../../contract/catalogue.js';
import { healthLabel, TEAM_LIST_PAGE_SIZE, visibilityLabel } from '../../domain/catalogue.js';
import type { Page } from '../../domain/pagination.js';
import { useApi } from '../session/use-api.js';
import { ProfileAvatar } from '../components/avatar.js';
import { ListPaginator } from '../components/list-paginator.js';
import { Spinner } from '../components/status-screens.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { getSubTeamsQueryOptions, getTeamServicesQueryOptions, teamCrumbs } from './teams-api.js';
import { servicePath, teamPath } from '../routing/paths.js';

const FIRST_PAGE: Page = { cursor: 0, limit: TEAM_LIST_PAGE_SIZE };

function ServicesTable({ team }: { team: Team }) {
  const api = useApi();
  const [page, setPage] = useState<Page>(FIRST_PAGE);
  const { data, isPending } = useQuery(getTeamServicesQueryOptions(api, team.handle, page));
  if (isPending) return <Spinner label="Loading services" />;
  const services = data?.items ?? [];
  return (
    <>
      <DataTable value={services} dataKey="id" emptyMessage="No Services" pt={{ table: { 'aria-label': 'Services' } }}>
        <Column
          header={<span className="p-hidden-accessible">Avatar</span>}
          body={(service: Service) => <ProfileAvatar name={service.name} url={service.thumbnail_url} />}
          style={{ width: '4rem' }}
        />
        <Column
          header="Name"
          body={(service: Service) => <Link to={servicePath(service.handle)}>{service.name}</Link>}
        />
        <Column header="Description" body={(service: Service) => service.description ?? ''} />
        <Column header="Visibility" body={(service: Service) => visibilityLabel(service.visibility)} />
        <Column header="Health" body={(service: Service) => healthLabel(service.health)} />
      </DataTable>
      <ListPaginator
        page={page}
        total={data?.total ?? 0}
        onPage={(cursor) => setPage((current) => ({ ...current, cursor }))}
      />
    </>
  );
}

/** The team's sub-teams, a small card beside its services; admins may create one. */
function SubTeams({ team }: { team: Team }) {
  const api = useApi();
  const navigate = useNavigate();
  const [page, setPage] = useState<Page>(FIRST_PAGE);
  const { data, isPending } = useQuery(getSubTeamsQueryOptions(api, team.handle, page));
  const teams = data?.items ?? [];
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Sub-teams</h2>}>
      <div className="flex flex-column gap-3">
        {isPending ? (
          <Spinner label="Loading sub-teams" />
        ) : teams.length === 0 ? (
          <p className="m-0 text-600">No Sub-teams</p>
        ) : (
          <ul className="list-none p-0 m-0 flex flex-column gap-2" aria-label="Sub-teams">
            {teams.map((child) => (
              <li key={child.id} className="flex align-items-center gap-2">
                <ProfileAvatar name={child.name} url={child.thumbnail_url} />
                <Link to={teamPath(child.handle)}>{child.name}</Link>
              </li>
            ))}
          </ul>
        )}
        <ListPaginator
          page={page}
          total={data?.total ?? 0}
          onPage={(cursor) => setPage((current) => ({ ...current, cursor }))}
        />
        {team.is_admin && (
          <div>
            <Button
              type="button"
              label="Create Sub-team"
              icon="pi pi-plus"
              outlined
              onClick={() => navigate(`${teamPath(team.handle)}/teams/new`)}
            />
          </div>
        )}
      </div>
    </Card>
  );
}

/** The Services tab: the team's services, and its sub-teams. */
export function TeamServices({ team }: { team: Team }) {
  const navigate = useNavigate();
  useBreadcrumb(teamCrumbs(team, 'Services'));
  return (
    <div className="grid">
      <div className="col-12 lg:col-8 flex flex-column gap-3">
        {team.can_create_services && (
          <div className="flex justify-content-end">
            <Button
              type="button"
              label="Create Service"
              icon="pi pi-plus"
              onClick={() => navigate(`${teamPath(team.handle)}/services/new`)}
            />
          </div>
        )}
        <ServicesTable team={team} />
      </div>
      <div className="col-12 lg:col-4">
        <SubTeams team={team} />
      </div>
    </div>
  );
}
