import type { ErrorBody } from '../../contract/common.js';

/** An HTTP error with the server's body (DESIGN.md section 4). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
  }

  /** The first field error, else the message (spec: workspace-create failures show the first one). */
  firstError(): string {
    const first = this.body.errors ? Object.values(this.body.errors)[0]?.[0] : undefined;
    return first ?? this.body.message;
  }
}

export type Query = Record<string, string | number | undefined>;

export interface RequestOptions {
  body?: unknown;
  query?: Query;
  headers?: Record<string, string>;
  /** Whether this call may refresh the token on 401 (not the token call itself). */
  retryOn401?: boolean;
}

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

export interface ApiClient {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  get<T>(path: string, query?: Query): Promise<T>;
  send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

function urlOf(baseUrl: string, path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== '') params.set(key, String(value));
  const search = params.toString();
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

  async function request<T>(
    method: string,
    path: string,
    requestOptions: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const { body, query, headers = {}, retryOn401 = true } = requestOptions;
    let token = options.getToken();
    for (let attempt = 0; ; attempt++) {
      const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
      const response = await doFetch(urlOf(baseUrl, path, query), {
        method,
        credentials: 'same-origin',
        headers: {
          accept: 'application/json',
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
      const data = await readBody(response);
      if (!response.ok) {
        const errorBody =
          data && typeof data === 'object' && 'message' in data
            ? (data as ErrorBody)
            : { message: response.statusText || 'Server Error' };
        throw new ApiError(response.status, errorBody);
      }
      return { data: data as T, headers: response.headers, status: response.status };
    }
  }

  return {
    request,
    get: async <T>(path: string, query?: Query) => (await request<T>('GET', path, { query })).data,
    send: async <T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
      (await request<T>(method, path, { body })).data,
  };
}

/** A page of a list and the total from the `total` header. */
export async function getPage<T>(
  client: ApiClient,
  path: string,
  query: Query,
): Promise<{ items: T[]; total: number }> {
  const response = await client.request<T[]>('GET', path, { query });
  return { items: response.data, total: Number(response.headers.get('total') ?? response.data.length) };
}

/**
 * The icon of the record at `path` (`{path}/icon`): `upload` posts a multipart form with the image in a field named
 * icon (spec, asset upload), `clear` deletes it; both answer the updated record.
 */
export function iconCalls<T>(client: ApiClient, path: string) {
  return {
    upload: async (icon: File): Promise<T> => {
      const body = new FormData();
      body.append('icon', icon);
      return (await client.request<T>('POST', `${path}/icon`, { body })).data;
    },
    clear: (): Promise<T> => client.send<T>('DELETE', `${path}/icon`),
  };
}
