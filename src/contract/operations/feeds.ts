import { z } from 'zod';
import { usernameParams } from '../accounts.js';
import { teamParams } from '../catalogue.js';
import { feedEvent, feedQuery, markReadBody, notification } from '../feeds.js';
import { defineOperations } from '../operation.js';

const tags = ['feeds'];

/** Activity feeds (spec/platform.md section 3, docs/decisions.md#feeds): newest first, paged by cursor. */
export const feedOperations = defineOperations({
  getUserFeed: {
    method: 'GET',
    path: '/users/:username/feed',
    summary: 'Your feed: events of your watched services and your teams, minus what you muted (yourself only)',
    tags,
    access: 'user',
    params: usernameParams,
    query: feedQuery,
    response: z.array(feedEvent),
    errors: [400, 401, 403, 404],
  },
  getUserPublicFeed: {
    method: 'GET',
    path: '/users/:username/public-feed',
    summary: 'What a user did, as far as the viewer may see it',
    tags,
    access: 'beacon.user.read',
    params: usernameParams,
    query: feedQuery,
    response: z.array(feedEvent),
    errors: [400, 401, 403, 404],
  },
  getTeamPublicFeed: {
    method: 'GET',
    path: '/teams/:team/public-feed',
    summary: 'Events of a team and its services, as far as the viewer may see them',
    tags,
    access: 'beacon.team.read',
    params: teamParams,
    query: feedQuery,
    response: z.array(feedEvent),
    errors: [400, 401, 403, 404],
  },
});

/** Notifications and the live stream (docs/decisions.md#feeds). */
export const notificationOperations = defineOperations({
  listNotifications: {
    method: 'GET',
    path: '/users/:username/notifications',
    summary: 'Your notifications, newest first; the `unread` header counts those not read (yourself only)',
    tags: ['notifications'],
    access: 'user',
    params: usernameParams,
    query: feedQuery,
    response: z.array(notification),
    errors: [400, 401, 403, 404],
  },
  markNotificationsRead: {
    method: 'POST',
    path: '/users/:username/notifications/actions/mark-read',
    summary: 'Marks your notifications read: those of `ids`, or all (yourself only)',
    tags: ['notifications'],
    access: 'user',
    params: usernameParams,
    body: markReadBody,
    response: null,
    errors: [400, 401, 403, 404],
  },
  streamEvents: {
    method: 'GET',
    path: '/events/stream',
    summary:
      'Server-Sent Events for the caller: `notification` and `unread` events, a heartbeat comment every 25 s, ' +
      'resumable with `Last-Event-ID`; bearer token or session cookie',
    tags: ['notifications'],
    access: 'user',
    response: z.string().describe('text/event-stream'),
    produces: ['text/event-stream'],
    errors: [401, 403],
  },
});
