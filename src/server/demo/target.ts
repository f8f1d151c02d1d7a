/**
 * The demo's local target (docs/decisions.md#runtime-and-dependencies, issue 26): what the `demo` workspace's health
 * checks probe, so a newcomer sees results of every kind within a minute of `npm run demo`. On loopback, three ports
 * from BEACON_DEMO_TARGET_PORT: an HTTP server (`/health`, a JSON answer whose version moves every ten minutes;
 * `/slow`, now and then slower than its check allows; `/orders/...`, a small API answering off its spec in one place,
 * see orders-api.ts), a TLS port whose certificate runs out in ten days, and a TCP port
 * that greets. It also pings the demo's heartbeat every 30 s, as a cron job would.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { ServerContext } from '../context.js';
import { answerOrdersApi } from './orders-api.js';
import { listHeartbeatTokens } from '../db/repositories/health.js';
import { findWorkspaceByDomain } from '../db/repositories/workspaces.js';
import { recordPing } from '../services/health/heartbeats.js';
import { selfSignedCertificate } from '../crypto/self-signed.js';

export interface DemoTargetPorts {
  http: number;
  tls: number;
  tcp: number;
}

/** The ports the demo target takes from its first one. */
export const demoTargetPorts = (first: number): DemoTargetPorts => ({ http: first, tls: first + 1, tcp: first + 2 });

const DAY_MS = 86_400_000;
const HOST = '127.0.0.1';

function listen(server: Server | TcpServer, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => resolve());
  });
}

function httpTarget(now: () => number): Server {
  let slowTurn = 0;
  return createServer((req, res) => {
    if (req.url === '/health') {
      // A deploy every ten minutes: `json:version changed` has something to see.
      const version = `2.${Math.floor(now() / 600_000) % 100}.0`;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ status: 'UP', version, checks: { database: 'UP', cache: 'UP' } }));
      return;
    }
    if (answerOrdersApi(req, res)) return;
    if (req.url === '/slow') {
      // One answer in four takes 1.5 s: a latency assertion fails now and then, as real ones do.
      const delay = slowTurn++ % 4 === 3 ? 1500 : 120;
      setTimeout(() => res.end('ok'), delay);
      return;
    }
    res.statusCode = 404;
    res.end('not found');
  });
}

/** Pings every heartbeat of the `demo` workspace, as its jobs would (the same path as a ping's URL). */
async function pingDemoHeartbeats(ctx: ServerContext): Promise<void> {
  const workspace = await findWorkspaceByDomain(ctx.database.db, 'demo');
  if (!workspace) return;
  for (const { ping_token_sealed: sealed } of await listHeartbeatTokens(ctx.database.db, workspace.id))
    if (sealed) await recordPing(ctx, workspace, ctx.secretBox.open(sealed), 'success', 0);
}

export interface DemoTarget {
  close(): Promise<void>;
}

export async function startDemoTarget(ctx: ServerContext, ports: DemoTargetPorts): Promise<DemoTarget> {
  const now = () => ctx.now().getTime();
  const http = httpTarget(now);
  const tlsKeys = await selfSignedCertificate({
    commonName: 'localhost',
    notBefore: new Date(now() - DAY_MS),
    notAfter: new Date(now() + 10 * DAY_MS),
    dnsNames: ['localhost'],
  });
  const tls = createTlsServer({ key: tlsKeys.privateKey, cert: tlsKeys.cert }, (socket) => socket.end('hello\n'));
  const tcp = createTcpServer((socket) => socket.end('220 demo message bus ready\r\n'));
  for (const server of [tls, tcp]) server.on('error', () => undefined);
  try {
    await listen(http, ports.http);
    await listen(tls, ports.tls);
    await listen(tcp, ports.tcp);
  } catch (error) {
    // A port taken: nothing stays open, so the caller may try other ports.
    for (const server of [http, tls, tcp]) if (server.listening) server.close();
    throw error;
  }
  const pinger = setInterval(() => void pingDemoHeartbeats(ctx).catch(() => undefined), 30_000);
  pinger.unref();
  void pingDemoHeartbeats(ctx).catch(() => undefined);
  ctx.logger.info({ ports }, 'demo target listening');
  return {
    async close() {
      clearInterval(pinger);
      http.closeAllConnections();
      await Promise.all(
        [http, tls, tcp].map((server) => new Promise((resolve) => (server as TcpServer).close(() => resolve(null)))),
      );
    },
  };
}
