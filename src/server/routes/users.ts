import type { FastifyInstance } from 'fastify';
import { userOperations } from '../../contract/operations/users.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import { keptUserAnswer, keptUsersAnswer } from '../cache/catalogue-cache.js';
import {
  changeRole,
  clearUserIcon,
  deleteUser,
  getUser,
  searchUsers,
  setUserIcon,
  updateProfile,
} from '../services/accounts/users.js';
import { readIconUpload } from './uploads.js';

export function userRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) =>
    routes(
      ctx,
      app,
      userOperations,
      {
        searchUsers: async ({ caller, query }) => {
          const { users, total } = await searchUsers(ctx, caller, query);
          return { items: users, total };
        },
        getUser: ({ caller, params }) => getUser(ctx, caller, params.username),
        updateUser: ({ caller, params, body }) => updateProfile(ctx, caller, params.username, body),
        uploadUserIcon: async ({ caller, params, request }) =>
          setUserIcon(ctx, caller, params.username, await readIconUpload(request, ctx.config.maxUploadBytes)),
        clearUserIcon: ({ caller, params }) => clearUserIcon(ctx, caller, params.username),
        deleteUser: async ({ caller, params }) => {
          await deleteUser(ctx, caller, params.username);
          return null;
        },
        changeUserRole: ({ caller, params, body }) => changeRole(ctx, caller, params.userId, body.role),
      },
      {
        searchUsers: { keep: keptUsersAnswer },
        getUser: { keep: keptUserAnswer },
      },
    );
}
