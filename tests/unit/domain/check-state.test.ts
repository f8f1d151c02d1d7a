import { describe, expect, it } from 'vitest';
import { endpointError, isDnsName, parseHostPort } from '../../../src/domain/check-targets.js';
import { afterRun, failingStateOf, type FailingState } from '../../../src/domain/health.js';
import { heartbeatVerdict, type HeartbeatState } from '../../../src/domain/heartbeat.js';

describe('a check’s failing state (docs/decisions.md#health-maths and #checks)', () => {
  const run = (outcomes: boolean[], allowed: number, recoverAfter: number) =>
    outcomes.reduce<FailingState>((state, ok) => afterRun(state, ok, allowed, recoverAfter), {
      consecutiveFailures: 0,
      recovering: 0,
      failing: false,
    });

  it('fails after more than allowed_failures failures in a row', () => {
    expect(run([false, false], 2, 1).failing).toBe(false);
    expect(run([false, false, false], 2, 1).failing).toBe(true);
    expect(run([false, false, true, false, false], 2, 1).failing).toBe(false);
  });

  it('recovers only after recover_after successes in a row', () => {
    expect(run([false, true], 0, 2).failing).toBe(true);
    expect(run([false, true, true], 0, 2).failing).toBe(false);
    expect(run([false, true, false, true], 0, 2).failing).toBe(true);
    expect(run([false, true, false, true, true], 0, 2).failing).toBe(false);
  });

  it('reads the same state from stored outcomes as the runs gave, for every sequence', () => {
    for (let n = 0; n < 1 << 8; n++) {
      const outcomes = Array.from({ length: 8 }, (_, i) => Boolean((n >> i) & 1));
      for (const [allowed, recoverAfter] of [
        [0, 1],
        [1, 1],
        [0, 3],
        [2, 2],
      ] as const) {
        // What a store knows: the failing flag before the newest run, and the latest `window` outcomes.
        const window = Math.max(allowed + 1, recoverAfter);
        const expected = run(outcomes, allowed, recoverAfter).failing;
        const stored = [...outcomes.slice(-window)].reverse();
        const beforeLast = run(outcomes.slice(0, -1), allowed, recoverAfter).failing;
        expect(
          failingStateOf(stored, beforeLast, allowed, recoverAfter).failing,
          `${outcomes} ${allowed}/${recoverAfter}`,
        ).toBe(expected);
      }
    }
  });
});

describe('targets per kind (docs/decisions.md#checks)', () => {
  it('reads host:port with names, IPv4 and bracketed IPv6', () => {
    expect(parseHostPort('db.example.com:5432')).toEqual({ host: 'db.example.com', port: 5432 });
    expect(parseHostPort('[2001:db8::1]:443')).toEqual({ host: '2001:db8::1', port: 443 });
    expect(parseHostPort('10.0.0.1:22')).toEqual({ host: '10.0.0.1', port: 22 });
    for (const bad of ['example.com', 'example.com:0', 'example.com:70000', '2001:db8::1:443', 'a b:1', 'http://x:1'])
      expect(parseHostPort(bad), bad).toBeNull();
  });

  it('says why an endpoint is not one of its kind', () => {
    expect(endpointError('http', 'https://example.com/health')).toBeNull();
    expect(endpointError('http', 'ftp://example.com')).toMatch(/http/);
    expect(endpointError('tls', 'mail.example.com:465')).toBeNull();
    expect(endpointError('tcp', 'mail.example.com')).toMatch(/host:port/);
    expect(endpointError('dns', 'example.com')).toBeNull();
    expect(endpointError('domain', 'localhost')).toMatch(/domain name/);
    expect(endpointError('heartbeat', '')).toBeNull();
    expect(endpointError('heartbeat', 'https://x.test')).toMatch(/pings/);
    expect(isDnsName(`${'a'.repeat(64)}.com`)).toBe(false);
  });
});

describe('heartbeats', () => {
  const minute = 60_000;
  const base: HeartbeatState = {
    periodSeconds: 300,
    graceSeconds: 60,
    schedule: null,
    timeZone: null,
    lastPingAt: null,
    lastPingKind: null,
    since: Date.UTC(2026, 0, 1, 0, 0),
  };

  it('is late after the period plus grace without a success ping, counted from the last one', () => {
    expect(heartbeatVerdict(base, base.since + 6 * minute).state).toBe('up');
    const late = heartbeatVerdict(base, base.since + 6 * minute + 1000);
    expect(late).toMatchObject({
      state: 'late',
      message: expect.stringMatching(/expected every 5 min plus 1 min grace/),
    });
    const pinged = { ...base, lastPingAt: base.since + 5 * minute, lastPingKind: 'success' as const };
    expect(heartbeatVerdict(pinged, base.since + 10 * minute).state).toBe('up');
    expect(heartbeatVerdict(pinged, base.since + 12 * minute).state).toBe('late');
  });

  it('fails on a fail ping until the next success', () => {
    expect(heartbeatVerdict({ ...base, lastPingAt: base.since, lastPingKind: 'fail' }, base.since).state).toBe(
      'failed',
    );
  });

  it('follows a cron schedule in its time zone: late once the due time plus grace passed without a ping', () => {
    // Every day at 02:00 in Berlin (01:00 UTC in winter).
    const nightly = {
      ...base,
      schedule: '0 2 * * *',
      timeZone: 'Europe/Berlin',
      graceSeconds: 600,
      since: Date.UTC(2026, 0, 1, 12, 0),
    };
    const due = Date.UTC(2026, 0, 2, 1, 0);
    expect(heartbeatVerdict(nightly, due + 5 * minute).state).toBe('up');
    expect(heartbeatVerdict(nightly, due + 11 * minute)).toMatchObject({ state: 'late', dueAt: due + 10 * minute });
    const ran = { ...nightly, lastPingAt: due + 2 * minute, lastPingKind: 'success' as const };
    expect(heartbeatVerdict(ran, due + 11 * minute).state).toBe('up');
    expect(heartbeatVerdict(ran, due + 24 * 60 * minute + 11 * minute).state).toBe('late');
  });
});
