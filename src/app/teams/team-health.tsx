import { useQuery } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import type { Team } from '../../contract/catalogue.js';
import { MAX_PAGE_SIZE } from '../../domain/pagination.js';
import { useApi } from '../session/use-api.js';
import { Spinner } from '../components/status-screens.js';
import { ServiceHealthHistory, ViewHealthChecksButton } from '../health/index.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { SloSummary } from '../slo/index.js';
import { getTeamServicesQueryOptions, teamCrumbs } from './teams-api.js';

/** The services whose health is shown: the first page of the largest size the API allows. */
const HEALTH_SERVICES_PAGE = { cursor: 0, limit: MAX_PAGE_SIZE };

/**
 * The Health tab (spec/catalogue.md 2.3 and 7): the team's services, then each one's daily health; one card
 * per service with its name, uptime and daily bars, its SLO if it has one, and a View HealthChecks button.
 */
export function TeamHealth({ team }: { team: Team }) {
  const api = useApi();
  useBreadcrumb(teamCrumbs(team, 'Health'));
  const { data, isPending } = useQuery(getTeamServicesQueryOptions(api, team.handle, HEALTH_SERVICES_PAGE));
  if (isPending) return <Spinner label="Loading services" />;
  const services = data?.items ?? [];
  return (
    <section className="flex flex-column gap-3" aria-labelledby="team-health-title">
      <h2 id="team-health-title" className="text-xl font-semibold m-0">
        Health
      </h2>
      {services.length === 0 ? (
        <Card>
          <p className="m-0 text-600">No Services</p>
        </Card>
      ) : (
        services.map((service) => (
          <Card key={service.id}>
            <article className="flex flex-column gap-3" aria-labelledby={`team-health-${service.id}`}>
              <h3 id={`team-health-${service.id}`} className="text-lg font-semibold m-0">
                {service.name}
              </h3>
              <ServiceHealthHistory service={service} />
              <SloSummary service={service} />
              <div>
                <ViewHealthChecksButton service={service} />
              </div>
            </article>
          </Card>
        ))
      )}
    </section>
  );
}
