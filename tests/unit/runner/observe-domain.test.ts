import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { observe, type ObserveOptions } from '../../../src/runner/observe.js';
import { clearRdapCaches } from '../../../src/runner/observe-domain.js';
import { allowLoopback, lookupTo } from './probe-targets.js';
import { startServer, type TestServer } from './test-server.js';

const DAY_MS = 86_400_000;

const servers: TestServer[] = [];
beforeEach(() => clearRdapCaches());
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Expiry dates the stand-in registry gives, per domain; a domain missing here is unknown to it (404). */
interface Registry {
  [domain: string]: { expires?: string; events?: unknown[] };
}

/**
 * An RDAP stand-in on 127.0.0.1: `/bootstrap.json` in RFC 9224 form (`test` and `uk` served here, `de` with no
 * service, others as `extra` says) and `/rdap/domain/{name}` in RFC 9083 form.
 */
async function serveRdap(registry: Registry, extra: [string[], string[]][] = []): Promise<TestServer> {
  const server = await startServer((request, response, self) => {
    const url = request.url ?? '';
    if (url === '/bootstrap.json') {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          version: '1.0',
          publication: '2026-01-01T00:00:00Z',
          services: [[['test', 'uk'], [`http://127.0.0.1:${self.port}/rdap/`]], [['de'], []], ...extra],
        }),
      );
      return;
    }
    const match = /^\/rdap\/domain\/(.+)$/.exec(url);
    const entry = match && registry[match[1]!];
    if (!entry) {
      response.writeHead(404, { 'content-type': 'application/rdap+json' });
      response.end(JSON.stringify({ errorCode: 404, title: 'Not Found' }));
      return;
    }
    response.setHeader('content-type', 'application/rdap+json');
    response.end(
      JSON.stringify({
        objectClassName: 'domain',
        ldhName: match[1]!.toUpperCase(),
        status: ['active'],
        events: entry.events ?? [
          { eventAction: 'registration', eventDate: '2001-05-01T00:00:00Z' },
          { eventAction: 'last changed', eventDate: '2025-05-01T00:00:00Z' },
          ...(entry.expires ? [{ eventAction: 'expiration', eventDate: entry.expires }] : []),
        ],
      }),
    );
  });
  servers.push(server);
  return server;
}

const domain = (endpoint: string, timeoutSeconds = 2) => ({ kind: 'domain' as const, endpoint, timeoutSeconds });

/** The shared runner's guard, narrowed to reach the stand-in on 127.0.0.1. */
const options = (server: TestServer, extra: Partial<ObserveOptions> = {}): ObserveOptions => ({
  allowPrivate: false,
  policy: allowLoopback,
  rdapBootstrapUrl: `${server.origin}/bootstrap.json`,
  ...extra,
});

const inDays = (days: number) => new Date(Date.now() + days * DAY_MS + 3_600_000).toISOString();

