import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import {
  BODY_CAP_BYTES,
  closeSharedAgents,
  MAX_REDIRECTS,
  ONLY_HTTP_ERROR,
  probe,
  type ProbeResult,
} from '../../../src/runner/probe.js';
import { closedPort, startServer, type Handler, type TestServer } from './test-server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(() => closeSharedAgents());

async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

const ok: Handler = (_request, response) => response.end('ok');
const open = { allowPrivate: true };
const guarded = { allowPrivate: false };

describe('probe: responses', () => {
  it('a 200 is a success, with start and time', async () => {
    const server = await serve(ok);
    const before = Date.now();
    const result = await probe({ endpoint: `${server.origin}/health`, timeoutSeconds: 1 }, open);
    expect(result).toMatchObject({ success: true, status: 200 });
    expect(result.error).toBeUndefined();
    expect(result.start).toBeGreaterThanOrEqual(before);
    expect(result.start).toBeLessThanOrEqual(Date.now());
    expect(result.time).toBeGreaterThanOrEqual(0);
    expect(result.time).toBeLessThan(1000);
    expect(server.requests).toEqual(['/health']);
  });

  it('sends the path and query string', async () => {
    const server = await serve(ok);
    await probe({ endpoint: `${server.origin}/status?deep=1`, timeoutSeconds: 1 }, open);
    expect(server.requests).toEqual(['/status?deep=1']);
  });

  it.each([500, 503, 404, 401])('a %i is a failure with its status', async (status) => {
    const server = await serve((_request, response) => {
      response.statusCode = status;
      response.end('no');
    });
    const result = await probe({ endpoint: server.origin, timeoutSeconds: 1 }, open);
    expect(result).toMatchObject({ success: false, status, error: `HTTP status ${status}` });
  });

  it('a 3xx that is not followed (no Location) is a success', async () => {
    const server = await serve((_request, response) => {
      response.statusCode = 304;
      response.end();
    });
    const result = await probe({ endpoint: server.origin, timeoutSeconds: 1 }, open);
    expect(result).toMatchObject({ success: true, status: 304 });
  });

  it('reads a large body only up to the cap and does not wait for the rest', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      // Far more than the cap, and never ended: only the cap may be read.
      const write = (): void => {
        while (response.write(chunk));
        response.once('drain', write);
      };
      write();
    });
    const result = await probe({ endpoint: server.origin, timeoutSeconds: 2 }, open);
    expect(result).toMatchObject({ success: true, status: 200 });
    expect(result.time).toBeLessThan(1000);
    expect(BODY_CAP_BYTES).toBeLessThanOrEqual(1024 * 1024);
  });

  it('reuses a keep-alive connection across probes of the same origin', async () => {
    const server = await serve(ok);
    await probe({ endpoint: `${server.origin}/a`, timeoutSeconds: 1 }, open);
    // undici frees the connection a tick after the body ends; real probes are seconds apart.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await probe({ endpoint: `${server.origin}/b`, timeoutSeconds: 1 }, open);
    expect(server.requests).toEqual(['/a', '/b']);
    expect(server.connections).toBe(1);
  });
});

describe('probe: timeout covers the whole exchange', () => {
  const expectTimedOut = (result: ProbeResult, elapsed: number): void => {
    expect(result.success).toBe(false);
    expect(result.error).toBe('Timed out after 1 s');
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeLessThan(1200);
    expect(result.time).toBeGreaterThanOrEqual(990);
    expect(result.time).toBeLessThan(1200);
  };

  it('a server that never answers fails within the timeout', async () => {
    const server = await serve(() => {});
    const before = performance.now();
    const result = await probe({ endpoint: server.origin, timeoutSeconds: 1 }, open);
    expectTimedOut(result, performance.now() - before);
    expect(result.status).toBeUndefined();
  });

  it('a body that never ends fails within the timeout, keeping the status seen', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200);
      response.write('partial');
    });
    const before = performance.now();
    const result = await probe({ endpoint: server.origin, timeoutSeconds: 1 }, open);
    expectTimedOut(result, performance.now() - before);
    expect(result.status).toBe(200);
  });

  it('redirect hops share one timeout', async () => {
    const server = await serve((request, response) => {
      if (request.url === '/slow') return; // the second hop hangs
      setTimeout(() => {
        response.writeHead(302, { location: '/slow' });
        response.end();
      }, 600);
    });
    const before = performance.now();
    const result = await probe({ endpoint: `${server.origin}/first`, timeoutSeconds: 1 }, open);
    expectTimedOut(result, performance.now() - before);
    expect(server.requests).toEqual(['/first', '/slow']);
  });
});

