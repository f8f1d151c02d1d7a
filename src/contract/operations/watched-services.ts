import { z } from 'zod';
import { usernameParams } from '../accounts.js';
import { watchedService } from '../catalogue.js';
import { defineOperations } from '../operation.js';

/** The services a user watches (docs/decisions.md#open-decisions): those of their teams and those they starred. */
export const watchedServiceOperations = defineOperations({
  listWatchedServices: {
    method: 'GET',
    path: '/users/:username/services',
    summary: 'Watched services: those of the user’s teams and those they starred (`muted` for yourself only)',
    tags: ['stars'],
    access: 'user',
    params: usernameParams,
    response: z.array(watchedService),
    errors: [401, 403, 404],
  },
});
