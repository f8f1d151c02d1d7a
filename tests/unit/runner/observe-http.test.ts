import { X509Certificate } from 'node:crypto';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from 'undici';
import { createGuardedAgent } from '../../../src/runner/guarded-agent.js';
import { observe } from '../../../src/runner/observe.js';
import { closeSharedAgents } from '../../../src/runner/observe-http.js';
import { allowLoopback, closeServer, listen, lookupTo, startRawServer } from './probe-targets.js';
import { issue, rootCa, type KeyPair } from './test-certificates.js';
import { closedPort, startServer, type Handler, type TestServer } from './test-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});
afterAll(() => closeSharedAgents());

async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  cleanups.push(() => server.close());
  return server;
}

/** The shared runner's guard, narrowed to let the test's own server through. */
const guarded = { allowPrivate: false, policy: allowLoopback };
const http = (
  endpoint: string,
  request?: { method?: 'GET' | 'POST' | 'PUT' | 'HEAD'; headers?: Record<string, string>; body?: string },
  timeoutSeconds = 2,
) => ({
  kind: 'http' as const,
  endpoint,
  timeoutSeconds,
  ...(request && { request }),
});

describe('observe http: what the answer showed', () => {
  it('sends the method, headers and body, and captures status, headers and body', async () => {
    const received: { method?: string; headers?: Record<string, unknown>; body?: string } = {};
    const server = await serve((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        Object.assign(received, { method: request.method, headers: request.headers, body });
        response.statusCode = 201;
        response.setHeader('X-Request-Id', 'abc-123');
        response.setHeader('Set-Cookie', ['a=1', 'b=2']);
        response.setHeader('Content-Type', 'application/json');
        response.end('{"status":"UP","version":"1.4.2"}');
      });
    });
    const seen = await observe(
      http(`${server.origin}/api/health`, {
        method: 'POST',
        headers: { 'X-Api-Key': 'k1', 'Content-Type': 'application/json', 'User-Agent': 'custom/2' },
        body: '{"deep":true}',
      }),
      guarded,
    );
    expect(received).toMatchObject({
      method: 'POST',
      body: '{"deep":true}',
      headers: { 'x-api-key': 'k1', 'content-type': 'application/json', 'user-agent': 'custom/2' },
    });
    expect(seen).toMatchObject({
      connected: true,
      status: 201,
      body: '{"status":"UP","version":"1.4.2"}',
      headers: { 'x-request-id': 'abc-123', 'set-cookie': 'a=1, b=2', 'content-type': 'application/json' },
    });
    expect(seen.error).toBeUndefined();
    expect(seen.cert).toBeUndefined();
  });

  it('a 500 is an observation, not an error: the assertions judge it', async () => {
    const server = await serve((_request, response) => {
      response.statusCode = 500;
      response.end('boom');
    });
    const seen = await observe(http(server.origin), guarded);
    expect(seen).toEqual({
      connected: true,
      latency_ms: expect.any(Number),
      status: 500,
      headers: expect.objectContaining({ 'content-length': '4' }),
      body: 'boom',
    });
  });

  it('keeps the first 64 KB of a large body and does not wait for the rest', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 'y');
      const write = (): void => {
        while (response.write(chunk));
        response.once('drain', write);
      };
      write();
    });
    const seen = await observe(http(server.origin), guarded);
    expect(seen.body).toHaveLength(64 * 1024);
    expect(seen.latency_ms).toBeLessThan(1000);
  });

  it('HEAD has an empty body', async () => {
    const server = await serve((_request, response) => response.end('not sent'));
    const seen = await observe(http(server.origin, { method: 'HEAD' }), guarded);
    expect(seen).toMatchObject({ connected: true, status: 200, body: '' });
  });

  it('a 303 after a POST is followed with a GET, without the body', async () => {
    const methods: string[] = [];
    const server = await serve((request, response) => {
      methods.push(`${request.method} ${request.url}`);
      if (request.url === '/submit') {
        response.writeHead(303, { location: '/done' });
        response.end();
      } else response.end('done');
    });
    const seen = await observe(http(`${server.origin}/submit`, { method: 'POST', body: 'x=1' }), guarded);
    expect(seen).toMatchObject({ status: 200, body: 'done' });
    expect(methods).toEqual(['POST /submit', 'GET /done']);
  });

  it('a redirect to another host is not followed: the 3xx is kept, with the reason', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(302, { location: 'http://elsewhere.test/' });
      response.end('moved');
    });
    const seen = await observe(http(server.origin), guarded);
    expect(seen).toMatchObject({
      connected: true,
      status: 302,
      headers: { location: 'http://elsewhere.test/' },
      error: { class: 'protocol', message: 'Redirected to another host (elsewhere.test); not followed' },
    });
  });
});