describe('probe: redirects', () => {
  it('follows a redirect to the same host', async () => {
    const server = await serve((request, response) => {
      if (request.url === '/old') {
        response.writeHead(301, { location: '/new' });
        response.end('moved');
      } else response.end('ok');
    });
    const result = await probe({ endpoint: `${server.origin}/old`, timeoutSeconds: 1 }, open);
    expect(result).toMatchObject({ success: true, status: 200 });
    expect(server.requests).toEqual(['/old', '/new']);
  });

  it('follows an absolute redirect to the same host and port', async () => {
    const server = await serve((request, response) => {
      if (request.url === '/old') {
        response.writeHead(307, { location: `${server.origin}/new?x=1` });
        response.end();
      } else response.end('ok');
    });
    const result = await probe({ endpoint: `${server.origin}/old`, timeoutSeconds: 1 }, open);
    expect(result).toMatchObject({ success: true, status: 200 });
    expect(server.requests).toEqual(['/old', '/new?x=1']);
  });

  it(`follows at most ${MAX_REDIRECTS} hops`, async () => {
    const chain = (hops: number): Handler => {
      return (request, response) => {
        const n = Number(request.url?.slice(1));
        if (n < hops) response.writeHead(302, { location: `/${n + 1}` });
        response.end();
      };
    };
    const fine = await serve(chain(MAX_REDIRECTS));
    expect(await probe({ endpoint: `${fine.origin}/0`, timeoutSeconds: 1 }, open)).toMatchObject({
      success: true,
      status: 200,
    });
    expect(fine.requests).toEqual(['/0', '/1', '/2', '/3']);

    const tooMany = await serve(chain(MAX_REDIRECTS + 1));
    const result = await probe({ endpoint: `${tooMany.origin}/0`, timeoutSeconds: 1 }, open);
    expect(result).toMatchObject({ success: false, status: 302, error: 'Too many redirects (more than 3)' });
    expect(tooMany.requests).toEqual(['/0', '/1', '/2', '/3']);
  });

  it('refuses a redirect loop', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(302, { location: '/loop' });
      response.end();
    });
    const result = await probe({ endpoint: `${server.origin}/loop`, timeoutSeconds: 1 }, open);
    expect(result).toMatchObject({ success: false, error: 'Too many redirects (more than 3)' });
  });

  it('does not follow a redirect to another host (127.0.0.1 to localhost), even with private targets allowed', async () => {
    const other = await serve(ok);
    const server = await serve((_request, response) => {
      response.writeHead(302, { location: `http://localhost:${other.port}/landing` });
      response.end();
    });
    const result = await probe({ endpoint: `${server.origin}/start`, timeoutSeconds: 1 }, open);
    expect(result).toMatchObject({
      success: false,
      status: 302,
      error: 'Redirected to another host (localhost); not followed',
    });
    expect(server.requests).toEqual(['/start']);
    expect(other.requests).toEqual([]);
    expect(other.connections).toBe(0);
  });

  it('does not follow a protocol-relative redirect to another host', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(302, { location: '//evil.example/steal' });
      response.end();
    });
    const result = await probe({ endpoint: server.origin, timeoutSeconds: 1 }, open);
    expect(result).toMatchObject({ success: false, error: 'Redirected to another host (evil.example); not followed' });
  });

  it('does not follow a redirect to a metadata address', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      response.end();
    });
    const result = await probe({ endpoint: server.origin, timeoutSeconds: 1 }, open);
    expect(result).toMatchObject({
      success: false,
      error: 'Redirected to another host (169.254.169.254); not followed',
    });
  });

  it('does not follow a redirect to a non-http scheme', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(302, { location: 'file:///etc/passwd' });
      response.end();
    });
    const result = await probe({ endpoint: server.origin, timeoutSeconds: 1 }, open);
    expect(result).toMatchObject({ success: false, status: 302, error: 'Redirected to an unsupported scheme (file:)' });
  });
});

