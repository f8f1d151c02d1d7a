import type { FastifyInstance } from 'fastify';
import { systemOperations } from '../../contract/operations/system.js';
import type { ServerContext } from '../context.js';
import { databaseAnswers } from '../db/connect.js';
import { serviceUnavailable } from '../errors.js';
import { routes } from '../operations.js';

/** How long readiness waits for the database's `select 1`. */
const READINESS_TIMEOUT_MS = 2000;

/** Readiness, liveness and the API contract. */
export function systemRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(ctx, app, systemOperations, {
      getReadiness: async () => {
        if (!(await databaseAnswers(ctx.database.db, READINESS_TIMEOUT_MS))) throw serviceUnavailable();
        return { status: 'ok' as const };
      },
      getLiveness: () => ({ status: 'ok' as const }),
      getOpenApiDocument: () => app.swagger(),
    });
}
