import type { FastifyInstance } from 'fastify';
import { muteOperations } from '../../contract/operations/mutes.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import { getMuted, listMuted, muteProfile, unmuteProfile } from '../services/catalogue/mutes.js';

/** A user's muted services, teams and users. */
export function muteRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(ctx, app, muteOperations, {
      listMutes: ({ caller, params }) => listMuted(ctx, caller, params.username),
      getMute: ({ caller, params }) => getMuted(ctx, caller, params.username, params.profile),
      muteProfile: ({ caller, params, body }) => muteProfile(ctx, caller, params.username, params.profile, () => body),
      updateMute: ({ caller, params, body }) =>
        muteProfile(ctx, caller, params.username, params.profile, (current) => ({
          activity: body.activity ?? current?.activity ?? true,
          notifications: body.notifications ?? current?.notifications ?? true,
        })),
      unmuteProfile: async ({ caller, params }) => {
        await unmuteProfile(ctx, caller, params.username, params.profile);
        return null;
      },
    });
}
