import { BlockList, isIP, isIPv4, isIPv6 } from 'node:net';

/**
 * Which addresses the shared runner may not connect to (the SSRF guard, docs/decisions.md#address-guard). Pure: judges
 * an IP address string, never resolves a name. Anything that is not a valid IP address is refused (fail closed).
 */

/** Why an address is refused; null from {@link forbiddenKind} means it may be probed. */
export type ForbiddenKind =
  | 'invalid'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'metadata'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'reserved';

type Rules = { ipv4?: string[]; ipv6?: string[] };

/**
 * Checked in this order, so the more specific reason wins (169.254.169.254 is reported as metadata, not
 * link-local). IPv6 addresses that carry an IPv4 address (mapped, NAT64, 6to4, SIIT) are judged by that IPv4
 * address before these rules apply; IPv6 outside global unicast 2000::/3 is refused as reserved afterwards.
 */
const RULES: [ForbiddenKind, Rules][] = [
  [
    'metadata',
    {
      // AWS/GCP/Azure/OpenStack instance metadata, AWS ECS task metadata, Azure wire server, Alibaba, Oracle.
      ipv4: ['169.254.169.254/32', '169.254.170.2/32', '168.63.129.16/32', '100.100.100.200/32', '192.0.0.192/32'],
      ipv6: ['fd00:ec2::254/128'],
    },
  ],
  ['broadcast', { ipv4: ['255.255.255.255/32'] }],
  ['unspecified', { ipv4: ['0.0.0.0/8'], ipv6: ['::/128'] }],
  ['loopback', { ipv4: ['127.0.0.0/8'], ipv6: ['::1/128'] }],
  ['private', { ipv4: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'], ipv6: ['fc00::/7', 'fec0::/10'] }],
  ['shared', { ipv4: ['100.64.0.0/10'] }],
  ['link-local', { ipv4: ['169.254.0.0/16'], ipv6: ['fe80::/10'] }],
  ['multicast', { ipv4: ['224.0.0.0/4'], ipv6: ['ff00::/8'] }],
  [
    'documentation',
    { ipv4: ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'], ipv6: ['2001:db8::/32', '3fff::/20'] },
  ],
  [
    'reserved',
    {
      // IETF protocol assignments, 6to4 relay anycast, benchmarking, class E; IPv6 IETF protocol assignments
      // (Teredo, benchmarking, ORCHID) and the deprecated IPv4-compatible block.
      ipv4: ['192.0.0.0/24', '192.88.99.0/24', '198.18.0.0/15', '240.0.0.0/4'],
      ipv6: ['2001::/23', '::/96'],
    },
  ],
];

const LISTS: [ForbiddenKind, BlockList][] = RULES.map(([kind, rules]) => {
  const list = new BlockList();
  for (const cidr of rules.ipv4 ?? []) addSubnet(list, cidr, 'ipv4');
  for (const cidr of rules.ipv6 ?? []) addSubnet(list, cidr, 'ipv6');
  return [kind, list];
});

function addSubnet(list: BlockList, cidr: string, family: 'ipv4' | 'ipv6'): void {
  const [network = '', prefix = ''] = cidr.split('/');
  list.addSubnet(network, Number(prefix), family);
}

const GLOBAL_UNICAST_V6 = new BlockList();
GLOBAL_UNICAST_V6.addSubnet('2000::', 3, 'ipv6');

/** Why `ip` may not be probed, or null when it may. */
export function forbiddenKind(ip: string): ForbiddenKind | null {
  // Scoped IPv6 addresses (fe80::1%eth0) are judged without their zone.
  const address = ip.includes('%') ? ip.slice(0, ip.indexOf('%')) : ip;
  if (isIPv4(address)) return ruleKind(address, 'ipv4');
  if (!isIPv6(address)) return 'invalid';
  const words = parseIPv6(address);
  const embedded = embeddedIPv4(words);
  if (embedded) return ruleKind(embedded, 'ipv4');
  const normal = words.map((word) => word.toString(16)).join(':');
  return ruleKind(normal, 'ipv6') ?? (GLOBAL_UNICAST_V6.check(normal, 'ipv6') ? null : 'reserved');
}

/** True when the runner must not connect to `ip` (unless the operator allows private targets). */
export function isForbiddenAddress(ip: string): boolean {
  return forbiddenKind(ip) !== null;
}

const DESCRIPTIONS: Record<ForbiddenKind, string> = {
  invalid: 'not a valid IP address',
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private address',
  shared: 'a shared (carrier-grade NAT) address',
  'link-local': 'a link-local address',
  metadata: 'a cloud metadata address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  documentation: 'a documentation address',
  reserved: 'a reserved address',
};

/**
 * The refusal message the check's editor sees. An address written in the check is named with its kind
 * ('Refused: 10.0.0.1 is a private address'); a host name is only said to be refused, never what it resolved to
 * (that would map the network the runner sits in).
 */
export function refusalMessage(host: string, kind: ForbiddenKind): string {
  return isIP(host) ? `Refused: ${host} is ${DESCRIPTIONS[kind]}` : `Refused: ${host} is not an allowed host`;
}

function ruleKind(address: string, family: 'ipv4' | 'ipv6'): ForbiddenKind | null {
  for (const [kind, list] of LISTS) if (list.check(address, family)) return kind;
  return null;
}

/** The eight 16-bit words of a valid IPv6 address (checked by isIPv6 first). */
function parseIPv6(address: string): number[] {
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const fill: string[] = rest === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((word) => parseInt(word, 16));
}

/** The IPv4 address carried by an IPv4-mapped, SIIT, NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address. */
function embeddedIPv4(words: number[]): string | null {
  const w = (i: number): number => words[i] ?? 0;
  const zeros = (from: number, to: number): boolean => words.slice(from, to).every((word) => word === 0);
  const ipv4 = (high: number, low: number): string => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  if (zeros(0, 5) && w(5) === 0xffff) return ipv4(w(6), w(7)); // ::ffff:a.b.c.d
  if (zeros(0, 4) && w(4) === 0xffff && w(5) === 0) return ipv4(w(6), w(7)); // ::ffff:0:a.b.c.d
  if (w(0) === 0x64 && w(1) === 0xff9b && zeros(2, 6)) return ipv4(w(6), w(7)); // 64:ff9b::a.b.c.d
  if (w(0) === 0x2002) return ipv4(w(1), w(2)); // 2002:aabb:ccdd::/48
  return null;
}
