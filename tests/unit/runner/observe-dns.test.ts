import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Socket } from 'node:net';
import dnsPacket, { type Answer, type DecodedPacket } from 'dns-packet';
import { afterEach, describe, expect, it } from 'vitest';
import type { DnsRecordType } from '../../../src/domain/check-kinds.js';
import { observe } from '../../../src/runner/observe.js';
import { parseResolver } from '../../../src/runner/observe-dns.js';
import { forbiddenKind } from '../../../src/runner/address-policy.js';
import type { AddressPolicy } from '../../../src/runner/guarded-agent.js';
import { closeServer } from './probe-targets.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const ZONE: Record<string, Answer[]> = {
  'db.example.test': [{ type: 'A', name: 'db.example.test', data: '10.0.0.5' }],
  'v6.example.test': [{ type: 'AAAA', name: 'v6.example.test', data: 'fd00::5' }],
  'example.test': [
    { type: 'A', name: 'example.test', data: '192.0.2.20' },
    { type: 'A', name: 'example.test', data: '192.0.2.10' },
    { type: 'AAAA', name: 'example.test', data: '2001:db8::10' },
    { type: 'MX', name: 'example.test', data: { preference: 20, exchange: 'mx2.example.test' } },
    { type: 'MX', name: 'example.test', data: { preference: 10, exchange: 'mx1.example.test' } },
    { type: 'TXT', name: 'example.test', data: ['v=spf1 ', 'include:_spf.example.test -all'] },
    { type: 'TXT', name: 'example.test', data: 'google-site-verification=abc' },
    { type: 'NS', name: 'example.test', data: 'ns1.example.test' },
    { type: 'CAA', name: 'example.test', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
    {
      type: 'SOA',
      name: 'example.test',
      data: {
        mname: 'ns1.example.test',
        rname: 'hostmaster.example.test',
        serial: 2026010101,
        refresh: 7200,
        retry: 3600,
        expire: 1209600,
        minimum: 300,
      },
    },
  ],
  // An A query here answers the CNAME chain, then the address.
  'www.example.test': [
    { type: 'CNAME', name: 'www.example.test', data: 'example.test' },
    { type: 'A', name: 'example.test', data: '192.0.2.10' },
  ],
};

/** Answers too large for UDP (by this server's rule): TC over UDP, the whole answer over TCP. */
const BIG = 'big.example.test';
const bigAnswers: Answer[] = Array.from({ length: 40 }, (_, i) => ({
  type: 'A',
  name: BIG,
  data: `198.51.100.${i + 1}`,
}));

interface DnsServer {
  /** `127.0.0.1:port`, as BEACON_DNS_RESOLVERS spells it. */
  resolver: string;
  /** Questions asked, `name TYPE`, and over which transport. */
  questions: string[];
}

function answer(query: DecodedPacket, transport: 'udp' | 'tcp'): Buffer {
  const question = query.questions?.[0];
  const name = question?.name.toLowerCase() ?? '';
  const base = { type: 'response' as const, id: query.id, questions: query.questions };
  if (name === 'broken.example.test') return dnsPacket.encode({ ...base, flags: 2 }); // SERVFAIL
  if (name === BIG) {
    if (transport === 'udp') return dnsPacket.encode({ ...base, flags: dnsPacket.TRUNCATED_RESPONSE });
    return dnsPacket.encode({ ...base, answers: bigAnswers });
  }
  const records = ZONE[name];
  if (!records) return dnsPacket.encode({ ...base, flags: 3 }); // NXDOMAIN
  return dnsPacket.encode({ ...base, answers: records.filter((r) => r.type === question?.type || r.type === 'CNAME') });
}

/**
 * A DNS server on a loopback port, UDP and TCP, answering from ZONE with dns-packet. The TCP side takes the port
 * the UDP side was given, which another test file may hold for TCP: then both let go and another port is tried
 * (a listen error unheard left the test waiting until its timeout).
 */
async function serveDns(): Promise<DnsServer> {
  const questions: string[] = [];
  const note = (query: DecodedPacket, transport: string) =>
    questions.push(`${query.questions?.[0]?.name} ${query.questions?.[0]?.type} ${transport}`);
  for (let attempt = 1; ; attempt++) {
    const udp = createSocket('udp4');
    udp.on('message', (message, peer) => {
      const query = dnsPacket.decode(message);
      note(query, 'udp');
      udp.send(answer(query, 'udp'), peer.port, peer.address);
    });
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const { port } = udp.address();

    const sockets = new Set<Socket>();
    const tcp = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('data', (chunk: Buffer) => {
        const query = dnsPacket.decode(chunk.subarray(2));
        note(query, 'tcp');
        const reply = answer(query, 'tcp');
        const length = Buffer.alloc(2);
        length.writeUInt16BE(reply.length);
        socket.write(Buffer.concat([length, reply]));
      });
    });
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(port, '127.0.0.1', resolve);
      });
    } catch (error) {
      udp.close();
      if (attempt >= 10) throw error;
      continue;
    }
    cleanups.push(async () => {
      udp.close();
      await closeServer(tcp, sockets);
    });
    return { resolver: `127.0.0.1:${port}`, questions };
  }
}

