import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';
import { forbiddenKind } from '../../../src/runner/address-policy.js';
import type { LookupAll } from '../../../src/runner/guarded-agent.js';

/** The default policy, except that the tests' own servers on 127.0.0.1 may be reached. */
export const allowLoopback = (ip: string) => (ip === '127.0.0.1' ? null : forbiddenKind(ip));

/** A resolver with fixed answers, recording every name it was asked for; names it does not know do not resolve. */
export function lookupTo(answers: Record<string, string[]>): LookupAll & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}

/** A raw TCP server on 127.0.0.1 that records its connections and what each one sent. */
export interface RawServer {
  port: number;
  connections: number;
  /** Everything received, per connection, as text. */
  received: string[];
  close(): Promise<void>;
}

export async function startRawServer(onConnection: (socket: Socket, index: number) => void): Promise<RawServer> {
  const sockets = new Set<Socket>();
  const state: RawServer = { port: 0, connections: 0, received: [], close: () => closeServer(server, sockets) };
  const server = createServer((socket) => {
    const index = state.connections++;
    state.received[index] = '';
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => (state.received[index] += chunk.toString('utf8')));
    onConnection(socket, index);
  });
  state.port = await listen(server);
  return state;
}

export async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export async function closeServer(server: Server, sockets: Iterable<Socket> = []): Promise<void> {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * A port on 127.0.0.1 that behaves like a filtered one: connection attempts get no answer. A worker listens with
 * the smallest backlog and then blocks its event loop, so nothing is ever accepted; once the kernel's accept queue
 * is full (the fillers), further SYNs are dropped and a connect hangs until it times out.
 */
export async function filteredPort(): Promise<{ port: number; close(): Promise<void> }> {
  const shared = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const server = require('node:net').createServer();
     server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
       parentPort.postMessage(server.address().port);
       Atomics.wait(workerData, 0, 0);
     });`,
    { eval: true, workerData: shared },
  );
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  const fillers = Array.from({ length: 4 }, () => connect(port, '127.0.0.1').on('error', () => {}));
  await new Promise((resolve) => setTimeout(resolve, 100));
  return {
    port,
    async close() {
      for (const filler of fillers) filler.destroy();
      Atomics.store(shared, 0, 1);
      Atomics.notify(shared, 0);
      await worker.terminate();
    },
  };
}
