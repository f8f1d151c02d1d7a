import { z } from 'zod';
import { teamParams } from '../catalogue.js';
import { client, clientCreate, clientParams, clientUpdate } from '../clients.js';
import { defineOperations } from '../operation.js';

/** Clients may not manage clients (`'user'`): a client could otherwise mint one with more scopes. */
const teamAdmins = { tags: ['clients'], access: 'user' } as const;

/** A team's API clients (spec/catalogue.md section 7): team admins only. */
export const clientOperations = defineOperations({
  listClients: {
    ...teamAdmins,
    method: 'GET',
    path: '/teams/:team/clients',
    summary: 'The API clients of a team, by name, without their secrets (team admins)',
    params: teamParams,
    response: z.array(client),
    errors: [401, 403, 404],
  },
  getClient: {
    ...teamAdmins,
    method: 'GET',
    path: '/teams/:team/clients/:client',
    summary: 'One API client by handle (or client_id), without its secret (team admins)',
    params: clientParams,
    response: client,
    errors: [401, 403, 404],
  },
  createClient: {
    ...teamAdmins,
    method: 'POST',
    path: '/teams/:team/clients',
    summary:
      'Create an API client (team admins): name, description, at least one scope; the answer carries the ' +
      'client_secret, the only time it is shown',
    params: teamParams,
    body: clientCreate,
    response: client,
    status: 201,
    errors: [400, 401, 403, 404, 409],
  },
  updateClient: {
    ...teamAdmins,
    method: 'PATCH',
    path: '/teams/:team/clients/:client',
    summary: "Change an API client's name, description or scopes (team admins)",
    params: clientParams,
    body: clientUpdate,
    response: client,
    errors: [400, 401, 403, 404],
  },
  updateClientSecret: {
    ...teamAdmins,
    method: 'POST',
    path: '/teams/:team/clients/:client/actions/update-secret',
    summary:
      'Replace the client_secret (team admins): the answer carries the new secret, shown only this once; ' +
      'tokens issued with the old one stop working',
    params: clientParams,
    response: client,
    errors: [401, 403, 404],
  },
  deleteClient: {
    ...teamAdmins,
    method: 'DELETE',
    path: '/teams/:team/clients/:client',
    summary: 'Delete an API client; its tokens stop working (team admins)',
    params: clientParams,
    response: null,
    errors: [401, 403, 404],
  },
});
