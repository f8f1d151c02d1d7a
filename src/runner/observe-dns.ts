/**
 * The dns kind's probe (docs/decisions.md#checks): one query for the check's record type, sent to the operator's
 * resolvers only (BEACON_DNS_RESOLVERS, default the system's), answering the raw rcode (NXDOMAIN, SERVFAIL, ...) and
 * the answers as text. dns.Resolver would turn rcodes into errors, so the query is built with dns-packet and sent
 * over UDP, then TCP when the answer is truncated. The checked name is only ever a question, never a peer; but
 * the operator's resolvers know the operator's network, so without allowPrivate a private name (`*.internal`,
 * `*.local`, ...) is never asked and an A or AAAA answer the address guard refuses is refused, not shown.
 */
import { createSocket } from 'node:dgram';
import { getServers } from 'node:dns';
import { connect as netConnect, isIP } from 'node:net';
import { randomInt } from 'node:crypto';
import dnsPacket, { type Answer, type DecodedPacket, type Packet } from 'dns-packet';
import type { DnsRecordType, Observation, ProbeSpec } from '../domain/check-kinds.js';
import { isDnsName, isPrivateDnsName } from '../domain/check-targets.js';
import { forbiddenKind, refusalMessage } from './address-policy.js';
import { abortable, startDeadline, stopwatch, type ObserveOptions } from './observe-support.js';

/** A resolver to ask: an address and port. */
export interface Resolver {
  address: string;
  port: number;
}

/** `ip`, `ip:port`, `[ipv6]` or `[ipv6]:port`, or a bare IPv6 address (as dns.getServers() lists them); else null. */
export function parseResolver(text: string): Resolver | null {
  const value = text.trim();
  if (isIP(value)) return { address: value, port: 53 };
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(value);
  const address = match?.[1] ?? match?.[2];
  if (!address || !isIP(address)) return null;
  const port = match?.[3] ? Number(match[3]) : 53;
  return port >= 1 && port <= 65_535 ? { address, port } : null;
}

/** Largest UDP answer asked for (EDNS0), the size DNS Flag Day 2020 settled on. */
const UDP_PAYLOAD = 1232;

/**
 * Asks the resolvers in turn (each given an equal share of the time left) until one answers; any rcode is an
 * answer. Answers of other types than the one asked for (the CNAME chain of an A query) are left out. Never throws.
 */
export async function observeDns(spec: ProbeSpec, options: ObserveOptions): Promise<Observation> {
  const elapsed = stopwatch();
  const name = spec.endpoint.trim().replace(/\.$/, '');
  if (!isDnsName(name)) {
    return {
      connected: false,
      latency_ms: elapsed(),
      error: { class: 'dns', message: `"${spec.endpoint}" is not a DNS name` },
    };
  }
  if (!options.allowPrivate && isPrivateDnsName(name)) return refused(name, elapsed());
  const record = spec.record ?? 'A';
  const configured = options.dnsResolvers?.length ? options.dnsResolvers : getServers();
  const resolvers = configured.map(parseResolver).filter((r): r is Resolver => r !== null);
  if (resolvers.length === 0) {
    return {
      connected: false,
      latency_ms: elapsed(),
      error: { class: 'dns', message: 'No DNS resolver is configured' },
    };
  }

  const deadline = startDeadline(spec.timeoutSeconds);
  try {
    for (const [index, resolver] of resolvers.entries()) {
      const share = deadline.remaining() / (resolvers.length - index);
      if (share <= 0) break;
      // Bounded by the probe's deadline too, whatever a socket does.
      const response = await abortable(ask(resolver, name, record, share), deadline.signal).catch(() => null);
      if (!response) continue;
      const answers = formatAnswers(response.answers ?? [], record);
      if (!options.allowPrivate && (record === 'A' || record === 'AAAA')) {
        const policy = options.policy ?? forbiddenKind;
        if (answers.some((address) => policy(address) !== null)) return refused(name, elapsed());
      }
      return { connected: true, latency_ms: elapsed(), dns: { rcode: rcodeOf(response), answers } };
    }
    return {
      connected: false,
      latency_ms: elapsed(),
      error:
        // The last resolver's own timer may fire a moment before the probe's: time all but spent is a timeout.
        deadline.remaining() < 50
          ? { class: 'timeout', message: `No DNS answer within ${deadline.seconds} s` }
          : { class: 'dns', message: 'No DNS resolver answered' },
    };
  } finally {
    deadline.clear();
  }
}

/** A name the shared runner may not ask about, said as any refused host is (never what it resolved to). */
function refused(name: string, latency: number): Observation {
  return {
    connected: false,
    latency_ms: latency,
    error: { class: 'refused', message: refusalMessage(name, 'private') },
  };
}

