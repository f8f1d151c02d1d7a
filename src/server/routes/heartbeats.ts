import type { FastifyInstance } from 'fastify';
import { heartbeatOperations } from '../../contract/operations/health.js';
import type { ServerContext } from '../context.js';
import { requireWorkspace } from '../http.js';
import { routes, type HandlerArgs } from '../operations.js';
import { recordPing, type PingKind } from '../services/health/heartbeats.js';

/**
 * Heartbeat pings (docs/decisions.md#checks): no login. A job pings however its tooling does (curl with or without a
 * body, a form, a log line), so any body of any type is taken and ignored.
 */
export function heartbeatRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 100_000 }, (_request, _body, done) =>
      done(null, undefined),
    );
    const ping =
      (kind: PingKind) =>
      async ({ request, params, query }: HandlerArgs<typeof heartbeatOperations.pingHeartbeat>) => {
        await recordPing(ctx, await requireWorkspace(ctx, request), params.token, kind, query.exit_code);
        return { ok: true as const };
      };
    routes(ctx, app, heartbeatOperations, {
      pingHeartbeat: ping('success'),
      pingHeartbeatPost: ping('success'),
      pingHeartbeatStart: ping('start'),
      pingHeartbeatStartPost: ping('start'),
      pingHeartbeatFail: ping('fail'),
      pingHeartbeatFailPost: ping('fail'),
    });
  };
}
