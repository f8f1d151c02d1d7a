import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on loopback that a test can close and open again on the same port: while closed, connections are
 * refused and those it carried are cut, as when a database host goes away.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  /** Listens (on the same port as before, after a close); nothing when already open. */
  async open(): Promise<number> {
    if (this.server) return this.port;
    const server = createServer((client) => {
      const upstream = connect(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    const address = server.address();
    this.port = typeof address === 'object' && address ? address.port : this.port;
    return this.port;
  }

  /** Stops listening and cuts every connection it carries. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}
