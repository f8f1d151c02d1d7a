import { createSocket, type Socket } from 'node:dgram';
import dnsPacket, { type DecodedPacket } from 'dns-packet';

/**
 * A DNS server on a loopback UDP port answering TXT questions from `txt` (NXDOMAIN for a name it does not hold),
 * or SERVFAIL to everything while `failing`. Tests give `resolver` as BEACON_DNS_RESOLVERS.
 */
export class DnsStandIn {
  /** TXT records by lower-case name. */
  readonly txt = new Map<string, string[]>();
  /** Questions asked, `name TYPE`. */
  readonly questions: string[] = [];
  failing = false;
  resolver = '';
  private socket: Socket | null = null;

  async start(): Promise<string> {
    const socket = createSocket('udp4');
    socket.on('message', (message, peer) => {
      const query = dnsPacket.decode(message);
      const question = query.questions?.[0];
      this.questions.push(`${question?.name} ${question?.type}`);
      socket.send(this.answer(query), peer.port, peer.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    this.socket = socket;
    this.resolver = `127.0.0.1:${socket.address().port}`;
    return this.resolver;
  }

  private answer(query: DecodedPacket): Buffer {
    const question = query.questions?.[0];
    const name = question?.name.toLowerCase() ?? '';
    const base = { type: 'response' as const, id: query.id, questions: query.questions };
    if (this.failing) return dnsPacket.encode({ ...base, flags: 2 }); // SERVFAIL
    const records = this.txt.get(name);
    if (!records) return dnsPacket.encode({ ...base, flags: 3 }); // NXDOMAIN
    const answers = question?.type === 'TXT' ? records.map((data) => ({ type: 'TXT' as const, name, data })) : [];
    return dnsPacket.encode({ ...base, answers });
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.socket ? this.socket.close(() => resolve()) : resolve()));
  }
}
