import { z } from 'zod';
import { usernameParams } from '../accounts.js';
import { team } from '../catalogue.js';
import { defineOperations } from '../operation.js';

/** The teams a user belongs to (spec/catalogue.md section 7). */
export const userTeamOperations = defineOperations({
  listUserTeams: {
    method: 'GET',
    path: '/users/:username/teams',
    summary: 'The teams a user belongs to, by name',
    tags: ['teams'],
    access: 'beacon.team.read',
    params: usernameParams,
    response: z.array(team),
    errors: [401, 403, 404],
  },
});
