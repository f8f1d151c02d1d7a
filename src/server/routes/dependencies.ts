import type { FastifyInstance, FastifyReply } from 'fastify';
import { dependencyOperations, remoteOperations } from '../../contract/operations/dependencies.js';
import type { ServerContext } from '../context.js';
import { routes } from '../operations.js';
import type { GraphAnswer } from '../services/graph-cache.js';
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
} from '../services/dependencies.js';
import { acceptsEncoding } from './web.js';

/**
 * A graph goes as the JSON bytes the cache holds (made once from the contract's ServiceGraph; nothing to serialise),
 * compressed when the client accepts it: a large graph shrinks about tenfold, and its twin is made once.
 */
async function sendGraph(reply: FastifyReply, accepted: string | undefined, answer: GraphAnswer) {
  void reply.header('vary', 'accept-encoding').type('application/json; charset=utf-8');
  const coding = !answer.compressible
    ? null
    : acceptsEncoding(accepted, 'br')
      ? 'br'
      : acceptsEncoding(accepted, 'gzip')
        ? 'gzip'
        : null;
  if (coding === null) return reply.send(answer.body);
  return reply.header('content-encoding', coding).send(await answer.encoded(coding));
}

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
      getServiceGraph: async ({ caller, params, query, request, reply }) =>
        sendGraph(
          reply,
          request.headers['accept-encoding'],
          await getServiceGraph(ctx, caller, params.service, query.depth),
        ),
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
