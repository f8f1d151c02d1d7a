import { z } from 'zod';
import { usernameParams } from '../accounts.js';
import { teamParams } from '../catalogue.js';
import { feedEvent, feedQuery } from '../feeds.js';
import { defineOperations } from '../operation.js';

const tags = ['feeds'];

/**
 * Activity feeds (spec/platform.md section 3, DESIGN.md section 9). Declared for the app, which reads them
 * already; the server serves them with the feeds work (until then they answer 404, shown as 'No Events'), so
 * they are not registered and not in the OpenAPI document yet.
 */
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
