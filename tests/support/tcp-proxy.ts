import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * PostgreSQL's own answers to a startup message, refusing it (FATAL): `starting-up` while it starts (57P03),
 * `not-allowed` when the database does not allow connections (55000), `no-hba` when pg_hba.conf has no entry for
 * the host (28000); `reset`: the connection accepted and cut at once, as a refusing proxy does.
 */
export type Refusal = 'starting-up' | 'not-allowed' | 'no-hba' | 'reset';

const FATALS: Record<Exclude<Refusal, 'reset'>, { C: string; M: string }> = {
  'starting-up': { C: '57P03', M: 'the database system is starting up' },
  'not-allowed': { C: '55000', M: 'database "test" is not currently accepting connections' },
  'no-hba': { C: '28000', M: 'no pg_hba.conf entry for host "127.0.0.1", user "postgres", database "test"' },
};

/** A PostgreSQL ErrorResponse message (protocol 3.0): 'E', its length, typed fields, a closing zero. */
function errorResponse(fields: Record<string, string>): Buffer {
  const body = Buffer.concat([
    ...Object.entries(fields).map(([type, value]) => Buffer.from(`${type}${value}\0`)),
    Buffer.from([0]),
  ]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from('E'), length, body]);
}

function refuse(client: Socket, refusal: Refusal): void {
  client.on('error', () => client.destroy());
  if (refusal === 'reset') return void client.resetAndDestroy();
  client.once('data', () => client.end(errorResponse({ S: 'FATAL', V: 'FATAL', ...FATALS[refusal] })));
}

/**
 * A TCP proxy on loopback that a test can close and open again on the same port: while closed, connections are
 * refused and those it carried are cut, as when a database host goes away.
 */
export class TcpProxy {
  private server: Server | undefined;
  /** How new connections are turned away while refusing (`refuseNew`); null: carried through. */
  private refusal: Refusal | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  /** Listens (on the same port as before, after a close); nothing when already open. */
  async open(): Promise<number> {
    if (this.server) return this.port;
    const server = createServer((client) => {
      if (this.refusal) return refuse(client, this.refusal);
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

  /**
   * New connections are turned away (`null`: carried again) while those already carried go on, as when PostgreSQL
   * is starting up or a proxy in front of it refuses.
   */
  refuseNew(refusal: Refusal | null): void {
    this.refusal = refusal;
  }

  /** Stops listening and cuts every connection it carries. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}
