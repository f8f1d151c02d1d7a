import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { observe } from '../../../src/runner/observe.js';
import { closeSharedAgents } from '../../../src/runner/observe-http.js';
import { clearRdapCaches } from '../../../src/runner/observe-domain.js';
import { startServer, type TestServer } from './test-server.js';

/**
 * The shared runner's guard on every probing kind (docs/decisions.md#address-guard and #checks, issue 26 item 6), with
 * the default policy: the address spellings the HTTP guard is tested with are refused before any connection, whatever
 * the kind. (DNS checks only ever ask the operator's resolvers: observe-dns.test.ts shows such names are only
 * questions.)
 */
const servers: TestServer[] = [];
afterEach(async () => {
  clearRdapCaches();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(() => closeSharedAgents());

const shared = { allowPrivate: false };

const TARGETS = [
  { address: '127.0.0.1', hostPort: '127.0.0.1:9', url: 'http://127.0.0.1:9/', kind: 'a loopback address' },
  { address: '10.0.0.1', hostPort: '10.0.0.1:9', url: 'http://10.0.0.1:9/', kind: 'a private address' },
  {
    address: '169.254.169.254',
    hostPort: '169.254.169.254:80',
    url: 'http://169.254.169.254/latest/meta-data/',
    kind: 'a cloud metadata address',
  },
  // The URL parser writes the mapped address as ::ffff:7f00:1; host:port keeps it as the check wrote it.
  {
    address: '::ffff:127.0.0.1',
    hostPort: '[::ffff:127.0.0.1]:9',
    url: 'http://[::ffff:127.0.0.1]:9/',
    urlAddress: '::ffff:7f00:1',
    kind: 'a loopback address',
  },
  { address: '::1', hostPort: '[::1]:9', url: 'http://[::1]:9/', kind: 'a loopback address' },
];

describe.each(TARGETS)('the shared runner refuses $address', ({ address, hostPort, url, urlAddress, kind }) => {
  const refused = (named: string) => ({
    connected: false,
    latency_ms: expect.any(Number),
    error: { class: 'refused', message: `Refused: ${named} is ${kind}` },
  });

  it('http', async () => {
    expect(await observe({ kind: 'http', endpoint: url, timeoutSeconds: 1 }, shared)).toEqual(
      refused(urlAddress ?? address),
    );
  });

  it('tcp', async () => {
    expect(await observe({ kind: 'tcp', endpoint: hostPort, timeoutSeconds: 1 }, shared)).toEqual(refused(address));
  });

  it('tls', async () => {
    expect(await observe({ kind: 'tls', endpoint: hostPort, timeoutSeconds: 1 }, shared)).toEqual(refused(address));
  });

  it('domain: an address is no domain, and nothing is contacted', async () => {
    const bootstrap = await startServer((_request, response) => response.end('{"services":[]}'));
    servers.push(bootstrap);
    const seen = await observe(
      { kind: 'domain', endpoint: address, timeoutSeconds: 1 },
      { ...shared, rdapBootstrapUrl: `${bootstrap.origin}/bootstrap.json` },
    );
    expect(seen).toMatchObject({ connected: false, error: { class: 'dns' } });
    expect(bootstrap.connections).toBe(0);
  });
});
