import { z } from 'zod';
import { teamParams } from '../catalogue.js';
import {
  runner,
  runnerCreate,
  runnerParams,
  runnerResults,
  runnerResultsAccepted,
  runnerSync,
  runnerSyncRequest,
  runnerUpdate,
  teamRunnerParams,
} from '../clients.js';
import { defineOperations } from '../operation.js';

const read = { tags: ['runners'], access: 'beacon.runner.read' } as const;
const manage = { tags: ['runners'], access: 'beacon.runner.manage' } as const;

/**
 * Team runners (spec/catalogue.md section 7) and the protocol of the runner agent (`beacon runner`, README):
 * the agent gets a client_credentials token for a client of the runner's team, calls actions/sync every N
 * seconds for the checks to run, and posts their results in batches.
 */
export const runnerOperations = defineOperations({
  listRunners: {
    ...read,
    method: 'GET',
    path: '/teams/:team/runners',
    summary: 'The runners of a team, by name (every member: the health-check dialog offers them)',
    params: teamParams,
    response: z.array(runner),
    errors: [401, 403, 404],
  },
  getRunner: {
    ...read,
    method: 'GET',
    path: '/teams/:team/runners/:runner',
    summary: 'One runner of a team by handle',
    params: teamRunnerParams,
    response: runner,
    errors: [401, 403, 404],
  },
  createRunner: {
    ...manage,
    method: 'POST',
    path: '/teams/:team/runners',
    summary:
      'Add a runner (team admins, or a client of the team): name, description, and a handle unique in the ' +
      'workspace (made from the name when left out)',
    params: teamParams,
    body: runnerCreate,
    response: runner,
    status: 201,
    errors: [400, 401, 403, 404, 409],
  },
  updateRunner: {
    ...manage,
    method: 'PUT',
    path: '/teams/:team/runners/:runner',
    summary: "Change a runner's name and description (team admins, or a client of the team)",
    params: teamRunnerParams,
    body: runnerUpdate,
    response: runner,
    errors: [400, 401, 403, 404],
  },
  deleteRunner: {
    ...manage,
    method: 'DELETE',
    path: '/teams/:team/runners/:runner',
    summary:
      "Delete a runner (team admins, or a client of the team); 409 'Runner is currently linked to a " +
      "healthcheck' while a health check names it",
    params: teamRunnerParams,
    response: null,
    errors: [401, 403, 404, 409],
  },
  syncRunner: {
    // It records the runner's sync time and status: a change, so not for a read-only client.
    ...manage,
    method: 'POST',
    path: '/runners/:runner/actions/sync',
    summary:
      'Runner agent: the enabled, unpaused checks assigned to this runner (id, endpoint, frequency and timeout ' +
      'in seconds), which it runs until its next sync; records the sync time, and the status: ok, or error ' +
      'when the agent reports one. Clients of the runner’s team (or its admins) only',
    params: runnerParams,
    body: runnerSyncRequest.optional(),
    response: runnerSync,
    errors: [400, 401, 403, 404],
  },
  postRunnerResults: {
    ...manage,
    method: 'POST',
    path: '/runners/:runner/results',
    summary:
      'Runner agent: a batch of results (check_id, start, time in ms, success, status, error; at most 1000). ' +
      'Results for checks that are not this runner’s are dropped and named in the answer; a check failing ' +
      'more than allowed_failures times in a row raises its service’s health',
    params: runnerParams,
    body: runnerResults,
    response: runnerResultsAccepted,
    errors: [400, 401, 403, 404],
  },
});
