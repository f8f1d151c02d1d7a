import type { FastifyInstance } from 'fastify';
import { slackOperations } from '../../contract/operations/slack.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import {
  addChannel,
  changeChannel,
  connectUser,
  linkWorkspace,
  listChannels,
  listWorkspaces,
  reauthoriseWorkspace,
  removeChannel,
  slackSettings,
} from '../services/chat/slack.js';

export function slackRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(ctx, app, slackOperations, {
      getSlackSettings: ({ caller }) => slackSettings(ctx, caller),
      listSlackWorkspaces: ({ caller }) => listWorkspaces(ctx, caller),
      createSlackWorkspace: ({ caller, body }) => linkWorkspace(ctx, caller, body.token),
      updateSlackWorkspace: ({ caller, params, body }) => reauthoriseWorkspace(ctx, caller, params.id, body.token),
      connectToSlack: async ({ caller, params, body }) => {
        await connectUser(ctx, caller, params.username, body.token);
        return null;
      },
      listServiceChannels: ({ caller, params }) => listChannels(ctx, caller, params.service),
      createServiceChannel: ({ caller, params, body }) => addChannel(ctx, caller, params.service, body.channel),
      updateServiceChannel: ({ caller, params, body }) =>
        changeChannel(ctx, caller, params.service, params.provider, body.channel),
      deleteServiceChannel: async ({ caller, params }) => {
        await removeChannel(ctx, caller, params.service, params.provider);
        return null;
      },
    });
}