/** A UDP port that reads queries and never answers. */
async function silentResolver(): Promise<string> {
  const socket: UdpSocket = createSocket('udp4');
  socket.on('message', () => {});
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => socket.close(() => resolve())));
  return `127.0.0.1:${socket.address().port}`;
}

/** A UDP port nothing listens on (bound, then released): the kernel answers port unreachable. */
async function closedUdpPort(): Promise<string> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return `127.0.0.1:${port}`;
}

const dns = (endpoint: string, record?: DnsRecordType, timeoutSeconds = 2) => ({
  kind: 'dns' as const,
  endpoint,
  timeoutSeconds,
  ...(record && { record }),
});

/**
 * The shared runner: no private targets, yet its DNS checks ask the operator's resolver on loopback. The zone's
 * addresses are documentation ones (RFC 5737, 3849), which the guard refuses too: its policy here lets them be.
 */
const documentation: AddressPolicy = (ip) => (forbiddenKind(ip) === 'documentation' ? null : forbiddenKind(ip));
const shared = (resolvers: string[]) => ({ allowPrivate: false, dnsResolvers: resolvers, policy: documentation });

describe('observe dns: answers', () => {
  it.each<[DnsRecordType, string[]]>([
    ['A', ['192.0.2.10', '192.0.2.20']],
    ['AAAA', ['2001:db8::10']],
    ['MX', ['10 mx1.example.test', '20 mx2.example.test']],
    ['TXT', ['google-site-verification=abc', 'v=spf1 include:_spf.example.test -all']],
    ['NS', ['ns1.example.test']],
    ['SOA', ['ns1.example.test hostmaster.example.test 2026010101 7200 3600 1209600 300']],
    ['CAA', ['0 issue "letsencrypt.org"']],
  ])('%s: NOERROR with the answers as sorted text', async (record, answers) => {
    const server = await serveDns();
    const seen = await observe(dns('example.test', record), shared([server.resolver]));
    expect(seen).toEqual({ connected: true, latency_ms: expect.any(Number), dns: { rcode: 'NOERROR', answers } });
    expect(server.questions).toEqual([`example.test ${record} udp`]);
  });

  it('asks for A when no record type is given', async () => {
    const server = await serveDns();
    const seen = await observe(dns('example.test'), shared([server.resolver]));
    expect(seen.dns).toEqual({ rcode: 'NOERROR', answers: ['192.0.2.10', '192.0.2.20'] });
  });

  it('keeps only answers of the type asked for (not the CNAME chain of an A query)', async () => {
    const server = await serveDns();
    expect((await observe(dns('www.example.test', 'A'), shared([server.resolver]))).dns).toEqual({
      rcode: 'NOERROR',
      answers: ['192.0.2.10'],
    });
    expect((await observe(dns('www.example.test', 'CNAME'), shared([server.resolver]))).dns).toEqual({
      rcode: 'NOERROR',
      answers: ['example.test'],
    });
  });

  it('NXDOMAIN and SERVFAIL are answers (connected), for the assertions to judge', async () => {
    const server = await serveDns();
    const missing = await observe(dns('nowhere.example.test'), shared([server.resolver]));
    expect(missing).toMatchObject({ connected: true, dns: { rcode: 'NXDOMAIN', answers: [] } });
    expect(missing.error).toBeUndefined();
    const broken = await observe(dns('broken.example.test'), shared([server.resolver]));
    expect(broken).toMatchObject({ connected: true, dns: { rcode: 'SERVFAIL', answers: [] } });
  });

  it('asks again over TCP when the UDP answer is truncated', async () => {
    const server = await serveDns();
    const seen = await observe(dns(BIG, 'A'), shared([server.resolver]));
    expect(seen.dns?.rcode).toBe('NOERROR');
    expect(seen.dns?.answers).toHaveLength(40);
    expect(server.questions).toEqual([`${BIG} A udp`, `${BIG} A tcp`]);
  });
});

