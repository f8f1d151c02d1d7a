/** What the scorecards feature offers the rest of the app: the service's and the team's tabs (its screens are routed by path). */
export { scorecardsSection } from './service-scorecards.js';
export { TeamScorecards } from './team-scorecards.js';
