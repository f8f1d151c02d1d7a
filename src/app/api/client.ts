import type { ErrorBody } from '../../contract/common.js';
import {
  pathOf,
  type Operation,
  type OperationInput,
  type OperationOutput,
  type PageItem,
  type PageOf,
} from '../../contract/operation.js';

/** An HTTP error with the server's body (docs/api.md#conventions). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    /** The answer's body as sent (a 412 carries the current version of what the write conflicts with). */
    readonly data: unknown = body,
  ) {
    super(body.message);
  }

  /** The first field error, else the message (spec: workspace-create failures show the first one). */
  firstError(): string {
    const first = this.body.errors ? Object.values(this.body.errors)[0]?.[0] : undefined;
    return first ?? this.body.message;
  }
}

export interface CallOptions {
  headers?: Record<string, string>;
  /** Whether this call may refresh the token on 401 (not the session and token calls themselves). */
  retryOn401?: boolean;
  /** Aborts the call (and, for a stream, ends it). */
  signal?: AbortSignal;
}

/** The input argument: optional when the operation needs nothing (no params, no required query or body). */
export type CallArgs<O extends Operation> =
  object extends OperationInput<O>
    ? [input?: OperationInput<O>, options?: CallOptions]
    : [input: OperationInput<O>, options?: CallOptions];

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
  status: number;
}

export interface ApiClientOptions {
  getToken(): string | null;
  /** Gets a fresh token (POST /token); resolves null when the session is gone. */
  refreshToken(): Promise<string | null>;
  fetch?: typeof fetch;
  baseUrl?: string;
}

/** Spec section 4: a 401 starts one token refresh and the request is retried; the retry limit is 2. */
export const TOKEN_RETRY_LIMIT = 2;

/**
 * The app's one way to the API: every call names an operation of the contract and passes its input, typed end
 * to end (a wrong body or a missing response field does not compile).
 */
export interface ApiClient {
  /** Calls an operation; resolves with its success body. */
  call<O extends Operation>(operation: O, ...args: CallArgs<O>): Promise<OperationOutput<O>>;
  /** Calls a paged list; resolves with the items and the `total` header. */
  page<O extends Operation & { paged: true }>(operation: O, ...args: CallArgs<O>): Promise<PageOf<PageItem<O>>>;
  /** Uploads a file as multipart form data in the field the operation names (`icon`). */
  upload<O extends Operation & { consumes: readonly string[] }>(
    operation: O,
    input: OperationInput<O>,
    file: { field: string; value: Blob },
  ): Promise<OperationOutput<O>>;
  /** The whole answer (status and headers): the outbox reads the status of every answer. */
  exchange<O extends Operation>(
    operation: O,
    input: OperationInput<O>,
    options?: CallOptions,
  ): Promise<ApiResponse<OperationOutput<O>>>;
  /**
   * Opens a streamed answer (`text/event-stream`) with the bearer token, refreshed on 401 like every call: the
   * response with its body unread. Rejects with an ApiError when the server refuses it.
   */
  stream<O extends Operation>(operation: O, input: OperationInput<O>, options?: CallOptions): Promise<Response>;
}

interface Parts {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

function urlOf(baseUrl: string, path: string, query: Record<string, unknown> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  // Commas stay as they are: spec lists (`type=incident,maintenance`) are sent unescaped.
  const search = params.toString().replace(/%2C/gi, ',');
  return `${baseUrl}/api${path}${search ? `?${search}` : ''}`;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json')) return response.json();
  return response.text();
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const baseUrl = options.baseUrl ?? '';

  /** Sends the request, refreshing the token on 401 (spec section 4); the answer's body is not read yet. */
  async function send(operation: Operation, input: Parts, callOptions: CallOptions, accept: string) {
    const { headers = {}, retryOn401 = true, signal } = callOptions;
    const { body } = input;
    const url = urlOf(baseUrl, pathOf(operation, input.params), input.query);
    let token = options.getToken();
    for (let attempt = 0; ; attempt++) {
      const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
      const response = await doFetch(url, {
        method: operation.method,
        credentials: 'same-origin',
        ...(signal ? { signal } : {}),
        headers: {
          accept,
          ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      });
      if (response.status === 401 && retryOn401 && attempt < TOKEN_RETRY_LIMIT) {
        token = await options.refreshToken();
        if (token) continue;
      }
      return response;
    }
  }

  function refusal(response: Response, data: unknown): ApiError {
    const errorBody =
      data && typeof data === 'object' && 'message' in data
        ? (data as ErrorBody)
        : { message: response.statusText || 'Server Error' };
    return new ApiError(response.status, errorBody, data);
  }

  async function exchange(operation: Operation, input: Parts = {}, callOptions: CallOptions = {}) {
    const response = await send(operation, input, callOptions, 'application/json');
    const data = await readBody(response);
    if (!response.ok) throw refusal(response, data);
    return { data, headers: response.headers, status: response.status };
  }

  async function stream(operation: Operation, input: Parts = {}, callOptions: CallOptions = {}) {
    const response = await send(operation, input, callOptions, 'text/event-stream');
    if (!response.ok) throw refusal(response, await readBody(response).catch(() => null));
    return response;
  }

  // The typed surface is the interface above; inside, one untyped exchange serves every operation.
  const client = {
    call: async (operation: Operation, input?: Parts, callOptions?: CallOptions) =>
      (await exchange(operation, input, callOptions)).data,
    page: async (operation: Operation, input?: Parts, callOptions?: CallOptions) => {
      const response = await exchange(operation, input, callOptions);
      const items = response.data as unknown[];
      return { items, total: Number(response.headers.get('total') ?? items.length) };
    },
    upload: async (operation: Operation, input: Parts, file: { field: string; value: Blob }) => {
      const form = new FormData();
      form.append(file.field, file.value);
      return (await exchange(operation, { ...input, body: form })).data;
    },
    exchange,
    stream,
  };
  return client as unknown as ApiClient;
}
