import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { usernameParams } from '../../contract/accounts.js';
import {
  autocompleteQuery,
  idempotencyHeaders,
  mutedItem,
  muteBody,
  muteParams,
  mutePatch,
  profileRef,
  starParams,
  starredItem,
  team,
  watchedService,
} from '../../contract/catalogue.js';
import { errorResponses } from '../../contract/common.js';
import type { ServerContext } from '../context.js';
import { requireCaller } from '../http.js';
import { autocompleteServices } from '../services/catalogue-services.js';
import { getMuted, listMuted, muteProfile, unmuteProfile } from '../services/mutes.js';
import { listStarred, listWatched, starService, unstarService } from '../services/stars.js';
import { autocompleteUsers } from '../services/team-members.js';
import { autocompleteTeams, listUserTeams } from '../services/teams.js';

const done = z.null().describe('Done');

/** A user's stars, mutes, watched services and teams; the pickers' autocomplete. */
export function starRoutes(ctx: ServerContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/users/:username/starred',
      {
        config: { scope: null },
        schema: {
          tags: ['stars'],
          summary: 'Services a user starred, as far as the viewer may see them',
          params: usernameParams,
          response: { 200: z.array(starredItem), ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => listStarred(ctx, await requireCaller(ctx, request), request.params.username),
    );

    app.put(
      '/users/:username/starred/:service',
      {
        config: { scope: null },
        schema: {
          tags: ['stars'],
          summary: 'Star a service (yourself only; idempotent)',
          params: starParams,
          headers: idempotencyHeaders,
          response: { 204: done, ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        const { username, service } = request.params;
        await starService(ctx, await requireCaller(ctx, request), username, service);
        return reply.code(204).send(null);
      },
    );

    app.delete(
      '/users/:username/starred/:service',
      {
        config: { scope: null },
        schema: {
          tags: ['stars'],
          summary: 'Unstar a service (yourself only; idempotent)',
          params: starParams,
          headers: idempotencyHeaders,
          response: { 204: done, ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        const { username, service } = request.params;
        await unstarService(ctx, await requireCaller(ctx, request), username, service);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/users/:username/muted',
      {
        config: { scope: null },
        schema: {
          tags: ['stars'],
          summary: 'Your muted services, teams and users (yourself only)',
          params: usernameParams,
          response: { 200: z.array(mutedItem), ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => listMuted(ctx, await requireCaller(ctx, request), request.params.username),
    );

    app.get(
      '/users/:username/muted/:profile',
      {
        config: { scope: null },
        schema: {
          tags: ['stars'],
          summary: 'One of your mutes, by the profile’s id; 404 when not muted',
          params: muteParams,
          response: { 200: mutedItem, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const { username, profile } = request.params;
        return getMuted(ctx, await requireCaller(ctx, request), username, profile);
      },
    );

    app.put(
      '/users/:username/muted/:profile',
      {
        config: { scope: null },
        schema: {
          tags: ['stars'],
          summary: 'Mute a service, team or user by its id (yourself only; both flags default to true)',
          params: muteParams,
          headers: idempotencyHeaders,
          body: muteBody,
          response: { 200: mutedItem, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { username, profile } = request.params;
        return muteProfile(ctx, await requireCaller(ctx, request), username, profile, () => request.body);
      },
    );

    app.patch(
      '/users/:username/muted/:profile',
      {
        config: { scope: null },
        schema: {
          tags: ['stars'],
          summary: 'Change the flags of a mute, muting first when needed (yourself only)',
          params: muteParams,
          headers: idempotencyHeaders,
          body: mutePatch,
          response: { 200: mutedItem, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { username, profile } = request.params;
        const { activity, notifications } = request.body;
        return muteProfile(ctx, await requireCaller(ctx, request), username, profile, (current) => ({
          activity: activity ?? current?.activity ?? true,
          notifications: notifications ?? current?.notifications ?? true,
        }));
      },
    );

    app.delete(
      '/users/:username/muted/:profile',
      {
        config: { scope: null },
        schema: {
          tags: ['stars'],
          summary: 'Unmute (yourself only; idempotent)',
          params: muteParams,
          headers: idempotencyHeaders,
          response: { 204: done, ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        const { username, profile } = request.params;
        await unmuteProfile(ctx, await requireCaller(ctx, request), username, profile);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/users/:username/services',
      {
        config: { scope: null },
        schema: {
          tags: ['stars'],
          summary: 'Watched services: those of the user’s teams and those they starred (`muted` for yourself only)',
          params: usernameParams,
          response: { 200: z.array(watchedService), ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => listWatched(ctx, await requireCaller(ctx, request), request.params.username),
    );

    app.get(
      '/users/:username/teams',
      {
        config: { scope: 'beacon.team.read' },
        schema: {
          tags: ['teams'],
          summary: 'The teams a user belongs to, by name',
          params: usernameParams,
          response: { 200: z.array(team), ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => listUserTeams(ctx, await requireCaller(ctx, request), request.params.username),
    );

    const pickers = [
      ['teams', autocompleteTeams, 'Teams by name or handle, at most 10', 'beacon.team.read'],
      ['users', autocompleteUsers, 'Users by name, handle or email, at most 10', 'beacon.user.read'],
      [
        'services',
        autocompleteServices,
        'Services the viewer may see by name or handle, at most 10',
        'beacon.service.read',
      ],
    ] as const;
    for (const [kind, find, summary, scope] of pickers) {
      app.get(
        `/autocomplete/${kind}`,
        {
          config: { scope },
          schema: {
            tags: ['search'],
            summary,
            querystring: autocompleteQuery,
            response: { 200: z.array(profileRef), ...errorResponses(400, 401, 403, 404) },
          },
        },
        async (request) => find(ctx, await requireCaller(ctx, request), request.query.q),
      );
    }
  };
}
