import { z } from 'zod';
import { serviceParams } from '../catalogue.js';
import { defineOperations } from '../operation.js';
import { apiDrift, specPageParams, specProbesAnswer, specProbesQuery } from '../spec-checks.js';

const tags = ['health'];

/** Specs that check themselves (docs/decisions.md#spec-checks, issue 30). */
export const specCheckOperations = defineOperations({
  listSpecProbes: {
    method: 'GET',
    path: '/services/:service/open-api-specs/:page/probes',
    summary:
      'The operations of a published OpenAPI spec as proposed checks (editors of the service): those that can be ' +
      'probed safely with their URL and assertions, the others with why not; create one with `spec` on the check',
    tags,
    access: 'beacon.health-check.manage',
    params: specPageParams,
    query: specProbesQuery,
    response: specProbesAnswer,
    errors: [400, 401, 403, 404],
  },
  listApiDrift: {
    method: 'GET',
    path: '/services/:service/drift',
    summary: 'The operations whose answers break the service’s published spec now, with one example each',
    tags,
    access: 'beacon.health-check.read',
    params: serviceParams,
    response: z.array(apiDrift),
    errors: [401, 403, 404],
  },
});
