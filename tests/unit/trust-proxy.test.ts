import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';

const trust = (value: string) => loadConfig({ BEACON_TRUST_PROXY: value }).trustProxy;

describe('BEACON_TRUST_PROXY', () => {
  it('is off when unset, empty or 0', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(trust('')).toBe(false);
    expect(trust('0')).toBe(false);
  });

  it('takes a hop count (1 keeps meaning the nearest proxy)', () => {
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
  });

  it('takes a comma list of proxy addresses, CIDRs and proxy-addr ranges', () => {
    expect(trust('10.0.0.1, 10.1.0.0/16,::1,fd00::/8, loopback')).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses anything else, "trust every hop" included', () => {
    for (const value of ['true', 'yes', '10.0.0.1,proxy.local', '10.0.0.0/33', '10.0.0.1/8/1', '-1'])
      expect(() => trust(value), value).toThrow(/BEACON_TRUST_PROXY/);
  });
});
