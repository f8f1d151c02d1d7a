import { Card } from 'primereact/card';
import type { Team } from '../../contract/catalogue.js';
import { TeamAlertPolicyCard } from '../alerts/index.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { TeamPublicFeed } from './team-feed.js';

/**
 * The Overview tab: the description card when there is one, then the team's public feed; for members who cannot
 * change it, the team's alert policy in words (its admins edit it on Settings). No breadcrumbs.
 */
export function TeamOverview({ team }: { team: Team }) {
  useBreadcrumb(null);
  const description = team.description?.trim();
  return (
    <div className="grid">
      {description && (
        <div className="col-12 md:col-4">
          <Card title={<h2 className="text-xl font-semibold m-0">Description</h2>}>
            <p className="m-0" style={{ whiteSpace: 'pre-line' }}>
              {description}
            </p>
          </Card>
        </div>
      )}
      <div className={description ? 'col-12 md:col-8' : 'col-12'}>
        <Card title={<h2 className="text-xl font-semibold m-0">Activity</h2>}>
          <TeamPublicFeed handle={team.handle} />
        </Card>
      </div>
      {!team.is_admin && (
        <div className="col-12">
          <TeamAlertPolicyCard team={team} />
        </div>
      )}
    </div>
  );
}
