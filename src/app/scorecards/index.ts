/** What the scorecards feature offers the rest of the app: the service's and the team's tabs, and the admin area's editor (its own screens are routed by path). */
export { scorecardsSection } from './service-scorecards.js';
export { TeamScorecards } from './team-scorecards.js';
export { ScorecardEditorScreen, ScorecardsCard } from './scorecard-editor.js';
