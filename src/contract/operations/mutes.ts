import { z } from 'zod';
import { usernameParams } from '../accounts.js';
import { idempotencyHeaders, mutedItem, muteBody, muteParams, mutePatch } from '../catalogue.js';
import { defineOperations } from '../operation.js';

const tags = ['stars'];
const mute = { tags, access: 'user', params: muteParams } as const;

/** A user's muted services, teams and users (spec/catalogue.md section 7); writes may be replayed offline. */
export const muteOperations = defineOperations({
  listMutes: {
    method: 'GET',
    path: '/users/:username/muted',
    summary: 'Your muted services, teams and users (yourself only)',
    tags,
    access: 'user',
    params: usernameParams,
    response: z.array(mutedItem),
    errors: [401, 403, 404],
  },
  getMute: {
    ...mute,
    method: 'GET',
    path: '/users/:username/muted/:profile',
    summary: 'One of your mutes, by the profile’s id; 404 when not muted',
    response: mutedItem,
    errors: [401, 403, 404],
  },
  muteProfile: {
    ...mute,
    method: 'PUT',
    path: '/users/:username/muted/:profile',
    summary: 'Mute a service, team or user by its id (yourself only; both flags default to true)',
    headers: idempotencyHeaders,
    body: muteBody,
    response: mutedItem,
    errors: [400, 401, 403, 404],
  },
  updateMute: {
    ...mute,
    method: 'PATCH',
    path: '/users/:username/muted/:profile',
    summary: 'Change the flags of a mute, muting first when needed (yourself only)',
    headers: idempotencyHeaders,
    body: mutePatch,
    response: mutedItem,
    errors: [400, 401, 403, 404],
  },
  unmuteProfile: {
    ...mute,
    method: 'DELETE',
    path: '/users/:username/muted/:profile',
    summary: 'Unmute (yourself only; idempotent)',
    headers: idempotencyHeaders,
    response: null,
    errors: [401, 403, 404],
  },
});