/** One resolver's answer to the question, over UDP, then TCP when truncated; rejects on silence past `ms`. */
async function ask(resolver: Resolver, name: string, record: DnsRecordType, ms: number): Promise<DecodedPacket> {
  const startedAt = Date.now();
  const query: Packet = {
    type: 'query',
    id: randomInt(0, 65_536),
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type: record, name, class: 'IN' }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: UDP_PAYLOAD,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: 0,
        flag_do: false,
        options: [],
      },
    ],
  };
  const udp = await askUdp(resolver, query, ms);
  const response = checked(udp, query);
  if (!response.flag_tc) return response;
  return checked(await askTcp(resolver, query, ms - (Date.now() - startedAt)), query);
}

/** The decoded answer when it answers `query` (same id and question); a stray or forged packet throws. */
function checked(message: Buffer, query: Packet): DecodedPacket {
  const response = dnsPacket.decode(message);
  const asked = query.questions?.[0];
  const echoed = response.questions?.[0];
  const same =
    response.type === 'response' &&
    response.id === query.id &&
    (!echoed || (echoed.type === asked?.type && echoed.name.toLowerCase() === asked?.name.toLowerCase()));
  if (!same) throw new Error('The answer does not match the question');
  return response;
}

function askUdp(resolver: Resolver, query: Packet, ms: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(isIP(resolver.address) === 6 ? 'udp6' : 'udp4');
    const timer = setTimeout(() => done(new Error('no answer')), ms);
    let settled = false;
    const done = (error: Error | null, message?: Buffer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Settled first: closing a socket that failed to connect may throw, and must not leave the probe hanging.
      if (error) reject(error);
      else resolve(message!);
      socket.removeAllListeners('message');
      try {
        socket.close();
      } catch {
        // already closed
      }
    };
    socket.on('error', (error) => done(error));
    // A connected socket only hears its resolver, and learns of a closed port (ECONNREFUSED) at once.
    socket.on('message', (message) => {
      if (message.length >= 2 && message.readUInt16BE(0) === query.id) done(null, message);
    });
    socket.connect(resolver.port, resolver.address, () => socket.send(dnsPacket.encode(query)));
  });
}

function askTcp(resolver: Resolver, query: Packet, ms: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (ms <= 0) return reject(new Error('no time left'));
    const socket = netConnect({ host: resolver.address, port: resolver.port });
    let buffer = Buffer.alloc(0);
    const timer = setTimeout(() => done(new Error('no answer')), ms);
    let settled = false;
    const done = (error: Error | null, message?: Buffer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(message!);
    };
    socket.on('error', (error) => done(error));
    socket.on('close', () => done(new Error('closed before answering')));
    socket.on('connect', () => socket.write(dnsPacket.streamEncode(query)));
    // RFC 1035 4.2.2: a two-byte length, then the message.
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length >= 2 && buffer.length >= 2 + buffer.readUInt16BE(0)) {
        done(null, buffer.subarray(2, 2 + buffer.readUInt16BE(0)));
      }
    });
  });
}

/** The rcode's name (dns-packet decodes it; its types leave it out). */
function rcodeOf(response: DecodedPacket): string {
  return (response as DecodedPacket & { rcode?: string }).rcode ?? 'NOERROR';
}

/**
 * The answers of the asked type as text, sorted: A/AAAA the address, CNAME/NS the name, MX `10 mx.example.com`,
 * TXT the strings joined, SOA `mname rname serial refresh retry expire minimum`, CAA `0 issue "ca.example"`.
 */
export function formatAnswers(answers: Answer[], record: DnsRecordType): string[] {
  const texts: string[] = [];
  for (const answer of answers) {
    if (answer.type !== record) continue;
    switch (answer.type) {
      case 'A':
      case 'AAAA':
      case 'CNAME':
      case 'NS':
        texts.push(answer.data);
        break;
      case 'MX':
        texts.push(`${answer.data.preference ?? 0} ${answer.data.exchange}`);
        break;
      case 'TXT': {
        const parts = Array.isArray(answer.data) ? answer.data : [answer.data];
        texts.push(parts.map((part) => (typeof part === 'string' ? part : part.toString('utf8'))).join(''));
        break;
      }
      case 'SOA': {
        const soa = answer.data;
        texts.push(
          [soa.mname, soa.rname, soa.serial, soa.refresh, soa.retry, soa.expire, soa.minimum]
            .map((v) => v ?? 0)
            .join(' '),
        );
        break;
      }
      case 'CAA':
        texts.push(`${answer.data.flags ?? 0} ${answer.data.tag} "${answer.data.value}"`);
        break;
    }
  }
  return texts.sort();
}
