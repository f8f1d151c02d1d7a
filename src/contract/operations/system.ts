import { z } from 'zod';
import { defineOperations } from '../operation.js';

const tags = ['system'];

/** Liveness, readiness and the API contract itself; left out of the document they serve. */
export const systemOperations = defineOperations({
  getReadiness: {
    method: 'GET',
    path: '/healthz',
    summary: 'Answers when the server is ready: 503 while the database does not answer',
    tags,
    access: 'public',
    response: z.object({ status: z.literal('ok') }),
    errors: [503],
    hidden: true,
  },
  getLiveness: {
    method: 'GET',
    path: '/livez',
    summary: 'Answers while the process is up, whatever the database does',
    tags,
    access: 'public',
    response: z.object({ status: z.literal('ok') }),
    errors: [],
    hidden: true,
  },
  getOpenApiDocument: {
    method: 'GET',
    path: '/openapi.json',
    summary: 'The OpenAPI document of this API',
    tags,
    access: 'public',
    response: z.unknown(),
    errors: [],
    hidden: true,
  },
});
