import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invite, inviteCreate, inviteIdParams, joinWorkspace, user } from '../../contract/accounts.js';
import { errorResponses, pageQuery } from '../../contract/common.js';
import type { ServerContext } from '../context.js';
import { requireCaller, requireNamedWorkspace, sendPage } from '../http.js';
import { inviteUser, joinWorkspace as join, listInvites, resendInvite } from '../services/invites.js';
import { toUser } from '../services/users.js';

export function inviteRoutes(ctx: ServerContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/invites',
      {
        config: { scope: null },
        schema: {
          tags: ['invites'],
          summary: 'Invite an email to this workspace (owner, admin)',
          body: inviteCreate,
          response: { 201: invite, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const { workspace, user: actor } = await requireCaller(ctx, request);
        return reply.code(201).send(await inviteUser(ctx, workspace, actor, request.body.email));
      },
    );

    app.get(
      '/invites',
      {
        config: { scope: null },
        schema: {
          tags: ['invites'],
          summary: 'Pending invites, paged; total in the `total` header (owner, admin)',
          querystring: pageQuery,
          response: { 200: z.array(invite), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const { workspace, user: actor } = await requireCaller(ctx, request);
        const { invites, total } = await listInvites(ctx, workspace, actor, request.query);
        return sendPage(reply, invites, total);
      },
    );

    app.post(
      '/invites/:inviteId/actions/resend',
      {
        config: { scope: null },
        schema: {
          tags: ['invites'],
          summary: 'Send an invite again with a fresh link',
          params: inviteIdParams,
          response: { 200: invite, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const { workspace, user: actor } = await requireCaller(ctx, request);
        return resendInvite(ctx, workspace, actor, request.params.inviteId);
      },
    );

    app.post(
      '/users',
      {
        schema: {
          tags: ['invites'],
          summary: 'Join a workspace with an invite',
          body: joinWorkspace,
          response: { 201: user, ...errorResponses(400, 404, 409) },
        },
      },
      async (request, reply) => {
        const workspace = await requireNamedWorkspace(ctx, request, request.body.workspace);
        const joined = await join(ctx, workspace, request.body);
        return reply.code(201).send(toUser(joined));
      },
    );
  };
}
