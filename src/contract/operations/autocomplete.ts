import { z } from 'zod';
import { autocompleteQuery, profileRef } from '../catalogue.js';
import { defineOperations } from '../operation.js';

const picker = {
  method: 'GET',
  tags: ['search'],
  query: autocompleteQuery,
  response: z.array(profileRef),
  errors: [400, 401, 403, 404],
} as const;

/** The pickers' autocomplete: at most 10 matches each. */
export const autocompleteOperations = defineOperations({
  autocompleteTeams: {
    ...picker,
    path: '/autocomplete/teams',
    summary: 'Teams by name or handle, at most 10',
    access: 'beacon.team.read',
  },
  autocompleteUsers: {
    ...picker,
    path: '/autocomplete/users',
    summary: 'Users by name, handle or email, at most 10',
    access: 'beacon.user.read',
  },
  autocompleteServices: {
    ...picker,
    path: '/autocomplete/services',
    summary: 'Services the viewer may see by name or handle, at most 10',
    access: 'beacon.service.read',
  },
});
