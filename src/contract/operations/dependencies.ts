import { z } from 'zod';
import { serviceParams } from '../catalogue.js';
import {
  dependencyCreate,
  dependencyItem,
  dependencyParams,
  graphQuery,
  remoteCreate,
  remoteDependency,
  remoteDependencyCreate,
  remoteDependencyParams,
  remoteList,
  remoteParams,
  remoteSearchQuery,
  remoteService,
  serviceGraph,
} from '../dependencies.js';
import { defineOperations } from '../operation.js';

const tags = ['dependencies'];
const read = { tags, access: 'beacon.service.read', params: serviceParams } as const;
const edit = { tags, access: 'beacon.service.manage' } as const;

/** Dependencies, dependents, remote dependencies and the graph (spec/catalogue.md 7; docs/decisions.md#graph). */
export const dependencyOperations = defineOperations({
  listDependencies: {
    ...read,
    method: 'GET',
    path: '/services/:service/dependencies',
    summary: 'The services this service depends on that the viewer may see, by name',
    response: z.array(dependencyItem),
    errors: [401, 403, 404],
  },
  addDependency: {
    ...edit,
    method: 'POST',
    path: '/services/:service/dependencies',
    params: serviceParams,
    summary:
      'Add a dependency (editors of the service): not on itself (400), not twice (409), only on a service the ' +
      'caller can see (404); cycles are allowed',
    body: dependencyCreate,
    response: dependencyItem,
    status: 201,
    errors: [400, 401, 403, 404, 409],
  },
  removeDependency: {
    ...edit,
    method: 'DELETE',
    path: '/services/:service/dependencies/:dependency',
    params: dependencyParams,
    summary: 'Remove a dependency (editors of the service)',
    response: null,
    errors: [401, 403, 404],
  },
  listDependents: {
    ...read,
    method: 'GET',
    path: '/services/:service/dependents',
    summary: 'The services that depend on this service that the viewer may see, by name',
    response: z.array(dependencyItem),
    errors: [401, 403, 404],
  },
  listRemoteDependencies: {
    ...read,
    method: 'GET',
    path: '/services/:service/remote-dependencies',
    summary:
      'Public services of linked workspaces this service depends on, with their live health; one that lost its ' +
      'target stays listed with `available: false`',
    response: z.array(remoteDependency),
    errors: [401, 403, 404],
  },
  addRemoteDependency: {
    ...edit,
    method: 'POST',
    path: '/services/:service/remote-dependencies',
    params: serviceParams,
    summary: 'Depend on a public service of a linked workspace (editors of the service); twice is 409',
    body: remoteDependencyCreate,
    response: remoteDependency,
    status: 201,
    errors: [400, 401, 403, 404, 409],
  },
  removeRemoteDependency: {
    ...edit,
    method: 'DELETE',
    path: '/services/:service/remote-dependencies/:workspace/:remote',
    params: remoteDependencyParams,
    summary: 'Remove a remote dependency (editors of the service)',
    response: null,
    errors: [401, 403, 404],
  },
  searchRemoteServices: {
    method: 'GET',
    path: '/search-remotes/services',
    summary: 'Public services of the linked workspaces by name or handle, with their live health, at most 10',
    tags,
    access: 'beacon.service.read',
    query: remoteSearchQuery,
    response: z.array(remoteService),
    errors: [400, 401, 403, 404],
  },
  getServiceGraph: {
    ...read,
    method: 'GET',
    path: '/services/:service/graph',
    summary:
      'Dependencies and dependents walked from the service up to `depth` steps each way (1-6, default 2), over ' +
      'services the viewer may see, with remote dependencies as leaves; at most 2,000 nodes (`truncated`)',
    query: graphQuery,
    response: serviceGraph,
    errors: [400, 401, 403, 404],
  },
});

/** Linked workspaces (spec/platform.md admin area; docs/decisions.md#graph): workspace admins and owners. */
export const remoteOperations = defineOperations({
  listRemotes: {
    method: 'GET',
    path: '/remotes',
    summary: 'The workspaces this one is linked to, by domain (workspace admins and owners)',
    tags: ['remotes'],
    access: 'user',
    response: remoteList,
    errors: [401, 403, 404],
  },
  linkRemote: {
    method: 'POST',
    path: '/remotes',
    summary:
      'Link a workspace by domain: its public services become visible here (admins and owners); unknown 404, ' +
      'this workspace 400, twice 409',
    tags: ['remotes'],
    access: 'user',
    body: remoteCreate,
    response: remoteList,
    status: 201,
    errors: [400, 401, 403, 404, 409],
  },
  unlinkRemote: {
    method: 'DELETE',
    path: '/remotes/:remote',
    summary: 'Unlink a workspace (admins and owners); its remote dependencies stay, unavailable',
    tags: ['remotes'],
    access: 'user',
    params: remoteParams,
    response: null,
    errors: [401, 403, 404],
  },
});
