/**
 * The targets of `BENCH_PROFILE=mixed npm run bench:checks` (checks-mixed.ts), in a process of their own so that
 * their work is not counted as the runner's: an HTTP server answering a small JSON body with a version header, a
 * TLS server (a certificate made with openssl, EC P-256 by default, `BENCH_TLS_KEY=rsa` for RSA-2048) on its own
 * port, a TCP server that greets like SMTP and keeps the connection open, and a UDP DNS server answering every
 * A query with 127.0.0.1. Started with BEACON_BENCH_TARGETS=1 and an IPC channel: it sends its ports once
 * listening, answers `cpu` with its own CPU time, and on `pings` pings heartbeat URLs of the bench's server once
 * per period each (BENCH_PINGS=1).
 */
import { execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer as createHttpServer, request } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import dnsPacket from 'dns-packet';

export interface TargetPorts {
  http: number;
  tls: number;
  tcp: number;
  dns: number;
}

/** What the bench asks of the targets over IPC. */
export type TargetRequest =
  | { type: 'cpu' }
  | { type: 'pings'; port: number; host: string; tokens: string[]; periodSeconds: number }
  | { type: 'stop-pings' };

/** What the targets answer over IPC. */
export type TargetMessage =
  | { type: 'ports'; ports: TargetPorts }
  | { type: 'cpu'; micros: number }
  | { type: 'pings'; sent: number; failed: number };

export const VERSION = '1.4.2';
/** What the HTTP target answers, and what the http checks' assertions expect of it. */
export const HTTP_BODY = JSON.stringify({ status: 'UP', version: VERSION, checks: { db: 'UP', cache: 'UP' } });
export const TCP_GREETING = '220 bench.test ESMTP ready\r\n';
/** The address every A query is answered with. */
export const DNS_ANSWER = '127.0.0.1';

function certificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'beacon-bench-tls-'));
  try {
    const keyArgs =
      process.env.BENCH_TLS_KEY === 'rsa'
        ? ['-newkey', 'rsa:2048']
        : ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        ...keyArgs,
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '90',
        '-subj',
        '/CN=bench.test',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:bench.test',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

async function start(): Promise<TargetPorts> {
  const http = createHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'x-version': VERSION });
    response.end(HTTP_BODY);
  });
  // Longer than undici's keep-alive (4 s), so the runner's connections are reused rather than raced.
  http.keepAliveTimeout = 10_000;

  const tls = createTlsServer(certificate(), (socket) => {
    // As a real server, it keeps the connection after the handshake; the probe closes it.
    socket.on('error', () => {});
    socket.setTimeout(10_000, () => socket.destroy());
  });
  tls.on('tlsClientError', () => {});

  const tcp = createTcpServer((socket) => {
    socket.on('error', () => {});
    socket.setTimeout(10_000, () => socket.destroy());
    socket.write(TCP_GREETING);
  });

  const udp = createSocket('udp4');
  udp.on('message', (message, peer) => {
    let query;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    const answers =
      question?.type === 'A' ? [{ type: 'A' as const, name: question.name, ttl: 60, data: DNS_ANSWER }] : [];
    const reply = dnsPacket.encode({ type: 'response', id: query.id, questions: query.questions, answers });
    udp.send(reply, peer.port, peer.address);
  });
  const dns = await new Promise<number>((resolve) => udp.bind(0, '127.0.0.1', () => resolve(udp.address().port)));

  return { http: await listen(http), tls: await listen(tls), tcp: await listen(tcp), dns };
}

/** Pings each token once per period, spread evenly over it, with keep-alive connections. */
function startPings(port: number, host: string, tokens: string[], periodSeconds: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 20 });
  const counts = { sent: 0, failed: 0 };
  // Paced by the clock, not by counting ticks: a loaded machine stretches the interval.
  const since = Date.now();
  let next = 0;
  const timer = setInterval(() => {
    const due = Math.floor((tokens.length * (Date.now() - since)) / (periodSeconds * 1000));
    for (; next < due; next++) {
      const token = tokens[next % tokens.length]!;
      const ping = request(
        { host: '127.0.0.1', port, path: `/api/heartbeats/${token}`, method: 'GET', headers: { host }, agent },
        (response) => {
          response.resume();
          if (response.statusCode === 200) counts.sent++;
          else counts.failed++;
        },
      );
      ping.on('error', () => counts.failed++);
      ping.end();
    }
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      agent.destroy();
      return counts;
    },
  };
}

if (process.env.BEACON_BENCH_TARGETS === '1' && process.send) {
  const send = (message: TargetMessage) => process.send!(message);
  let pings: ReturnType<typeof startPings> | undefined;
  process.on('message', (message: TargetRequest) => {
    if (message.type === 'cpu') {
      const cpu = process.cpuUsage();
      send({ type: 'cpu', micros: cpu.user + cpu.system });
    } else if (message.type === 'pings') {
      pings = startPings(message.port, message.host, message.tokens, message.periodSeconds);
    } else if (message.type === 'stop-pings') {
      send({ type: 'pings', ...(pings?.stop() ?? { sent: 0, failed: 0 }) });
      pings = undefined;
    }
  });
  // The bench going away takes the targets with it.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ports', ports: await start() });
}
