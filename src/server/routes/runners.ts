import type { FastifyInstance } from 'fastify';
import { runnerOperations } from '../../contract/operations/runners.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import {
  createRunner,
  deleteRunner,
  getRunner,
  listRunners,
  postRunnerResults,
  syncRunner,
  updateRunner,
} from '../services/health/runners.js';

/** Team runners and the protocol of the runner agent (`beacon runner`, README). */
export function runnerRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(ctx, app, runnerOperations, {
      listRunners: ({ caller, params }) => listRunners(ctx, caller, params.team),
      getRunner: ({ caller, params }) => getRunner(ctx, caller, params.team, params.runner),
      createRunner: ({ caller, params, body }) => createRunner(ctx, caller, params.team, body),
      updateRunner: ({ caller, params, body }) => updateRunner(ctx, caller, params.team, params.runner, body),
      deleteRunner: async ({ caller, params }) => {
        await deleteRunner(ctx, caller, params.team, params.runner);
        return null;
      },
      syncRunner: ({ caller, params, body }) => syncRunner(ctx, caller, params.runner, body ?? undefined),
      postRunnerResults: ({ caller, params, body }) => postRunnerResults(ctx, caller, params.runner, body),
    });
}
