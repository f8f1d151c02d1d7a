import { ApiError } from '../api/client.js';

/**
 * Retry policy of the users area: a 4xx answer (a missing user, a route the server does not have yet, a refused
 * list) will not change on a retry, so it fails at once; anything else is retried once.
 */
export function retryUnlessClientError(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}
