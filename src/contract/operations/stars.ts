import { z } from 'zod';
import { usernameParams } from '../accounts.js';
import { idempotencyHeaders, starParams, starredItem } from '../catalogue.js';
import { defineOperations } from '../operation.js';

const tags = ['stars'];

/** A user's starred services (spec/catalogue.md section 7); star and unstar may be replayed offline. */
export const starOperations = defineOperations({
  listStarredServices: {
    method: 'GET',
    path: '/users/:username/starred',
    summary: 'Services a user starred, as far as the viewer may see them',
    tags,
    access: 'user',
    params: usernameParams,
    response: z.array(starredItem),
    errors: [401, 403, 404],
  },
  starService: {
    method: 'PUT',
    path: '/users/:username/starred/:service',
    summary: 'Star a service (yourself only; idempotent)',
    tags,
    access: 'user',
    params: starParams,
    headers: idempotencyHeaders,
    response: null,
    errors: [401, 403, 404],
  },
  unstarService: {
    method: 'DELETE',
    path: '/users/:username/starred/:service',
    summary: 'Unstar a service (yourself only; idempotent)',
    tags,
    access: 'user',
    params: starParams,
    headers: idempotencyHeaders,
    response: null,
    errors: [401, 403, 404],
  },
});
