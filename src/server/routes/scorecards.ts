import type { FastifyInstance } from 'fastify';
import { scorecardOperations } from '../../contract/operations/scorecards.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import {
  createExemption,
  createScorecard,
  deleteScorecard,
  getScorecard,
  getScorecardHistory,
  listScorecardResults,
  listScorecards,
  listServiceScorecards,
  removeExemption,
  updateScorecard,
} from '../services/reliability/scorecards.js';
import { keptScorecardAnswer } from '../cache/catalogue-cache.js';

export function scorecardRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) => {
    routes(
      ctx,
      app,
      scorecardOperations,
      {
        listScorecards: ({ caller }) => listScorecards(ctx, caller),
        createScorecard: ({ caller, body }) => createScorecard(ctx, caller, body),
        getScorecard: ({ caller, params }) => getScorecard(ctx, caller, params.scorecard),
        updateScorecard: ({ caller, params, body }) => updateScorecard(ctx, caller, params.scorecard, body),
        deleteScorecard: async ({ caller, params }) => {
          await deleteScorecard(ctx, caller, params.scorecard);
          return null;
        },
        getScorecardHistory: ({ caller, params, query }) => getScorecardHistory(ctx, caller, params.scorecard, query),
        listScorecardResults: ({ caller, params, query }) => listScorecardResults(ctx, caller, params.scorecard, query),
        createScorecardExemption: ({ caller, params, body }) => createExemption(ctx, caller, params.scorecard, body),
        deleteScorecardExemption: async ({ caller, params }) => {
          await removeExemption(ctx, caller, params.scorecard, params.id);
          return null;
        },
        listServiceScorecards: ({ caller, params }) => listServiceScorecards(ctx, caller, params.service),
      },
      {
        listScorecards: { keep: keptScorecardAnswer },
        getScorecard: { keep: keptScorecardAnswer },
        listScorecardResults: { keep: keptScorecardAnswer },
      },
    );
  };
}
