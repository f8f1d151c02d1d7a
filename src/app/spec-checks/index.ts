/** Specs that check themselves (issue 30): the API drift card and the checks a published spec proposes. */
export { ApiDriftCard } from './drift-card.js';
export { ProposeChecks } from './propose-checks.js';
