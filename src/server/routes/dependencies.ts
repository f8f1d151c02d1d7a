import type { FastifyInstance } from 'fastify';
import { dependencyOperations, remoteOperations } from '../../contract/operations/dependencies.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import {
  addDependency,
  addRemoteDependency,
  getServiceGraph,
  linkRemote,
  listDependencies,
  listDependents,
  listRemoteDependencies,
  listRemotes,
  removeDependency,
  removeRemoteDependency,
  searchRemoteServices,
  unlinkRemote,
} from '../services/dependencies.js';

export function dependencyRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) => {
    routes(ctx, app, dependencyOperations, {
      listDependencies: ({ caller, params }) => listDependencies(ctx, caller, params.service),
      addDependency: ({ caller, params, body }) => addDependency(ctx, caller, params.service, body.service.id),
      removeDependency: async ({ caller, params }) => {
        await removeDependency(ctx, caller, params.service, params.dependency);
        return null;
      },
      listDependents: ({ caller, params }) => listDependents(ctx, caller, params.service),
      listRemoteDependencies: ({ caller, params }) => listRemoteDependencies(ctx, caller, params.service),
      addRemoteDependency: ({ caller, params, body }) => addRemoteDependency(ctx, caller, params.service, body),
      removeRemoteDependency: async ({ caller, params }) => {
        await removeRemoteDependency(ctx, caller, params.service, params);
        return null;
      },
      searchRemoteServices: ({ caller, query }) => searchRemoteServices(ctx, caller, query.q),
      getServiceGraph: ({ caller, params, query }) => getServiceGraph(ctx, caller, params.service, query.depth),
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
