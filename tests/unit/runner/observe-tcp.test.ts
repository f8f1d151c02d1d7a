import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { observe } from '../../../src/runner/observe.js';
import { TCP_IDLE_MS } from '../../../src/runner/observe-tcp.js';
import { closedPort } from './test-server.js';
import { allowLoopback, filteredPort, lookupTo, startRawServer, type RawServer } from './probe-targets.js';

const servers: RawServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all([...servers.splice(0).map((server) => server.close()), ...cleanups.splice(0).map((c) => c())]);
});

async function serve(onConnection: Parameters<typeof startRawServer>[0]): Promise<RawServer> {
  const server = await startRawServer(onConnection);
  servers.push(server);
  return server;
}

/** The guard as the shared runner has it, narrowed to let the test's own server through. */
const guarded = { allowPrivate: false, policy: allowLoopback };
const tcp = (endpoint: string, extra: { body?: string; timeoutSeconds?: number } = {}) => ({
  kind: 'tcp' as const,
  endpoint,
  timeoutSeconds: extra.timeoutSeconds ?? 2,
  ...(extra.body !== undefined && { request: { body: extra.body } }),
});

describe('observe tcp', () => {
  it('connects and reads the banner the peer sends', async () => {
    const server = await serve((socket) => socket.write('SSH-2.0-Test_1.0\r\n'));
    const seen = await observe(tcp(`127.0.0.1:${server.port}`), guarded);
    expect(seen).toMatchObject({ connected: true, body: 'SSH-2.0-Test_1.0\r\n' });
    expect(seen.error).toBeUndefined();
    expect(seen.latency_ms).toBeGreaterThanOrEqual(0);
    expect(seen.latency_ms).toBeLessThan(TCP_IDLE_MS);
  });

  it('sends the request body once connected and reads the answer back', async () => {
    const server = await serve((socket) => {
      socket.on('data', (chunk: Buffer) => {
        if (chunk.toString() === 'PING\r\n') setTimeout(() => socket.write('+PONG\r\n'), 50);
      });
    });
    const seen = await observe(tcp(`127.0.0.1:${server.port}`, { body: 'PING\r\n' }), guarded);
    expect(seen).toMatchObject({ connected: true, body: '+PONG\r\n' });
    expect(server.received).toEqual(['PING\r\n']);
    // Latency is the time to the answer's first byte when something was sent.
    expect(seen.latency_ms).toBeGreaterThanOrEqual(45);
  });

  it('stops reading when the peer closes, without waiting for the idle time', async () => {
    const server = await serve((socket) => socket.end('bye\n'));
    const before = performance.now();
    const seen = await observe(tcp(`127.0.0.1:${server.port}`), guarded);
    expect(seen).toMatchObject({ connected: true, body: 'bye\n' });
    expect(performance.now() - before).toBeLessThan(TCP_IDLE_MS);
  });

  it('a silent peer is connected with an empty answer, after a short idle wait', async () => {
    const server = await serve(() => {});
    const before = performance.now();
    // A timeout far past the idle wait, so only the idle wait can end it, however late a loaded machine runs its timer.
    const seen = await observe(tcp(`127.0.0.1:${server.port}`, { timeoutSeconds: 10 }), guarded);
    expect(seen).toMatchObject({ connected: true, body: '' });
    const took = performance.now() - before;
    expect(took).toBeGreaterThanOrEqual(TCP_IDLE_MS - 10);
    expect(took).toBeLessThan(5000);
    expect(server.connections).toBe(1);
  });

  it('keeps at most 64 KB of what the peer sends', async () => {
    const server = await serve((socket) => socket.write(Buffer.alloc(200 * 1024, 'x')));
    const seen = await observe(tcp(`127.0.0.1:${server.port}`), guarded);
    expect(seen.connected).toBe(true);
    expect(seen.body).toHaveLength(64 * 1024);
  });

  it('connects to the address it checked, resolving once', async () => {
    const server = await serve((socket) => socket.end('hi'));
    const lookup = lookupTo({ 'db.test': ['127.0.0.1'] });
    const seen = await observe(tcp(`db.test:${server.port}`), { ...guarded, lookup });
    expect(seen).toMatchObject({ connected: true, body: 'hi' });
    expect(lookup.calls).toEqual(['db.test']);
  });

  it('a refused port and a filtered one answer the same way (the runner is no port scanner)', async () => {
    const closed = await closedPort();
    const filtered = await filteredPort();
    cleanups.push(() => filtered.close());
    const options = { ...guarded, lookup: lookupTo({ 'target.test': ['127.0.0.1'] }) };
    const refusedSeen = await observe(tcp(`target.test:${closed}`, { timeoutSeconds: 1 }), options);
    const before = performance.now();
    const filteredSeen = await observe(tcp(`target.test:${filtered.port}`, { timeoutSeconds: 1 }), options);
    const took = performance.now() - before;

    const answer = (port: number) => ({
      connected: false,
      latency_ms: expect.any(Number),
      error: { class: 'refused', message: `Could not connect to target.test:${port}` },
    });
    expect(refusedSeen).toEqual(answer(closed));
    // The filtered port's connect ran into the check's timeout, and still says only "could not connect".
    expect(filteredSeen).toEqual(answer(filtered.port));
    expect(took).toBeGreaterThanOrEqual(990);
    expect(took).toBeLessThan(1300);
  });

  it('refuses a forbidden address before connecting: nothing reaches the server', async () => {
    const server = await serve((socket) => socket.end('secret'));
    const seen = await observe(tcp(`127.0.0.1:${server.port}`), { allowPrivate: false });
    expect(seen).toEqual({
      connected: false,
      latency_ms: expect.any(Number),
      error: { class: 'refused', message: 'Refused: 127.0.0.1 is a loopback address' },
    });
    expect(server.connections).toBe(0);
  });

  it('refuses a name resolving to a forbidden address without naming the address', async () => {
    const server = await serve((socket) => socket.end('secret'));
    const lookup = lookupTo({ 'inside.test': ['127.0.0.1', '10.0.0.7'] });
    const seen = await observe(tcp(`inside.test:${server.port}`), { ...guarded, lookup });
    expect(seen.error).toEqual({ class: 'refused', message: 'Refused: inside.test is not an allowed host' });
    expect(server.connections).toBe(0);
  });

  it('probes 127.0.0.1 when private targets are allowed', async () => {
    const server = await serve((socket) => socket.end('ok'));
    const seen = await observe(tcp(`127.0.0.1:${server.port}`), { allowPrivate: true });
    expect(seen).toMatchObject({ connected: true, body: 'ok' });
  });

  it('reports a name that does not resolve as a dns error', async () => {
    const seen = await observe(tcp('missing.test:5432'), { ...guarded, lookup: lookupTo({}) });
    expect(seen).toMatchObject({
      connected: false,
      error: { class: 'dns', message: 'Could not resolve missing.test' },
    });
  });

  it.each(['no-port.test', 'a.test:0', 'a.test:70000', 'http://a.test:80', '::1:80'])(
    'refuses %j as not host:port',
    async (endpoint) => {
      const seen = await observe(tcp(endpoint), guarded);
      expect(seen).toMatchObject({ connected: false, error: { class: 'protocol' } });
      expect(seen.error?.message).toContain('host:port');
    },
  );
});
