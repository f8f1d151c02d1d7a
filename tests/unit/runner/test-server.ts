import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on 127.0.0.1 (port 0) that records what reached it. */
export interface TestServer {
  port: number;
  /** http://127.0.0.1:port */
  origin: string;
  /** Request paths in arrival order. */
  requests: string[];
  /** Host headers in arrival order. */
  hosts: string[];
  /** TCP connections accepted. */
  connections: number;
  close(): Promise<void>;
}

export type Handler = (request: IncomingMessage, response: ServerResponse, server: TestServer) => void;

export async function startServer(handler: Handler): Promise<TestServer> {
  const server = createServer();
  const state: TestServer = {
    port: 0,
    origin: '',
    requests: [],
    hosts: [],
    connections: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', () => state.connections++);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    state.requests.push(request.url ?? '');
    state.hosts.push(request.headers.host ?? '');
    handler(request, response, state);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.origin = `http://127.0.0.1:${state.port}`;
  return state;
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