describe('observe http: failures', () => {
  it('a server that never answers times out, within the check timeout', async () => {
    const server = await serve(() => {});
    const seen = await observe(http(server.origin, undefined, 1), guarded);
    expect(seen).toEqual({
      connected: false,
      latency_ms: expect.any(Number),
      error: { class: 'timeout', message: 'Timed out after 1 s' },
    });
    expect(seen.latency_ms).toBeGreaterThanOrEqual(990);
    expect(seen.latency_ms).toBeLessThan(1300);
  });

  it('a body that never ends times out, keeping the status and headers seen', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'x-partial': 'yes' });
      response.write('partial');
    });
    const seen = await observe(http(server.origin, undefined, 1), guarded);
    expect(seen).toMatchObject({
      connected: true,
      status: 200,
      headers: { 'x-partial': 'yes' },
      error: { class: 'timeout' },
    });
  });

  it('a refused connection is class refused', async () => {
    const port = await closedPort();
    const seen = await observe(http(`http://127.0.0.1:${port}/`), guarded);
    expect(seen).toMatchObject({ connected: false, error: { class: 'refused', message: 'Connection refused' } });
  });

  it.each([
    ['resets', (socket: Socket) => socket.resetAndDestroy(), 'Connection reset by the server before answering'],
    ['closes', (socket: Socket) => socket.end(), 'Connection closed by the server before answering'],
  ])('a connection the target %s before answering is class refused (a network error)', async (_, drop, message) => {
    const server = await startRawServer((socket) => socket.once('data', () => drop(socket)));
    cleanups.push(() => server.close());
    const seen = await observe(http(`http://127.0.0.1:${server.port}/`), guarded);
    expect(seen).toMatchObject({ connected: false, error: { class: 'refused', message } });
    expect(server.connections).toBe(1);
  });

  it('a connection dropped after the status line is a protocol error: the target answered', async () => {
    const server = await startRawServer((socket) =>
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial');
        setTimeout(() => socket.resetAndDestroy(), 50);
      }),
    );
    cleanups.push(() => server.close());
    const seen = await observe(http(`http://127.0.0.1:${server.port}/`), guarded);
    expect(seen).toMatchObject({ connected: true, status: 200, error: { class: 'protocol' } });
  });

  it('a name that does not resolve is class dns', async () => {
    const seen = await observe(http('http://missing.test/'), { ...guarded, lookup: lookupTo({}) });
    expect(seen).toMatchObject({
      connected: false,
      error: { class: 'dns', message: 'Could not resolve missing.test' },
    });
  });

  it.each([
    ['not a url', 'The endpoint is not a valid URL'],
    ['ftp://example.test/', 'Only http and https endpoints can be checked'],
  ])('%j is a protocol error', async (endpoint, message) => {
    const seen = await observe(http(endpoint), guarded);
    expect(seen).toMatchObject({ connected: false, error: { class: 'protocol', message } });
  });
});

describe('observe', () => {
  it('a kind it does not probe (a heartbeat) is a protocol error, never a throw', async () => {
    const spec = { kind: 'heartbeat', endpoint: '', timeoutSeconds: 1 } as unknown as Parameters<typeof observe>[0];
    expect(await observe(spec, guarded)).toEqual({
      connected: false,
      latency_ms: expect.any(Number),
      error: { class: 'protocol', message: 'Checks of kind heartbeat are not probed' },
    });
  });
});

describe('observe http: https certificates', () => {
  let root: KeyPair;
  let cert: KeyPair;
  beforeAll(() => {
    root = rootCa();
    cert = issue({ commonName: 'secure.test', issuer: root, altNames: ['DNS:secure.test'], daysLeft: 45 });
  });

  /** An https server for secure.test on 127.0.0.1; `connections` counts the TCP connections it accepted. */
  async function serveHttps(): Promise<{ port: number; connections: () => number }> {
    const sockets = new Set<Socket>();
    let connections = 0;
    const server = createHttpsServer({ key: cert.key, cert: cert.cert }, (_request, response) =>
      response.end('secure'),
    );
    server.on('connection', (socket: Socket) => {
      connections++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    const port = await listen(server);
    cleanups.push(() => closeServer(server, sockets));
    return { port, connections: () => connections };
  }

  function agent(ca?: string[]): Agent {
    const created = createGuardedAgent({
      lookup: lookupTo({ 'secure.test': ['127.0.0.1'] }),
      policy: allowLoopback,
      ...(ca && { ca }),
    });
    cleanups.push(() => created.destroy());
    return created;
  }

  it('reports the certificate of the connection that answered, also when it is kept alive', async () => {
    const server = await serveHttps();
    const port = server.port;
    const dispatcher = agent([root.cert]);
    const expected = {
      days_left: 44,
      not_after: new Date(new X509Certificate(cert.cert).validTo).toISOString(),
      subject: 'CN=secure.test, O=Beacon Tests',
      issuer: 'CN=Beacon Test Root, O=Beacon Tests',
      fingerprint: new X509Certificate(cert.cert).fingerprint256,
      valid: true,
    };
    const first = await observe(http(`https://secure.test:${port}/`), { allowPrivate: false, dispatcher });
    expect(first).toMatchObject({ connected: true, status: 200, body: 'secure', cert: expected });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await observe(http(`https://secure.test:${port}/again`), { allowPrivate: false, dispatcher });
    expect(second.cert).toEqual(expected);
    expect(server.connections()).toBe(1);
  });

  it('an https answer whose certificate does not verify is a tls error', async () => {
    const { port } = await serveHttps();
    const seen = await observe(http(`https://secure.test:${port}/`), { allowPrivate: false, dispatcher: agent() });
    expect(seen.connected).toBe(false);
    expect(seen.error?.class).toBe('tls');
    expect(seen.error?.message).toMatch(/^TLS error: /);
  });
});
