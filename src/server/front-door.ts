/**
 * The front door: a few reads whose answers are kept whole (a public status page and its summary.json, issue 27)
 * are answered from the raw request, ahead of Fastify's routing, hooks and reply. Each still reads what it shows
 * first (its versions, by key), so nothing is served after a change; what the door does not serve, because the
 * answer is not kept, the page is not public, or the request is any other, goes on to Fastify as before. Fastify
 * made every answer the door gives, and the door gives it with the same headers.
 */
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';

/** An answer given at the door: its status, every header Fastify would have sent, and its body (none for 304). */
export interface FrontAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: Buffer | null;
}

/** What answers at the door: null at once for a request it does not serve, else the answer or null when it cannot. */
export type FrontDoor = (request: IncomingMessage) => Promise<FrontAnswer | null> | null;

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** The options of Fastify's that it sets on a server it makes itself (fastify/lib/server.js). */
interface ServerSettings {
  http?: ServerOptions | null;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

/**
 * Fastify's HTTP server (its `serverFactory`) with `door()` asked first for each GET. `door` is read per request:
 * the app sets it once its routes exist, and unsets it while shutting down (Fastify then answers 503).
 */
export function serverWithFrontDoor(handler: Handler, options: ServerSettings, door: () => FrontDoor | null): Server {
  const server = createServer(options.http ?? {}, (request, response) => {
    let answering: ReturnType<FrontDoor> | undefined = null;
    try {
      answering = request.method === 'GET' ? door()?.(request) : null;
    } catch {
      // As a failure at the door below: the server's listener must not throw.
    }
    if (!answering) return handler(request, response);
    answering.then(
      (answer) => (answer ? send(response, answer) : handler(request, response)),
      // A failure at the door is Fastify's to answer (and log) the usual way.
      () => handler(request, response),
    );
  });
  // What Fastify sets on the server it makes itself (fastify/lib/server.js).
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
  if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  return server;
}

function send(response: ServerResponse, answer: FrontAnswer): void {
  const headers: Record<string, string | number> = { ...answer.headers };
  if (answer.body) headers['content-length'] = answer.body.length;
  response.writeHead(answer.status, headers);
  response.end(answer.body ?? undefined);
}
