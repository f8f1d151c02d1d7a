import type { Team } from '../../contract/catalogue.js';
import { TeamScorecards } from '../scorecards/index.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { teamCrumbs } from './teams-api.js';

/** The team's Scorecards tab, from the scorecards feature. */
export function TeamScorecardsPage({ team }: { team: Team }) {
  useBreadcrumb(teamCrumbs(team, 'Scorecards'));
  return <TeamScorecards team={team} />;
}
