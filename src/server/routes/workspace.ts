import type { FastifyInstance } from 'fastify';
import { workspaceOperations } from '../../contract/operations/workspace.js';
import type { ServerContext } from '../context.js';
import { requireWorkspace } from '../http.js';
import { routes } from '../operations.js';
import { toWorkspace } from '../services/accounts/registration.js';

export function workspaceRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(ctx, app, workspaceOperations, {
      getWorkspace: async ({ request }) => toWorkspace(await requireWorkspace(ctx, request)),
    });
}
