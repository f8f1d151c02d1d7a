import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { teamParams } from '../../contract/catalogue.js';
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
} from '../../contract/clients.js';
import { errorResponses } from '../../contract/common.js';
import type { ServerContext } from '../context.js';
import { requireCaller } from '../http.js';
import {
  createRunner,
  deleteRunner,
  getRunner,
  listRunners,
  postRunnerResults,
  syncRunner,
  updateRunner,
} from '../services/runners.js';

const read = { scope: 'beacon.runner.read' } as const;
const manage = { scope: 'beacon.runner.manage' } as const;

/**
 * Team runners (spec/catalogue.md section 7) and the protocol of the runner agent (`beacon runner`, README):
 * the agent gets a client_credentials token for a client of the runner's team, calls actions/sync every N
 * seconds for the checks to run, and posts their results in batches.
 */
export function runnerRoutes(ctx: ServerContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/teams/:team/runners',
      {
        config: read,
        schema: {
          tags: ['runners'],
          summary: 'The runners of a team, by name (every member: the health-check dialog offers them)',
          params: teamParams,
          response: { 200: z.array(runner), ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => listRunners(ctx, await requireCaller(ctx, request), request.params.team),
    );

    app.get(
      '/teams/:team/runners/:runner',
      {
        config: read,
        schema: {
          tags: ['runners'],
          summary: 'One runner of a team by handle',
          params: teamRunnerParams,
          response: { 200: runner, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => getRunner(ctx, await requireCaller(ctx, request), request.params.team, request.params.runner),
    );

    app.post(
      '/teams/:team/runners',
      {
        config: manage,
        schema: {
          tags: ['runners'],
          summary:
            'Add a runner (team admins, or a client of the team): name, description, and a handle unique in the ' +
            'workspace (made from the name when left out)',
          params: teamParams,
          body: runnerCreate,
          response: { 201: runner, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const caller = await requireCaller(ctx, request);
        return reply.code(201).send(await createRunner(ctx, caller, request.params.team, request.body));
      },
    );

    app.put(
      '/teams/:team/runners/:runner',
      {
        config: manage,
        schema: {
          tags: ['runners'],
          summary: "Change a runner's name and description (team admins, or a client of the team)",
          params: teamRunnerParams,
          body: runnerUpdate,
          response: { 200: runner, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) =>
        updateRunner(ctx, await requireCaller(ctx, request), request.params.team, request.params.runner, request.body),
    );

    app.delete(
      '/teams/:team/runners/:runner',
      {
        config: manage,
        schema: {
          tags: ['runners'],
          summary:
            "Delete a runner (team admins, or a client of the team); 409 'Runner is currently linked to a " +
            "healthcheck' while a health check names it",
          params: teamRunnerParams,
          response: { 204: z.null().describe('Deleted'), ...errorResponses(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        await deleteRunner(ctx, await requireCaller(ctx, request), request.params.team, request.params.runner);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/runners/:runner/actions/sync',
      {
        config: read,
        schema: {
          tags: ['runners'],
          summary:
            'Runner agent: the enabled, unpaused checks assigned to this runner (id, endpoint, frequency and timeout ' +
            'in seconds), which it runs until its next sync; records the sync time, and the status: ok, or error ' +
            'when the agent reports one. Clients of the runner’s team (or its admins) only',
          params: runnerParams,
          body: runnerSyncRequest.optional(),
          response: { 200: runnerSync, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) =>
        syncRunner(ctx, await requireCaller(ctx, request), request.params.runner, request.body ?? undefined),
    );

    app.post(
      '/runners/:runner/results',
      {
        config: manage,
        schema: {
          tags: ['runners'],
          summary:
            'Runner agent: a batch of results (check_id, start, time in ms, success, status, error; at most 1000). ' +
            'Results for checks that are not this runner’s are dropped and named in the answer; a check failing ' +
            'more than allowed_failures times in a row raises its service’s health',
          params: runnerParams,
          body: runnerResults,
          response: { 200: runnerResultsAccepted, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => postRunnerResults(ctx, await requireCaller(ctx, request), request.params.runner, request.body),
    );
  };
}
