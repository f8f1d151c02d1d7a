import { z } from 'zod';
import { invite, inviteCreate, inviteIdParams, joinWorkspace, user } from '../accounts.js';
import { pageQuery } from '../common.js';
import { defineOperations } from '../operation.js';

const tags = ['invites'];

/** Invitations and joining a workspace with one (spec/platform.md section 7). */
export const inviteOperations = defineOperations({
  inviteUser: {
    method: 'POST',
    path: '/invites',
    summary: 'Invite an email to this workspace (owner, admin); 402 when the seats are all taken (billing on)',
    tags,
    access: 'user',
    body: inviteCreate,
    response: invite,
    status: 201,
    errors: [400, 401, 402, 403, 404, 409],
  },
  listInvites: {
    method: 'GET',
    path: '/invites',
    summary: 'Pending invites, paged; total in the `total` header (owner, admin)',
    tags,
    access: 'user',
    query: pageQuery,
    response: z.array(invite),
    paged: true,
    errors: [400, 401, 403, 404],
  },
  resendInvite: {
    method: 'POST',
    path: '/invites/:inviteId/actions/resend',
    summary: 'Send an invite again with a fresh link',
    tags,
    access: 'user',
    params: inviteIdParams,
    response: invite,
    errors: [401, 403, 404],
  },
  joinWorkspace: {
    method: 'POST',
    path: '/users',
    summary: 'Join a workspace with an invite; 402 when the plan has fewer seats than are in use (billing on)',
    tags,
    access: 'public',
    body: joinWorkspace,
    response: user,
    status: 201,
    errors: [400, 402, 404, 409],
  },
});
