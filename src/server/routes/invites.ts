import type { FastifyInstance } from 'fastify';
import { inviteOperations } from '../../contract/operations/invites.js';
import type { ServerContext } from '../context.js';
import { requireNamedWorkspace } from '../http.js';
import { routes } from '../operations.js';
import { inviteUser, joinWorkspace, listInvites, resendInvite } from '../services/accounts/invites.js';

export function inviteRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(ctx, app, inviteOperations, {
      inviteUser: ({ caller, body }) => inviteUser(ctx, caller, body.email),
      listInvites: async ({ caller, query }) => {
        const { invites, total } = await listInvites(ctx, caller, query);
        return { items: invites, total };
      },
      resendInvite: ({ caller, params }) => resendInvite(ctx, caller, params.inviteId),
      joinWorkspace: async ({ body, request }) =>
        joinWorkspace(ctx, await requireNamedWorkspace(ctx, request, body.workspace), body),
    });
}
