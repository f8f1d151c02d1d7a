import { describe, expect, it } from 'vitest';
import {
  forbiddenKind,
  isForbiddenAddress,
  refusalMessage,
  type ForbiddenKind,
} from '../../../src/runner/address-policy.js';

const table = (rows: [string, ForbiddenKind][]) => rows.map(([ip, kind]) => ({ ip, kind }));

describe('isForbiddenAddress: IPv4', () => {
  it.each(
    table([
      ['0.0.0.0', 'unspecified'],
      ['0.255.255.255', 'unspecified'],
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['10.0.0.0', 'private'],
      ['10.0.0.1', 'private'],
      ['10.255.255.255', 'private'],
      ['172.16.0.0', 'private'],
      ['172.20.1.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.0.1', 'private'],
      ['192.168.255.255', 'private'],
      ['100.64.0.0', 'shared'],
      ['100.127.255.255', 'shared'],
      ['169.254.0.1', 'link-local'],
      ['169.254.255.255', 'link-local'],
      ['169.254.169.254', 'metadata'],
      ['169.254.170.2', 'metadata'],
      ['168.63.129.16', 'metadata'],
      ['100.100.100.200', 'metadata'],
      ['192.0.0.192', 'metadata'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['240.0.0.1', 'reserved'],
      ['192.0.0.8', 'reserved'],
      ['198.18.0.1', 'reserved'],
      ['198.19.255.255', 'reserved'],
      ['192.0.2.1', 'documentation'],
      ['198.51.100.7', 'documentation'],
      ['203.0.113.9', 'documentation'],
    ]),
  )('refuses $ip as $kind', ({ ip, kind }) => {
    expect(forbiddenKind(ip)).toBe(kind);
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '9.255.255.255', // just below 10/8
    '11.0.0.0', // just above 10/8
    '100.63.255.255', // just below 100.64/10
    '100.128.0.0', // just above 100.64/10
    '126.255.255.255',
    '128.0.0.1',
    '169.253.255.255',
    '169.255.0.1',
    '172.15.255.255', // just below 172.16/12
    '172.32.0.0', // just above 172.16/12
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255', // just below multicast
    '93.184.215.14',
  ])('allows %s', (ip) => {
    expect(forbiddenKind(ip)).toBeNull();
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe('isForbiddenAddress: IPv6', () => {
  it.each(
    table([
      ['::', 'unspecified'],
      ['0:0:0:0:0:0:0:0', 'unspecified'],
      ['::1', 'loopback'],
      ['0:0:0:0:0:0:0:1', 'loopback'],
      ['fc00::1', 'private'],
      ['fd12:3456:789a::1', 'private'],
      ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'private'],
      ['fec0::1', 'private'],
      ['fe80::1', 'link-local'],
      ['FE80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['febf:ffff::1', 'link-local'],
      ['fd00:ec2::254', 'metadata'],
      ['ff02::1', 'multicast'],
      ['ff05::1:3', 'multicast'],
      ['2001:db8::1', 'documentation'],
      ['3fff::1', 'documentation'],
      ['2001::1', 'reserved'], // Teredo
      ['2001:2::1', 'reserved'], // benchmarking
      ['100::1', 'reserved'], // discard, outside 2000::/3
      ['64:ff9b:1::1', 'reserved'], // local-use NAT64, outside 2000::/3
      ['::127.0.0.1', 'reserved'], // deprecated IPv4-compatible
      ['::8.8.8.8', 'reserved'],
      ['4000::1', 'reserved'],
    ]),
  )('refuses $ip as $kind', ({ ip, kind }) => expect(forbiddenKind(ip)).toBe(kind));

  it.each(['2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001::200e', '2001:200::1', '3ffe::1'])(
    'allows %s',
    (ip) => expect(isForbiddenAddress(ip)).toBe(false),
  );
});

describe('isForbiddenAddress: IPv6 carrying an IPv4 address is judged by the IPv4 inside', () => {
  it.each(
    table([
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::FFFF:7F00:0001', 'loopback'],
      ['0:0:0:0:0:ffff:127.0.0.1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['::ffff:a00:1', 'private'],
      ['::ffff:192.168.1.1', 'private'],
      ['::ffff:172.16.0.1', 'private'],
      ['::ffff:169.254.169.254', 'metadata'],
      ['::ffff:a9fe:a9fe', 'metadata'],
      ['::ffff:169.254.1.1', 'link-local'],
      ['::ffff:100.64.0.1', 'shared'],
      ['::ffff:0.0.0.0', 'unspecified'],
      ['::ffff:224.0.0.1', 'multicast'],
      ['::ffff:0:10.0.0.1', 'private'], // SIIT IPv4-translated
      ['64:ff9b::127.0.0.1', 'loopback'], // NAT64
      ['64:ff9b::a00:1', 'private'],
      ['64:ff9b::169.254.169.254', 'metadata'],
      ['2002:7f00:1::1', 'loopback'], // 6to4 of 127.0.0.1
      ['2002:c0a8:101::', 'private'], // 6to4 of 192.168.1.1
    ]),
  )('refuses $ip as $kind', ({ ip, kind }) => expect(forbiddenKind(ip)).toBe(kind));

  it.each(['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::8.8.8.8', '64:ff9b::101:101', '2002:808:808::1'])(
    'allows %s (a public IPv4 inside)',
    (ip) => expect(isForbiddenAddress(ip)).toBe(false),
  );
});

describe('isForbiddenAddress: not an address', () => {
  it.each([
    '',
    'localhost',
    'example.com',
    '127.1',
    '0x7f.0.0.1',
    '2130706433',
    '010.0.0.1',
    '256.0.0.1',
    '1.2.3',
    ':::',
  ])('refuses %j (fails closed)', (value) => expect(forbiddenKind(value)).toBe('invalid'));
});

describe('refusalMessage', () => {
  it('names the address and why', () => {
    expect(refusalMessage('10.0.0.1', 'private')).toBe('Refused: 10.0.0.1 is a private address');
    expect(refusalMessage('127.0.0.1', 'loopback')).toBe('Refused: 127.0.0.1 is a loopback address');
    expect(refusalMessage('169.254.169.254', 'metadata')).toBe('Refused: 169.254.169.254 is a cloud metadata address');
  });

  it('names a host name, never the address it resolved to', () => {
    expect(refusalMessage('metadata.internal', 'metadata')).toBe('Refused: metadata.internal is not an allowed host');
  });
});