describe('observe dns: resolvers', () => {
  it('moves on to the next resolver when one is closed', async () => {
    const server = await serveDns();
    const seen = await observe(dns('example.test'), shared([await closedUdpPort(), server.resolver]));
    expect(seen).toMatchObject({ connected: true, dns: { rcode: 'NOERROR' } });
  });

  it('shares the timeout between resolvers: a silent one does not use it all', async () => {
    const server = await serveDns();
    const seen = await observe(dns('example.test', 'A', 2), shared([await silentResolver(), server.resolver]));
    expect(seen).toMatchObject({ connected: true, dns: { rcode: 'NOERROR' } });
    expect(seen.latency_ms).toBeGreaterThanOrEqual(990);
    expect(seen.latency_ms).toBeLessThan(1500);
  });

  it('no answer within the timeout is a timeout', async () => {
    const seen = await observe(dns('example.test', 'A', 1), shared([await silentResolver()]));
    expect(seen).toEqual({
      connected: false,
      latency_ms: expect.any(Number),
      error: { class: 'timeout', message: 'No DNS answer within 1 s' },
    });
    expect(seen.latency_ms).toBeGreaterThanOrEqual(990);
    expect(seen.latency_ms).toBeLessThan(1300);
  });

  it('every resolver closed is a dns error', async () => {
    const seen = await observe(dns('example.test'), shared([await closedUdpPort()]));
    expect(seen).toMatchObject({ connected: false, error: { class: 'dns', message: 'No DNS resolver answered' } });
  });

  it('reads resolvers as ip, ip:port, [ipv6]:port and bare IPv6; skips what is not one', () => {
    expect(parseResolver('192.0.2.53')).toEqual({ address: '192.0.2.53', port: 53 });
    expect(parseResolver('192.0.2.53:5353')).toEqual({ address: '192.0.2.53', port: 5353 });
    expect(parseResolver('[2001:db8::53]:5353')).toEqual({ address: '2001:db8::53', port: 5353 });
    expect(parseResolver('[2001:db8::53]')).toEqual({ address: '2001:db8::53', port: 53 });
    expect(parseResolver('2001:db8::53')).toEqual({ address: '2001:db8::53', port: 53 });
    expect(parseResolver('dns.example.test')).toBeNull();
    expect(parseResolver('192.0.2.53:0')).toBeNull();
  });

  it('no usable resolver is a dns error', async () => {
    const seen = await observe(dns('example.test'), shared(['not-an-ip']));
    expect(seen).toMatchObject({ connected: false, error: { class: 'dns', message: 'No DNS resolver is configured' } });
  });
});

describe('observe dns: the name is only a question', () => {
  it.each(['127.0.0.1', '10.0.0.1', '169.254.169.254'])(
    'a check of %s asks the resolver about that name and contacts nothing else',
    async (name) => {
      const server = await serveDns();
      const seen = await observe(dns(name), shared([server.resolver]));
      expect(seen).toMatchObject({ connected: true, dns: { rcode: 'NXDOMAIN' } });
      expect(server.questions).toEqual([`${name} A udp`]);
    },
  );

  it.each(['::ffff:127.0.0.1', '[::1]', 'exa mple.test', '-bad-.test'])('%j is not a DNS name', async (name) => {
    const server = await serveDns();
    const seen = await observe(dns(name), shared([server.resolver]));
    expect(seen).toMatchObject({ connected: false, error: { class: 'dns' } });
    expect(server.questions).toEqual([]);
  });
});

describe('observe dns: the address guard', () => {
  it.each(['db.internal', 'api.svc.cluster.local', 'nas.home.arpa', 'printer.local', 'localhost', 'Vault.INTERNAL.'])(
    'the shared runner never asks about the private name %s',
    async (name) => {
      const server = await serveDns();
      const seen = await observe(dns(name), shared([server.resolver]));
      expect(seen).toEqual({
        connected: false,
        latency_ms: expect.any(Number),
        error: { class: 'refused', message: `Refused: ${name.replace(/\.$/, '')} is not an allowed host` },
      });
      expect(server.questions).toEqual([]);
    },
  );

  it.each<[string, DnsRecordType]>([
    ['db.example.test', 'A'],
    ['v6.example.test', 'AAAA'],
  ])('a private address in the answer for %s (%s) is refused, never shown', async (name, record) => {
    const server = await serveDns();
    const seen = await observe(dns(name, record), shared([server.resolver]));
    expect(seen).toEqual({
      connected: false,
      latency_ms: expect.any(Number),
      error: { class: 'refused', message: `Refused: ${name} is not an allowed host` },
    });
    expect(JSON.stringify(seen)).not.toMatch(/10\.0\.0\.5|fd00/);
  });

  it('with private targets allowed (a team runner), private names and answers are asked and shown', async () => {
    const server = await serveDns();
    const options = { allowPrivate: true, dnsResolvers: [server.resolver] };
    expect(await observe(dns('db.example.test'), options)).toMatchObject({
      connected: true,
      dns: { rcode: 'NOERROR', answers: ['10.0.0.5'] },
    });
    expect(await observe(dns('db.internal'), options)).toMatchObject({ connected: true, dns: { rcode: 'NXDOMAIN' } });
  });
});