describe('observe domain', () => {
  it('reads the expiration event of the registrable domain', async () => {
    const expires = inDays(100);
    const server = await serveRdap({ 'example.test': { expires } });
    const seen = await observe(domain('www.api.example.test'), options(server));
    expect(seen).toEqual({
      connected: true,
      latency_ms: expect.any(Number),
      domain: { days_left: 100, expires_at: new Date(expires).toISOString() },
    });
    expect(server.requests).toEqual(['/bootstrap.json', '/rdap/domain/example.test']);
  });

  it('uses the public suffix list: www.example.co.uk is example.co.uk', async () => {
    const server = await serveRdap({ 'example.co.uk': { expires: inDays(40) } });
    const seen = await observe(domain('www.example.co.uk'), options(server));
    expect(seen.domain).toMatchObject({ days_left: 40 });
    expect(server.requests).toContain('/rdap/domain/example.co.uk');
  });

  it('an expired registration has negative days left', async () => {
    const server = await serveRdap({ 'lapsed.test': { expires: inDays(-3) } });
    const seen = await observe(domain('lapsed.test'), options(server));
    // Three days less an hour ago: floored, -3.
    expect(seen.domain?.days_left).toBe(-3);
  });

  it('a TLD without an RDAP service (or not in the bootstrap) is unknown, never a failure', async () => {
    const server = await serveRdap({});
    for (const [name, tld] of [
      ['example.de', 'de'],
      ['example.eu', 'eu'],
    ]) {
      const seen = await observe(domain(name!), options(server));
      expect(seen).toEqual({
        connected: true,
        latency_ms: expect.any(Number),
        domain: { days_left: null, expires_at: null, unknown_reason: `.${tld} has no RDAP service` },
      });
    }
    expect(server.requests).toEqual(['/bootstrap.json']);
  });

  it('an answer with no expiration event is unknown', async () => {
    const server = await serveRdap({ 'quiet.test': {} });
    const seen = await observe(domain('quiet.test'), options(server));
    expect(seen).toMatchObject({
      connected: true,
      domain: {
        days_left: null,
        expires_at: null,
        unknown_reason: "The registry's RDAP answer names no expiration date",
      },
    });
    expect(seen.error).toBeUndefined();
  });

  it('a domain the registry does not know is an error (it may have lapsed), not unknown', async () => {
    const server = await serveRdap({});
    const seen = await observe(domain('gone.test'), options(server));
    expect(seen).toMatchObject({
      connected: true,
      error: { class: 'protocol', message: 'RDAP: the registry has no record of gone.test (HTTP 404)' },
    });
    expect(seen.domain).toBeUndefined();
  });

  it('keeps answers and the bootstrap file a day', async () => {
    const server = await serveRdap({ 'example.test': { expires: inDays(100) }, 'other.test': { expires: inDays(50) } });
    await observe(domain('example.test'), options(server));
    const again = await observe(domain('www.example.test'), options(server));
    expect(again.domain?.days_left).toBe(100);
    await observe(domain('other.test'), options(server));
    expect(server.requests).toEqual(['/bootstrap.json', '/rdap/domain/example.test', '/rdap/domain/other.test']);
  });

  it('a bootstrap file that cannot be read is an error naming it', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(503);
      response.end('down');
    });
    servers.push(server);
    const seen = await observe(domain('example.test'), options(server));
    expect(seen).toMatchObject({
      connected: true,
      error: { class: 'protocol', message: 'RDAP: the RDAP bootstrap file answered HTTP 503' },
    });
  });

  it('follows a registry redirect to another host (each hop guarded)', async () => {
    const registry = await serveRdap({ 'moved.test': { expires: inDays(70) } });
    // The bootstrap names the front by another name (front.test); the front sends the lookup on to 127.0.0.1.
    const front = await startServer((request, response, self) => {
      if (request.url === '/bootstrap.json') {
        response.end(JSON.stringify({ services: [[['test'], [`http://front.test:${self.port}/rdap/`]]] }));
      } else {
        response.writeHead(302, { location: `${registry.origin}/rdap/domain/moved.test` });
        response.end();
      }
    });
    servers.push(front);
    const lookup = lookupTo({ 'front.test': ['127.0.0.1'] });
    const seen = await observe(domain('moved.test'), options(front, { lookup }));
    expect(seen.domain?.days_left).toBe(70);
    expect(front.requests).toEqual(['/bootstrap.json', '/rdap/domain/moved.test']);
    expect(registry.requests).toEqual(['/rdap/domain/moved.test']);
  });

  it.each(['127.0.0.1', 'co.uk', 'not a name'])('%j is not a registrable domain name', async (name) => {
    const server = await serveRdap({});
    const seen = await observe(domain(name), options(server));
    expect(seen).toMatchObject({ connected: false, error: { class: 'dns' } });
    expect(server.requests).toEqual([]);
  });
});

describe('observe domain: the RDAP fetch goes through the SSRF guard', () => {
  it('the bootstrap file on a loopback address is refused with the default policy', async () => {
    const server = await serveRdap({ 'example.test': { expires: inDays(100) } });
    const seen = await observe(domain('example.test'), {
      allowPrivate: false,
      rdapBootstrapUrl: `${server.origin}/bootstrap.json`,
    });
    expect(seen).toMatchObject({
      connected: false,
      error: { class: 'refused', message: 'Refused: 127.0.0.1 is a loopback address' },
    });
    expect(server.connections).toBe(0);
  });

  it.each([
    ['private', 'http://10.0.0.1/', 'Refused: 10.0.0.1 is a private address'],
    ['metadata', 'http://169.254.169.254/', 'Refused: 169.254.169.254 is a cloud metadata address'],
    ['mapped', 'http://[::ffff:127.0.0.1]:9/', 'Refused: ::ffff:7f00:1 is a loopback address'],
    ['six', 'http://[::1]:9/', 'Refused: ::1 is a loopback address'],
    ['loop', 'http://127.0.0.2:9/', 'Refused: 127.0.0.2 is a loopback address'],
  ])('an RDAP service the bootstrap puts at a %s address is refused', async (tld, base, message) => {
    const server = await serveRdap({}, [[[tld], [base]]]);
    const seen = await observe(domain(`example.${tld}`), options(server));
    expect(seen).toMatchObject({ connected: false, error: { class: 'refused', message } });
  });

  it('with private targets allowed (team runners), the stand-in is reached without any policy', async () => {
    const server = await serveRdap({ 'example.test': { expires: inDays(10) } });
    const seen = await observe(domain('example.test'), {
      allowPrivate: true,
      rdapBootstrapUrl: `${server.origin}/bootstrap.json`,
    });
    expect(seen.domain?.days_left).toBe(10);
  });
});
