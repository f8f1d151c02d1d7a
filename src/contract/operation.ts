/**
 * API operations as data: each operation of the HTTP API is declared once, here in the contract (method, path,
 * params, query, body, response, who may call it, summary, error codes). The server registers its routes from
 * these declarations, the OpenAPI document is generated from them, and the app calls them typed end to end
 * (`api.call(operation, input)`), so no path, payload or response shape is written twice.
 */
import { z } from 'zod';
import type { ClientScope } from '../domain/scopes.js';
import { errorBody, replayHeaders } from './common.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an operation (docs/decisions.md#api-conventions):
 * - a client scope: signed-in users, and API clients whose token carries that scope;
 * - `'user'`: signed-in users only (API clients get 403);
 * - `'public'`: no authentication (the handler reads the workspace from the host itself, if it needs one).
 */
export type Access = ClientScope | 'user' | 'public';

/** The error statuses an operation may answer, each with the error body. */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 412 | 413 | 415 | 422 | 429 | 503;

/** What a declaration says; {@link defineOperations} adds the id. */
export interface OperationSpec {
  method: HttpMethod;
  /** Fastify-style path under `/api`, e.g. `/services/:service`; every `:name` is a key of `params`. */
  path: string;
  summary: string;
  tags: readonly string[];
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  headers?: z.ZodType;
  /**
   * Takes an `Idempotency-Key` header (docs/api.md#conventions): the first answer per caller and key is kept for 24
   * hours and a replay gets it again, changing nothing; the same key with another request is 422.
   */
  replayable?: boolean;
  /** The success answer's body; `null` for an answer with no body (204). */
  response: z.ZodType | null;
  /** The success status; default 200, or 204 when `response` is null. */
  status?: 200 | 201 | 202 | 204 | 302 | 303;
  /** A paged list: the response is an array and the `total` header carries the count (docs/api.md#conventions). */
  paged?: boolean;
  errors: readonly ErrorStatus[];
  /** Error answers whose body says more than the error body (a 412 with the current version). */
  errorBodies?: Partial<Record<ErrorStatus, z.ZodType>>;
  /** Request media types other than JSON (uploads). */
  consumes?: readonly string[];
  /** Success media types other than JSON (images); error bodies stay JSON. */
  produces?: readonly string[];
  /** Left out of the OpenAPI document (system routes). */
  hidden?: boolean;
}

export type Operation<S extends OperationSpec = OperationSpec> = S & { readonly id: string };

/** Declares a group of operations; each key becomes the operation's id (OpenAPI `operationId`). */
export function defineOperations<const T extends Record<string, OperationSpec>>(
  specs: T,
): { [K in keyof T]: Operation<T[K]> } {
  return Object.fromEntries(Object.entries(specs).map(([id, spec]) => [id, { ...spec, id }])) as {
    [K in keyof T]: Operation<T[K]>;
  };
}

/** The success status of an operation. */
export function successStatus(operation: OperationSpec): number {
  return operation.status ?? (operation.response === null ? 204 : 200);
}

// ---- types derived from a declaration ----

type InputOf<S, K extends 'params' | 'query' | 'body'> = S extends { [P in K]: infer Z extends z.ZodType }
  ? z.input<Z>
  : never;
type ParsedOf<S, K extends 'params' | 'query' | 'body'> = S extends { [P in K]: infer Z extends z.ZodType }
  ? z.output<Z>
  : undefined;

/** A key is required when the schema's input cannot be undefined (a query with only defaults is optional). */
type Part<S, K extends 'params' | 'query' | 'body'> = [InputOf<S, K>] extends [never]
  ? object
  : undefined extends InputOf<S, K>
    ? { [P in K]?: InputOf<S, K> }
    : object extends InputOf<S, K>
      ? { [P in K]?: InputOf<S, K> }
      : { [P in K]: InputOf<S, K> };

/** The body an operation takes, as the app sends it. */
export type BodyOf<S extends OperationSpec> = InputOf<S, 'body'>;

/** What the app passes to call an operation: its params, query and body, as the contract takes them. */
export type OperationInput<S extends OperationSpec> = Part<S, 'params'> & Part<S, 'query'> & Part<S, 'body'>;

/** What the server's handler receives, validated and with defaults applied. */
export interface ParsedInput<S extends OperationSpec> {
  params: ParsedOf<S, 'params'>;
  query: ParsedOf<S, 'query'>;
  body: ParsedOf<S, 'body'>;
}

/** The success answer's body as the app reads it. */
export type OperationOutput<S extends OperationSpec> = S['response'] extends z.ZodType ? z.output<S['response']> : null;

/** The element type of a paged operation's list. */
export type PageItem<S extends OperationSpec> = OperationOutput<S> extends readonly (infer T)[] ? T : never;

/** A page of a paged list, with the total of the `total` header. */
export interface PageOf<T> {
  items: T[];
  total: number;
}

// ---- paths ----

/** The path with its `:name` segments filled from `params`, each URI-encoded. */
export function pathOf(operation: Pick<OperationSpec, 'path'>, params: Record<string, unknown> = {}): string {
  return operation.path.replace(/:([A-Za-z_]\w*)/g, (_segment, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`${operation.path}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

// ---- the OpenAPI view ----

/** Who may call it, in words, for the OpenAPI document. */
export function accessText(access: Access): string {
  if (access === 'public') return 'No authentication.';
  if (access === 'user') return 'Signed-in users only; API clients get 403.';
  return `Signed-in users, or API clients with the scope \`${access}\`.`;
}

/** The Fastify route schema of an operation: what the server validates and the OpenAPI document shows. */
export function routeSchemaOf(operation: Operation) {
  const success = successStatus(operation);
  const body = operation.response ?? z.null().describe('No content');
  const response: Record<number, z.ZodType | { content: Record<string, { schema: z.ZodType }> }> = {
    [success]: operation.produces
      ? { content: Object.fromEntries(operation.produces.map((type) => [type, { schema: body }])) }
      : body,
  };
  // A replayed key still running is 409, reused with another request 422.
  const errors: readonly ErrorStatus[] = operation.replayable
    ? [...new Set<ErrorStatus>([...operation.errors, 409, 422])]
    : operation.errors;
  for (const status of errors) response[status] = operation.errorBodies?.[status] ?? errorBody;
  return {
    operationId: operation.id,
    summary: operation.summary,
    tags: [...operation.tags],
    ...(operation.params ? { params: operation.params } : {}),
    ...(operation.query ? { querystring: operation.query } : {}),
    ...(operation.body ? { body: operation.body } : {}),
    ...(operation.headers ? { headers: operation.headers } : operation.replayable ? { headers: replayHeaders } : {}),
    ...(operation.consumes ? { consumes: [...operation.consumes] } : {}),
    ...(operation.hidden ? { hide: true } : {}),
    description: accessText(operation.access),
    security: operation.access === 'public' ? [] : [{ bearer: operation.access === 'user' ? [] : [operation.access] }],
    response,
  };
}
