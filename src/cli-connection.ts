/**
 * The client commands' session with a running server (`beacon catalog`, `beacon alerts`): an API client's
 * credentials exchanged once for a token (client-credentials grant), then JSON calls with it. Names under
 * `.localhost` reach this machine.
 */
import { Agent, fetch } from 'undici';
import { localhostAwareLookup } from './runner/localhost-lookup.js';

export interface Connection {
  url: string;
  clientId?: string;
  clientSecret?: string;
}

/** A client-credentials session with the server: a token once, then calls with it. */
export function connect(options: Connection) {
  if (!options.clientId || !options.clientSecret) {
    throw new Error('--client-id and --client-secret (or BEACON_CLIENT_ID and BEACON_CLIENT_SECRET) are required');
  }
  const base = new URL(options.url);
  const dispatcher = new Agent({ connect: { lookup: localhostAwareLookup } });
  const send = async (method: string, path: string, body?: unknown, token?: string): Promise<unknown> => {
    const response = await fetch(new URL(path, base), {
      method,
      dispatcher,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
    const text = await response.text();
    const json = text ? (JSON.parse(text) as unknown) : undefined;
    if (!response.ok) {
      const message = (json as { message?: string } | undefined)?.message ?? response.statusText;
      throw new Error(`${method} ${path}: ${response.status} ${message}`);
    }
    return json;
  };
  let token: Promise<string> | undefined;
  return {
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      token ??= send('POST', '/api/token', {
        grant_type: 'client_credentials',
        client_id: options.clientId,
        client_secret: options.clientSecret,
      }).then((answer) => (answer as { access_token: string }).access_token);
      return (await send(method, path, body, await token)) as T;
    },
    close: () => dispatcher.close(),
  };
}