describe('probe: endpoints that cannot be checked', () => {
  it.each(['ftp://example.com/file', 'file:///etc/passwd', 'gopher://127.0.0.1:70/', 'javascript:alert(1)', 'data:,x'])(
    'refuses %s',
    async (endpoint) => {
      const result = await probe({ endpoint, timeoutSeconds: 1 }, open);
      expect(result).toMatchObject({ success: false, error: ONLY_HTTP_ERROR });
      expect(result.status).toBeUndefined();
    },
  );

  it.each(['', 'not a url', '/relative/path', 'http://'])('refuses %j as not a URL', async (endpoint) => {
    const result = await probe({ endpoint, timeoutSeconds: 1 }, open);
    expect(result).toMatchObject({ success: false, error: 'The endpoint is not a valid URL' });
  });

  it('reports a refused connection', async () => {
    const port = await closedPort();
    const result = await probe({ endpoint: `http://127.0.0.1:${port}/`, timeoutSeconds: 1 }, open);
    expect(result).toMatchObject({ success: false, error: 'Connection refused' });
  });

  it('never throws, even when its dispatcher cannot be used', async () => {
    const agent = new Agent();
    await agent.close();
    const result = await probe({ endpoint: 'http://127.0.0.1:1/', timeoutSeconds: 1 }, { ...open, dispatcher: agent });
    expect(result.success).toBe(false);
    expect(result.error).toEqual(expect.any(String));
  });
});

describe('probe: private targets', () => {
  it('refuses 127.0.0.1 at connect time when private targets are not allowed: nothing reaches the server', async () => {
    const server = await serve(ok);
    const result = await probe({ endpoint: `${server.origin}/health`, timeoutSeconds: 1 }, guarded);
    expect(result).toMatchObject({ success: false, error: 'Refused: 127.0.0.1 is a loopback address' });
    expect(result.status).toBeUndefined();
    expect(server.requests).toEqual([]);
    expect(server.connections).toBe(0);
  });

  it('probes 127.0.0.1 when private targets are allowed', async () => {
    const server = await serve(ok);
    const result = await probe({ endpoint: `${server.origin}/health`, timeoutSeconds: 1 }, open);
    expect(result).toMatchObject({ success: true, status: 200 });
    expect(server.requests).toEqual(['/health']);
  });

  it('judges the resolved addresses: localhost is refused', async () => {
    const server = await serve(ok);
    const result = await probe({ endpoint: `http://localhost:${server.port}/`, timeoutSeconds: 1 }, guarded);
    expect(result.success).toBe(false);
    expect(result.error).toBe('Refused: localhost is not an allowed host');
    expect(server.connections).toBe(0);
  });

  it.each([
    ['http://[::1]:9/', 'Refused: ::1 is a loopback address'],
    ['http://[::ffff:127.0.0.1]:9/', 'Refused: ::ffff:7f00:1 is a loopback address'],
    ['http://0x7f.1:9/', 'Refused: 127.0.0.1 is a loopback address'],
    ['http://2130706433:9/', 'Refused: 127.0.0.1 is a loopback address'],
    ['http://0.0.0.0:9/', 'Refused: 0.0.0.0 is an unspecified address'],
    ['http://10.0.0.1/', 'Refused: 10.0.0.1 is a private address'],
    ['http://169.254.169.254/latest/meta-data/', 'Refused: 169.254.169.254 is a cloud metadata address'],
    ['https://192.168.1.1/', 'Refused: 192.168.1.1 is a private address'],
  ])('refuses %s', async (endpoint, error) => {
    const result = await probe({ endpoint, timeoutSeconds: 1 }, guarded);
    expect(result).toMatchObject({ success: false, error });
  });
});
