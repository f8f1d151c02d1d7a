import type { FastifyInstance } from 'fastify';
import { dependencyOperations, remoteOperations } from '../../contract/operations/dependencies.js';
import type { ServerContext } from '../context.js';
import { JSON_TYPE, routes } from '../operations.js';
import {
  addDependency,
  addRemoteDependency,
  getServiceGraph,
  linkRemote,
  listDependencySide,
  listRemoteDependencies,
  listRemotes,
  removeDependency,
  removeRemoteDependency,
  searchRemoteServices,
  unlinkRemote,
} from '../services/catalogue/dependencies.js';
import { sendAnswer } from './web.js';

export function dependencyRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) => {
    routes(ctx, app, dependencyOperations, {
      listDependencies: ({ caller, params }) => listDependencySide(ctx, caller, params.service, 'dependencies'),
      addDependency: ({ caller, params, body }) => addDependency(ctx, caller, params.service, body.service.id),
      removeDependency: async ({ caller, params }) => {
        await removeDependency(ctx, caller, params.service, params.dependency);
        return null;
      },
      listDependents: ({ caller, params }) => listDependencySide(ctx, caller, params.service, 'dependents'),
      listRemoteDependencies: ({ caller, params }) => listRemoteDependencies(ctx, caller, params.service),
      addRemoteDependency: ({ caller, params, body }) => addRemoteDependency(ctx, caller, params.service, body),
      removeRemoteDependency: async ({ caller, params }) => {
        await removeRemoteDependency(ctx, caller, params.service, params);
        return null;
      },
      searchRemoteServices: ({ caller, query }) => searchRemoteServices(ctx, caller, query.q),
      getServiceGraph: async ({ caller, params, query, reply }) =>
        // A graph goes as the JSON bytes the graph cache holds: a large one shrinks about tenfold compressed.
        sendAnswer(reply, await getServiceGraph(ctx, caller, params.service, query.depth), JSON_TYPE),
    });
    routes(ctx, app, remoteOperations, {
      listRemotes: ({ caller }) => listRemotes(ctx, caller),
      linkRemote: ({ caller, body }) => linkRemote(ctx, caller, body.remote),
      unlinkRemote: async ({ caller, params }) => {
        await unlinkRemote(ctx, caller, params.remote);
        return null;
      },
    });
  };
}
