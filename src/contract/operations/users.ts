import { z } from 'zod';
import { roleChange, user, userIdParams, usernameParams, userUpdate } from '../accounts.js';
import { pageQuery } from '../common.js';
import { defineOperations } from '../operation.js';

const tags = ['users'];
const own = { tags, access: 'user', params: usernameParams, response: user } as const;

/** Users of a workspace and their profiles (spec/platform.md section 7). */
export const userOperations = defineOperations({
  searchUsers: {
    method: 'GET',
    path: '/search/users',
    summary: 'Users of this workspace, paged and searchable; total in the `total` header',
    tags,
    access: 'beacon.user.read',
    query: pageQuery,
    response: z.array(user),
    paged: true,
    errors: [400, 401, 403, 404],
  },
  getUser: {
    method: 'GET',
    path: '/users/:username',
    summary: 'One user by handle or id',
    tags,
    access: 'beacon.user.read',
    params: usernameParams,
    response: user,
    errors: [401, 403, 404],
  },
  updateUser: {
    ...own,
    method: 'PATCH',
    path: '/users/:username',
    summary: 'Update your own profile',
    body: userUpdate,
    errors: [400, 401, 403, 404],
  },
  uploadUserIcon: {
    ...own,
    method: 'POST',
    path: '/users/:username/icon',
    summary: 'Upload your avatar (multipart field `icon`, PNG, JPEG, GIF or WebP)',
    consumes: ['multipart/form-data'],
    errors: [400, 401, 403, 404],
  },
  clearUserIcon: {
    ...own,
    method: 'DELETE',
    path: '/users/:username/icon',
    summary: 'Clear your avatar',
    errors: [401, 403, 404],
  },
  deleteUser: {
    method: 'DELETE',
    path: '/users/:username',
    summary: 'Delete another user (super admin)',
    tags,
    access: 'user',
    params: usernameParams,
    response: null,
    errors: [400, 401, 403, 404, 409],
  },
  changeUserRole: {
    method: 'POST',
    path: '/users/:userId/actions/change-role',
    summary: "Change a user's role (owner, admin; only an owner makes or changes an owner)",
    tags,
    access: 'user',
    params: userIdParams,
    body: roleChange,
    response: user,
    errors: [400, 401, 403, 404, 409],
  },
});
