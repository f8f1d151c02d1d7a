import { Card } from 'primereact/card';
import type { Team } from '../../contract/catalogue.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { teamCrumbs } from './teams-api.js';

/** The Health tab. Per-service health cards come with the health issue; until then there is no data to show. */
export function TeamHealth({ team }: { team: Team }) {
  useBreadcrumb(teamCrumbs(team, 'Health'));
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Health</h2>}>
      <p className="m-0 text-600">No Data Available</p>
    </Card>
  );
}
