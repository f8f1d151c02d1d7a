import { createServer as createTlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from 'undici';
import { forbiddenKind } from '../../../src/runner/address-policy.js';
import { createGuardedAgent, RefusedAddressError, type LookupAll } from '../../../src/runner/guarded-agent.js';
import { probe } from '../../../src/runner/probe.js';
import { startServer, type TestServer } from './test-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function serveOk(): Promise<TestServer> {
  const server = await startServer((_request, response) => response.end('ok'));
  cleanups.push(() => server.close());
  return server;
}

function agent(options: Parameters<typeof createGuardedAgent>[0]): Agent {
  const created = createGuardedAgent(options);
  cleanups.push(() => created.destroy());
  return created;
}

/** A resolver with fixed answers per call, recording every name it was asked for. */
function scriptedLookup(...answers: string[][]): LookupAll & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)] ?? [];
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}

/** The default policy, except that this test's own server on 127.0.0.1 may be reached. */
const allowTestServer = (ip: string) => (ip === '127.0.0.1' ? null : forbiddenKind(ip));

const check = (endpoint: string) => ({ endpoint, timeoutSeconds: 1 });

describe('createGuardedAgent', () => {
  it('connects to the address it checked, with no second resolution (a rebinding answer is never used)', async () => {
    const server = await serveOk();
    // The first answer is checked and used; a later answer (rebinding to a private address) must not matter.
    const lookup = scriptedLookup(['127.0.0.1'], ['10.0.0.1']);
    const dispatcher = agent({ lookup, policy: allowTestServer });
    const result = await probe(check(`http://service.test:${server.port}/health`), { allowPrivate: false, dispatcher });
    expect(result).toMatchObject({ success: true, status: 200 });
    expect(lookup.calls).toEqual(['service.test']);
    // service.test does not exist in DNS: the request arrived only because the checked address was used.
    expect(server.hosts).toEqual([`service.test:${server.port}`]);
  });

  it('checks every resolved address: one forbidden address refuses the host', async () => {
    const server = await serveOk();
    const lookup = scriptedLookup(['127.0.0.1', '10.0.0.1']);
    const dispatcher = agent({ lookup, policy: allowTestServer });
    const result = await probe(check(`http://service.test:${server.port}/`), { allowPrivate: false, dispatcher });
    // The editor learns the host is refused, not what it resolves to inside the network.
    expect(result).toMatchObject({ success: false, error: 'Refused: service.test is not an allowed host' });
    expect(server.connections).toBe(0);
  });

  it.each(['169.254.169.254', '::ffff:127.0.0.1', '64:ff9b::a9fe:a9fe', 'fe80::1', '100.64.1.1'])(
    'refuses a name resolving to %s without naming the address',
    async (address) => {
      const dispatcher = agent({ lookup: scriptedLookup([address]) });
      const result = await probe(check('http://rebind.test/'), { allowPrivate: false, dispatcher });
      expect(result).toMatchObject({ success: false, error: 'Refused: rebind.test is not an allowed host' });
      expect(result.error).not.toContain(address);
    },
  );

  it('checks an IP literal without resolving it', async () => {
    const lookup = scriptedLookup(['8.8.8.8']);
    const dispatcher = agent({ lookup });
    const result = await probe(check('http://10.1.2.3/'), { allowPrivate: false, dispatcher });
    expect(result).toMatchObject({ success: false, error: 'Refused: 10.1.2.3 is a private address' });
    expect(lookup.calls).toEqual([]);
  });

  it('fails with a RefusedAddressError the caller can recognise', async () => {
    const dispatcher = agent({ lookup: scriptedLookup(['10.0.0.1']) });
    const error = await dispatcher.request({ origin: 'http://x.test', path: '/', method: 'GET' }).catch((e) => e);
    expect(error).toBeInstanceOf(RefusedAddressError);
    expect(error).toMatchObject({ code: 'BEACON_REFUSED_ADDRESS', address: '10.0.0.1', kind: 'private' });
  });

  it('tries the next checked address when one cannot be reached', async () => {
    const server = await serveOk();
    // 127.0.0.2 is on the loopback interface but nothing listens there on this port.
    const lookup = scriptedLookup(['127.0.0.2', '127.0.0.1']);
    const policy = (ip: string) => (ip.startsWith('127.') ? null : forbiddenKind(ip));
    const dispatcher = agent({ lookup, policy });
    const result = await probe(check(`http://two.test:${server.port}/`), { allowPrivate: false, dispatcher });
    expect(result).toMatchObject({ success: true, status: 200 });
  });

  it('reports a name that does not resolve', async () => {
    const lookup: LookupAll = async (hostname) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    };
    const dispatcher = agent({ lookup });
    const result = await probe(check('http://missing.test/'), { allowPrivate: false, dispatcher });
    expect(result).toMatchObject({ success: false, error: 'Could not resolve missing.test' });
  });

  it('reports an empty answer as a name that does not resolve', async () => {
    const dispatcher = agent({ lookup: scriptedLookup([]) });
    const result = await probe(check('http://empty.test/'), { allowPrivate: false, dispatcher });
    expect(result).toMatchObject({ success: false, error: 'Could not resolve empty.test' });
  });

  it('keeps the host name for TLS (SNI) while connecting to the checked address', async () => {
    const names: string[] = [];
    const server = createTlsServer({
      SNICallback: (name, callback) => {
        names.push(name);
        callback(new Error('no certificate here'));
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;

    const dispatcher = agent({ lookup: scriptedLookup(['127.0.0.1']), policy: allowTestServer });
    const result = await probe(check(`https://secure.test:${port}/`), { allowPrivate: false, dispatcher });
    expect(result.success).toBe(false);
    expect(names).toEqual(['secure.test']);
  });
});
