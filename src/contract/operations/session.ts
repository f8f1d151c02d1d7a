import { sessionCreate, sessionCreated, sessionDelete, tokenRequest, tokenResponse } from '../accounts.js';
import { defineOperations } from '../operation.js';

const tags = ['session'];

/** Log in, log out and access tokens (spec/platform.md section 7; docs/decisions.md#api-conventions). */
export const sessionOperations = defineOperations({
  createSession: {
    method: 'POST',
    path: '/session',
    summary: 'Log in with email and password; sets the session cookie',
    tags,
    access: 'public',
    body: sessionCreate,
    response: sessionCreated,
    // JSON only: a form posted from another site would be a login CSRF.
    errors: [400, 401, 403, 404, 415, 429],
  },
  deleteSession: {
    method: 'DELETE',
    path: '/session',
    summary: 'Log out: ends the session',
    tags,
    access: 'public',
    body: sessionDelete.optional(),
    response: null,
    errors: [404],
  },
  issueToken: {
    method: 'POST',
    path: '/token',
    summary:
      'A short-lived access token: grant_type=session exchanges the session cookie (sub user:{workspace}:' +
      '{handle}); grant_type=client_credentials takes an API client’s client_id and client_secret (in the ' +
      'body, JSON or form-encoded, or as HTTP Basic) and an optional space-separated scope narrowing the ' +
      'client’s scopes (sub client:{workspace}:{client handle}). Bad credentials: 401',
    tags,
    access: 'public',
    body: tokenRequest,
    response: tokenResponse,
    errors: [400, 401, 403, 404, 429],
  },
});
