import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { roleChange, user, userIdParams, usernameParams, userUpdate } from '../../contract/accounts.js';
import { errorResponses, pageQuery } from '../../contract/common.js';
import type { ServerContext } from '../context.js';
import { badRequest } from '../errors.js';
import { requireCaller, sendPage } from '../http.js';
import {
  changeRole,
  clearIcon,
  deleteUser,
  getUser,
  searchUsers,
  setIcon,
  toUser,
  updateProfile,
} from '../services/users.js';

/** Reads the one multipart file field named `icon`, refusing anything over the upload limit. */
export async function readIconUpload(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  if (!request.isMultipart())
    throw badRequest('Send the image as multipart/form-data in a field named icon', { icon: ['Required'] });
  const file = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
  if (!file || file.fieldname !== 'icon')
    throw badRequest('Send the image in a field named icon', { icon: ['Required'] });
  try {
    return await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw badRequest(`The image is larger than ${Math.round(maxBytes / 1024)} KB`, { icon: ['Too large'] });
    }
    throw error;
  }
}

export function userRoutes(ctx: ServerContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/search/users',
      {
        config: { scope: 'beacon.user.read' },
        schema: {
          tags: ['users'],
          summary: 'Users of this workspace, paged and searchable; total in the `total` header',
          querystring: pageQuery,
          response: { 200: z.array(user), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const { workspace } = await requireCaller(ctx, request);
        const { users, total } = await searchUsers(ctx, workspace, request.query);
        return sendPage(reply, users, total);
      },
    );

    app.get(
      '/users/:username',
      {
        config: { scope: 'beacon.user.read' },
        schema: {
          tags: ['users'],
          summary: 'One user by handle or id',
          params: usernameParams,
          response: { 200: user, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const { workspace } = await requireCaller(ctx, request);
        return toUser(await getUser(ctx, workspace, request.params.username));
      },
    );

    app.patch(
      '/users/:username',
      {
        config: { scope: null },
        schema: {
          tags: ['users'],
          summary: 'Update your own profile',
          params: usernameParams,
          body: userUpdate,
          response: { 200: user, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { workspace, user: actor } = await requireCaller(ctx, request);
        return toUser(await updateProfile(ctx, workspace, actor, request.params.username, request.body));
      },
    );

    app.post(
      '/users/:username/icon',
      {
        config: { scope: null },
        schema: {
          tags: ['users'],
          summary: 'Upload your avatar (multipart field `icon`, PNG, JPEG, GIF or WebP)',
          params: usernameParams,
          consumes: ['multipart/form-data'],
          response: { 200: user, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { workspace, user: actor } = await requireCaller(ctx, request);
        const data = await readIconUpload(request, ctx.config.maxUploadBytes);
        return toUser(await setIcon(ctx, workspace, actor, request.params.username, data));
      },
    );

    app.delete(
      '/users/:username/icon',
      {
        config: { scope: null },
        schema: {
          tags: ['users'],
          summary: 'Clear your avatar',
          params: usernameParams,
          response: { 200: user, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const { workspace, user: actor } = await requireCaller(ctx, request);
        return toUser(await clearIcon(ctx, workspace, actor, request.params.username));
      },
    );

    app.delete(
      '/users/:username',
      {
        config: { scope: null },
        schema: {
          tags: ['users'],
          summary: 'Delete another user (super admin)',
          params: usernameParams,
          response: { 204: z.null().describe('Deleted'), ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const { workspace, user: actor } = await requireCaller(ctx, request);
        await deleteUser(ctx, workspace, actor, request.params.username);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/users/:userId/actions/change-role',
      {
        config: { scope: null },
        schema: {
          tags: ['users'],
          summary: "Change a user's role (owner, admin; only an owner makes or changes an owner)",
          params: userIdParams,
          body: roleChange,
          response: { 200: user, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const { workspace, user: actor } = await requireCaller(ctx, request);
        return toUser(await changeRole(ctx, workspace, actor, request.params.userId, request.body.role));
      },
    );
  };
}
