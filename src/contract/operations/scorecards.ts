import { z } from 'zod';
import { serviceParams } from '../catalogue.js';
import { defineOperations } from '../operation.js';
import {
  exemptionCreate,
  exemptionParams,
  scorecard,
  scorecardCreate,
  scorecardExemption,
  scorecardHistory,
  scorecardHistoryQuery,
  scorecardParams,
  scorecardResult,
  scorecardResultsQuery,
  scorecardUpdate,
  serviceScorecard,
} from '../scorecards.js';

const tags = ['scorecards'];
const read = { tags, access: 'beacon.service.read' } as const;
/** Defined by workspace admins and owners (checked by the server); not for API clients. */
const manage = { tags, access: 'user' } as const;

/** Scorecards over the catalogue and live health (docs/decisions.md#slos-and-scorecards). */
export const scorecardOperations = defineOperations({
  listScorecards: {
    ...read,
    method: 'GET',
    path: '/scorecards',
    summary: "The workspace's scorecards, each with how many services are at each level",
    response: z.array(scorecard),
    errors: [401, 403],
  },
  createScorecard: {
    ...manage,
    method: 'POST',
    path: '/scorecards',
    summary: 'Define a scorecard (admins and owners); its results are computed at once',
    body: scorecardCreate,
    response: scorecard,
    status: 201,
    errors: [400, 401, 403, 409],
  },
  getScorecard: {
    ...read,
    method: 'GET',
    path: '/scorecards/:scorecard',
    summary: 'A scorecard with its levels, rules and level distribution',
    params: scorecardParams,
    response: scorecard,
    errors: [400, 401, 403, 404],
  },
  updateScorecard: {
    ...manage,
    method: 'PATCH',
    path: '/scorecards/:scorecard',
    summary: 'Change a scorecard (admins and owners); a field left out keeps its value; results are recomputed',
    params: scorecardParams,
    body: scorecardUpdate,
    response: scorecard,
    errors: [400, 401, 403, 404],
  },
  deleteScorecard: {
    ...manage,
    method: 'DELETE',
    path: '/scorecards/:scorecard',
    summary: 'Delete a scorecard with its results, history and exemptions (admins and owners)',
    params: scorecardParams,
    response: null,
    errors: [401, 403, 404],
  },
  listScorecardResults: {
    ...read,
    method: 'GET',
    path: '/scorecards/:scorecard/results',
    summary:
      'Each service the scorecard applies to and the caller can see, by name: its level, score and every rule’s ' +
      'result; `team` and `level` (a key, or `none`) narrow it; total in the `total` header',
    params: scorecardParams,
    query: scorecardResultsQuery,
    response: z.array(scorecardResult),
    paged: true,
    errors: [400, 401, 403, 404],
  },
  getScorecardHistory: {
    ...read,
    method: 'GET',
    path: '/scorecards/:scorecard/history',
    summary:
      'How many services were at each level at the end of each day from `from` to `to` (at most 90 days), and ' +
      'the services that rose and fell most from the first day’s end to the last’s, within the caller’s visibility',
    params: scorecardParams,
    query: scorecardHistoryQuery,
    response: scorecardHistory,
    errors: [400, 401, 403, 404],
  },
  createScorecardExemption: {
    ...manage,
    method: 'POST',
    path: '/scorecards/:scorecard/exemptions',
    summary: 'Waive a rule for a service until a date, with a reason (admins and owners)',
    params: scorecardParams,
    body: exemptionCreate,
    response: scorecardExemption,
    status: 201,
    errors: [400, 401, 403, 404],
  },
  deleteScorecardExemption: {
    ...manage,
    method: 'DELETE',
    path: '/scorecards/:scorecard/exemptions/:id',
    summary: 'End an exemption (admins and owners)',
    params: exemptionParams,
    response: null,
    errors: [401, 403, 404],
  },
  listServiceScorecards: {
    ...read,
    method: 'GET',
    path: '/services/:service/scorecards',
    summary: 'The service’s results on each scorecard that applies to it, evaluated now, with what each rule asks',
    params: serviceParams,
    response: z.array(serviceScorecard),
    errors: [401, 403, 404],
  },
});
