/**
 * Registers API operations declared in the contract (src/contract/operation.ts) as Fastify routes: the route's
 * schema, its OpenAPI entry and who may call it all come from the declaration, so a route module holds only its
 * handlers. Authentication happens once per request, in a hook driven by the operation's `access`: the handler
 * gets the caller ready, never authenticates itself.
 */
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  routeSchemaOf,
  successStatus,
  type Operation,
  type OperationOutput,
  type PageItem,
  type PageOf,
  type ParsedInput,
} from '../contract/operation.js';
import type { RouteScope } from '../domain/scopes.js';
import type { Answer, Made } from './cache/answer-cache.js';
import type { ServerContext } from './context.js';
import { requireCaller } from './http.js';
import type { Caller } from './services/accounts/auth.js';
import { answerOnce, requestFingerprint } from './idempotency.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller, set before the handler runs on every operation that is not public. */
    caller?: Caller;
  }
}

/** What a handler gets: the validated input, the caller (unless the operation is public), the raw request. */
export type HandlerArgs<O extends Operation> = ParsedInput<O> & {
  request: FastifyRequest;
  reply: FastifyReply;
} & (O['access'] extends 'public' ? object : { caller: Caller });

/** A handler answers the success body (a page for paged lists), or the reply when it sent something itself. */
export type HandlerResult<O extends Operation> =
  (O['paged'] extends true ? PageOf<PageItem<O>> : OperationOutput<O>) | FastifyReply;

export type Handler<O extends Operation> = (args: HandlerArgs<O>) => Promise<HandlerResult<O>> | HandlerResult<O>;

export interface RouteExtras {
  /** Extra Fastify route config (rate limits). */
  config?: Omit<FastifyContextConfig, 'scope'>;
  /** How this route authenticates, when not by bearer token alone (assets also take the session cookie). */
  authenticate?: (request: FastifyRequest) => (domain: string) => Promise<Caller>;
  /**
   * Where this read's answers are kept (cache/catalogue-cache.ts): the kept answer for the caller and the
   * request's path and query, or the one `make` makes; `null` when nothing is kept. `params` and `query` are the
   * request's, as validated.
   */
  keep?: (
    ctx: ServerContext,
    caller: Caller,
    path: string,
    make: (as?: Caller) => Promise<Made>,
    params: Readonly<Record<string, string>>,
    query: Readonly<Record<string, unknown>>,
  ) => Promise<Answer | null>;
  /** A larger body than the server's 1 MiB default (descriptor files). */
  bodyLimit?: number;
}

/** The route's decision for API clients, as the scope tests and http.ts read it. */
export function routeScopeOf(operation: Operation): RouteScope | undefined {
  if (operation.access === 'public') return undefined;
  return operation.access === 'user' ? null : operation.access;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The JSON bytes of `value` as the route's serializer writes them (checked against the contract's schema). */
export function serialized(reply: FastifyReply, value: unknown): Buffer {
  const out = reply.serialize(value);
  return typeof out === 'string' ? Buffer.from(out) : Buffer.from(out as Uint8Array);
}

function isReply(value: unknown): value is FastifyReply {
  return typeof value === 'object' && value !== null && 'raw' in value && 'sent' in value && 'code' in value;
}

/** Registers one operation with its handler. `app` is the `/api` scope. */
export function route<O extends Operation>(
  ctx: ServerContext,
  app: FastifyInstance,
  operation: O,
  handler: Handler<O>,
  extras: RouteExtras = {},
): void {
  const status = successStatus(operation);
  const scope = routeScopeOf(operation);
  app.route({
    method: operation.method,
    url: operation.path,
    schema: routeSchemaOf(operation),
    ...(extras.bodyLimit ? { bodyLimit: extras.bodyLimit } : {}),
    config: { ...extras.config, ...(scope !== undefined ? { scope } : {}) },
    preHandler:
      operation.access === 'public'
        ? undefined
        : async (request) => {
            request.caller = await requireCaller(ctx, request, extras.authenticate?.(request));
          },
    handler: async (request, reply) => {
      const args = {
        params: request.params,
        query: request.query,
        body: request.body,
        request,
        reply,
        caller: request.caller,
      } as unknown as HandlerArgs<O>;
      const { keep } = extras;
      if (keep && request.caller) {
        // `as`: the answer for another caller (a keeper makes what every member sees with a caller of no team).
        const made = async (as?: Caller): Promise<Made> => {
          const result = (await handler(as ? { ...args, caller: as } : args)) as HandlerResult<O>;
          if (operation.paged) {
            const page = result as PageOf<unknown>;
            return {
              body: serialized(reply, page.items),
              headers: { total: String(page.total) },
              value: page.items,
              // A page is an array: its serializer writes one item as `[item]`.
              serializeItem: (item) => serialized(reply, [item]).subarray(1, -1),
              itemShape: operation,
            };
          }
          return {
            body: serialized(reply, result),
            value: result,
            serializeItem: (item) => serialized(reply, item),
            itemShape: operation,
          };
        };
        const kept = await keep(
          ctx,
          request.caller,
          request.url,
          made,
          request.params as Record<string, string>,
          (request.query ?? {}) as Record<string, unknown>,
        );
        if (kept) return reply.code(status).headers(kept.headers).type(JSON_TYPE).send(kept.body);
      }
      const replayKey = operation.replayable ? request.headers['idempotency-key'] : undefined;
      if (typeof replayKey === 'string' && replayKey && request.caller) {
        const fingerprint = requestFingerprint(request.method, request.url, request.body);
        const answer = await answerOnce(ctx, request.caller, replayKey, fingerprint, async () => {
          const result = await handler(args);
          return { status, body: status === 204 ? '' : serialized(reply, result).toString('utf8') };
        });
        if (answer.replayed) void reply.header('idempotent-replayed', 'true');
        if (answer.status === 204) return reply.code(204).send();
        return reply.code(answer.status).type(JSON_TYPE).send(answer.body);
      }
      const result = await handler(args);
      // A handler that sent the answer itself returns the reply, which is a thenable: awaiting it gives undefined
      // once the answer went, and sending again would only log FST_ERR_REP_ALREADY_SENT (with a stack) each time.
      if (isReply(result) || reply.sent) return reply;
      if (operation.paged) {
        const page = result as PageOf<unknown>;
        void reply.header('total', String(page.total));
        return reply.code(status).send(page.items);
      }
      return reply.code(status).send(status === 204 ? null : result);
    },
  });
}

/** Registers a group of operations: `routes(ctx, app, { op: handler, ... })` over an operations object. */
export function routes<T extends Record<string, Operation>>(
  ctx: ServerContext,
  app: FastifyInstance,
  operations: T,
  handlers: { [K in keyof T]: Handler<T[K]> },
  extras: Partial<Record<keyof T, RouteExtras>> = {},
): void {
  for (const key of Object.keys(operations) as (keyof T)[])
    route(ctx, app, operations[key]!, handlers[key], extras[key] ?? {});
}
