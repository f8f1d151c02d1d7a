import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  actualText,
  aggregatesSummaryText,
  bucketFailureText,
  certDaysLeftText,
  expiryUnknownText,
  chartRange,
  CHART_RANGES,
  CHECK_KIND_LABELS,
  CHECK_STATE_LABELS,
  checkCardStatus,
  ERROR_CLASS_LABELS,
  failureRunText,
  failureText,
  formatUptimeShare,
  heartbeatText,
  latestResultOf,
  recoveryText,
  resultErrorOf,
  secondsText,
  pointsSince,
  resultsSince,
  summariseAggregates,
  summariseResponseTimes,
  uptimeOverWindows,
} from '../../../src/domain/check-card.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 24, 12, 30);
const iso = (ms: number) => new Date(ms).toISOString();

const check = { paused: false, disabled: false, allowed_failures: 1 };
const ok = (start: string) => ({ start, success: true });
const failed = (start: string, error?: string, status?: number) => ({ start, success: false, error, status });

describe('checkCardStatus', () => {
  it('is down past the allowed failures, with the newest error, when it happened and the run of failures', () => {
    const status = checkCardStatus(check, [
      ok('t1'),
      failed('t2', 'HTTP status 500', 500),
      failed('t3', 'Could not resolve example.com'),
    ]);
    expect(status).toMatchObject({
      state: 'down',
      lastError: { message: 'Could not resolve example.com', start: 't3' },
      failuresInARow: 2,
      allowedFailures: 1,
    });
    expect(CHECK_STATE_LABELS[status.state]).toBe('Down');
    expect(failureRunText(status)).toBe('2 failures in a row, 1 allowed');
  });

  it('stays up while the newest failures are within the allowance, and says so', () => {
    const status = checkCardStatus(check, [ok('t1'), failed('t2', 'HTTP status 503', 503)]);
    expect(status.state).toBe('up');
    expect(status.lastError).toEqual({ message: 'HTTP status 503', start: 't2' });
    expect(failureRunText(status)).toBe('1 failure in a row, 1 allowed');
  });

  it('is down on the first failure when none is allowed', () => {
    const status = checkCardStatus({ ...check, allowed_failures: 0 }, [ok('t1'), failed('t2', undefined, 502)]);
    expect(status.state).toBe('down');
    expect(status.lastError?.message).toBe('HTTP 502');
  });

  it('keeps the last error after a recovery but reports no run of failures', () => {
    const status = checkCardStatus(check, [failed('t1', 'Timed out'), failed('t2', 'Timed out'), ok('t3')]);
    expect(status.state).toBe('up');
    expect(status.failuresInARow).toBe(0);
    expect(status.lastError?.start).toBe('t2');
    expect(failureRunText(status)).toBeNull();
  });

  it('says paused or disabled whatever the results, without judging the failures', () => {
    const failing = [failed('t1', 'x'), failed('t2', 'x')];
    expect(checkCardStatus({ ...check, paused: true }, failing).state).toBe('paused');
    expect(checkCardStatus({ ...check, paused: true, disabled: true }, failing).state).toBe('disabled');
    expect(failureRunText(checkCardStatus({ ...check, paused: true }, failing))).toBeNull();
    expect(checkCardStatus(check, [])).toMatchObject({ state: 'unknown', lastError: null, failuresInARow: 0 });
  });

  it('is down exactly when more than the allowed failures ran in a row (any outcomes)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 30 }), fc.integer({ min: 0, max: 5 }), (outcomes, allowed) => {
        const results = outcomes.map((success, i) => ({ start: `t${i}`, success }));
        const status = checkCardStatus({ ...check, allowed_failures: allowed }, results);
        let run = 0;
        for (let i = outcomes.length - 1; i >= 0 && !outcomes[i]; i--) run++;
        expect(status.failuresInARow).toBe(run);
        expect(status.state).toBe(outcomes.length === 0 ? 'unknown' : run > allowed ? 'down' : 'up');
      }),
    );
  });
});

describe('formatUptimeShare', () => {
  it('shows percent with two decimals and a dash without data', () => {
    expect(formatUptimeShare(0.9995)).toBe('99.95 %');
    expect(formatUptimeShare(1)).toBe('100.00 %');
    expect(formatUptimeShare(0)).toBe('0.00 %');
    expect(formatUptimeShare(0.29)).toBe('29.00 %');
    expect(formatUptimeShare(null)).toBe('—');
    expect(formatUptimeShare(Number.NaN)).toBe('—');
  });

  it('rounds down, so a single failure never reads 100 %', () => {
    expect(formatUptimeShare(99_999 / 100_000)).toBe('99.99 %');
    expect(formatUptimeShare(2 / 3)).toBe('66.66 %');
  });
});

describe('uptime windows', () => {
  // One hour bucket per hour for the last 30 days; the last 12 hours had failures.
  const points = Array.from({ length: 30 * 24 }, (_, i) => {
    const start = Math.floor(NOW / HOUR) * HOUR - i * HOUR;
    return { time: iso(start), probes: 100, failures: i < 12 ? 10 : 0, p50: 20, p95: 40, max: 60 };
  }).reverse();

  it('reads 24 h, 7 d and 30 d from one report of hour buckets', () => {
    const windows = uptimeOverWindows(points, 'hour', NOW);
    expect(windows.map((window) => window.label)).toEqual(['24 h', '7 d', '30 d']);
    // 24 h at hour buckets: 25 buckets overlap the window (the one 24 h ago counts whole).
    expect(windows[0]!.share).toBeCloseTo(1 - 120 / 2500, 10);
    expect(windows[1]!.share).toBeCloseTo(1 - 120 / (7 * 24 * 100 + 100), 10);
    expect(windows[2]!.share).toBeCloseTo(1 - 120 / (30 * 24 * 100), 10);
  });

  it('gives null (shown as a dash) when nothing was probed in a window', () => {
    const old = [{ time: iso(NOW - 10 * DAY), probes: 5, failures: 1, p50: 1, p95: 1, max: 1 }];
    const [day, week, month] = uptimeOverWindows(old, 'hour', NOW);
    expect(day!.share).toBeNull();
    expect(week!.share).toBeNull();
    expect(month!.share).toBeCloseTo(0.8, 10);
    expect(uptimeOverWindows([], 'hour', NOW).map((window) => formatUptimeShare(window.share))).toEqual([
      '—',
      '—',
      '—',
    ]);
  });

  it('keeps a bucket that overlaps the start of the range and drops one that ended before it', () => {
    const from = NOW - HOUR;
    const inside = { time: iso(Math.floor(from / HOUR) * HOUR) };
    const before = { time: iso(Math.floor(from / HOUR) * HOUR - HOUR) };
    expect(pointsSince([before, inside], from, 'hour')).toEqual([inside]);
  });
});

describe('chart ranges', () => {
  it('reads raw results for 1 h and 24 h, aggregates for 7 d and 30 d', () => {
    expect(CHART_RANGES.map((range) => [range.label, range.source])).toEqual([
      ['1 h', 'results'],
      ['24 h', 'results'],
      ['7 d', 'aggregates'],
      ['30 d', 'aggregates'],
    ]);
    expect(chartRange('7d').ms).toBe(7 * DAY);
  });

  it('cuts results to those started in the range', () => {
    const results = [ok(iso(NOW - 2 * HOUR)), ok(iso(NOW - HOUR)), failed(iso(NOW - 60_000))];
    expect(resultsSince(results, NOW - HOUR)).toEqual(results.slice(1));
  });
});

describe('summariseResponseTimes', () => {
  it('counts every result but takes the mean response time over the successful ones only', () => {
    const results = [
      { time: 20, success: true },
      { time: 40, success: true },
      { time: 15_000, success: false },
    ];
    expect(summariseResponseTimes(results)).toEqual({ count: 3, failures: 1, meanMs: 30 });
    expect(summariseResponseTimes([{ time: 900, success: false }])).toEqual({ count: 1, failures: 1, meanMs: null });
    expect(summariseResponseTimes([])).toEqual({ count: 0, failures: 0, meanMs: null });
  });
});

describe('aggregates summary', () => {
  const points = [
    { probes: 240, failures: 0, p95: 40 },
    { probes: 240, failures: 2, p95: 120 },
    { probes: 10, failures: 10, p95: null },
  ];

  it('adds probes and failures, counts failed buckets and keeps the worst p95', () => {
    expect(summariseAggregates(points)).toEqual({ probes: 490, failures: 12, failedBuckets: 2, worstP95: 120 });
    expect(summariseAggregates([])).toEqual({ probes: 0, failures: 0, failedBuckets: 0, worstP95: null });
  });

  it('says it in one sentence', () => {
    expect(aggregatesSummaryText('Last 7 days', summariseAggregates(points), 'hour')).toBe(
      'Last 7 days: 490 probes, 12 failed in 2 hours, highest p95 120 ms',
    );
    expect(
      aggregatesSummaryText('Last 30 days', { probes: 1, failures: 0, failedBuckets: 0, worstP95: null }, 'day'),
    ).toBe('Last 30 days: 1 probe, 0 failed');
    expect(bucketFailureText({ probes: 240, failures: 2 })).toBe('2 of 240 probes failed');
  });
});

describe('results with error classes and assertions (docs/decisions.md#checks)', () => {
  const assertion = (source: string, expected: string, actual: string | null, pass: boolean) => ({
    source,
    op: '==' as const,
    expected,
    actual,
    pass,
    severity: 'error' as const,
  });
  const failedRun = {
    start: 't2',
    success: false,
    time: 12,
    status: 200,
    latency_ms: 12,
    error: { class: 'assertion' as const, message: 'status == 201: got 200' },
    assertions: [
      assertion('status', '201', '200', false),
      assertion('header:x-version', '2', null, false),
      assertion('latency_ms', '800', '12', true),
    ],
    cert: { days_left: 10, not_after: '2026-12-04T00:00:00.000Z', subject: 'CN=demo', issuer: 'CN=demo' },
    severity: 'error' as const,
  };

  it("reads an error object's message, and an old string error (cached offline) as it is", () => {
    expect(resultErrorOf(failedRun)).toEqual({ class: 'assertion', message: 'status == 201: got 200' });
    expect(resultErrorOf({ error: 'HTTP status 500' })).toEqual({ class: null, message: 'HTTP status 500' });
    expect(resultErrorOf({})).toBeNull();
    expect(failureText(failedRun)).toBe('status == 201: got 200');
    expect(failureText({ status: 503 })).toBe('HTTP 503');
    expect(failureText({})).toBe('Failed');
  });

  it("keeps the newest failure's message and class for the card", () => {
    const status = checkCardStatus(check, [ok('t1'), failedRun]);
    expect(status.lastError).toEqual({ message: 'status == 201: got 200', start: 't2' });
    expect(status.lastErrorClass).toBe('assertion');
    expect(ERROR_CLASS_LABELS[status.lastErrorClass!]).toBe('Assertion');
    expect(checkCardStatus(check, [failed('t1', 'old words')]).lastErrorClass).toBeNull();
  });

  it('takes the newest result: latency, error, the failing assertions only, the certificate days left', () => {
    const latest = latestResultOf([ok('t1'), failedRun])!;
    expect(latest).toMatchObject({
      start: 't2',
      success: false,
      status: 200,
      latencyMs: 12,
      error: { class: 'assertion', message: 'status == 201: got 200' },
      certDaysLeft: 10,
      severity: 'error',
    });
    expect(latest.failing.map((failing) => [failing.source, failing.expected, actualText(failing.actual)])).toEqual([
      ['status', '201', '200'],
      ['header:x-version', '2', 'missing'],
    ]);
    expect(latestResultOf([])).toBeNull();
    // A result of the spec's shape only: its duration stands for the latency, nothing else is made up.
    expect(latestResultOf([{ start: 't1', success: true, time: 40 }])).toMatchObject({
      latencyMs: 40,
      error: null,
      failing: [],
      certDaysLeft: null,
      status: null,
    });
  });

  it('says a domain expiry it could not know (a TLD without RDAP) as unknown, with why', () => {
    const unknown = {
      start: 't1',
      success: true,
      assertions: [
        {
          source: 'domain.days_left',
          op: '>=' as const,
          expected: '30 (not judged: .de has no RDAP service)',
          actual: 'unknown',
          pass: true,
          severity: 'error' as const,
        },
      ],
    };
    const latest = latestResultOf([unknown])!;
    expect(latest.expiryUnknown).toBe('.de has no RDAP service');
    expect(expiryUnknownText(latest.expiryUnknown!)).toBe('Domain expiry: unknown (.de has no RDAP service)');
    // A known expiry, and a value that merely reads "unknown" but was judged, say nothing of it.
    const known = { ...unknown.assertions[0]!, expected: '30', actual: '120' };
    expect(latestResultOf([{ ...unknown, assertions: [known] }])!.expiryUnknown).toBeNull();
    const judged = { ...unknown.assertions[0]!, source: 'body', op: '==' as const, expected: 'unknown' };
    expect(latestResultOf([{ ...unknown, assertions: [judged] }])!.expiryUnknown).toBeNull();
    expect(latestResultOf([failedRun])!.expiryUnknown).toBeNull();
  });

  it('says the days a certificate has left', () => {
    expect(certDaysLeftText(10)).toBe('Certificate: 10 days left');
    expect(certDaysLeftText(1)).toBe('Certificate: 1 day left');
    expect(certDaysLeftText(0)).toBe('Certificate: expires today');
    expect(certDaysLeftText(-3)).toBe('Certificate: expired 3 days ago');
  });

  it('needs recover_after successes in a row before a failing check is up again', () => {
    const failing = { ...check, allowed_failures: 0, recover_after: 3 };
    const down = checkCardStatus(failing, [failed('t1', 'x'), ok('t2'), ok('t3')]);
    expect(down).toMatchObject({ state: 'down', failuresInARow: 0, recovering: 2, recoverAfter: 3 });
    expect(recoveryText(down)).toBe('2 of 3 successes to recover');
    const up = checkCardStatus(failing, [failed('t1', 'x'), ok('t2'), ok('t3'), ok('t4')]);
    expect(up.state).toBe('up');
    expect(recoveryText(up)).toBeNull();
    // Never failing (within the allowance), a success is simply up.
    expect(checkCardStatus({ ...failing, allowed_failures: 1 }, [failed('t1', 'x'), ok('t2')]).state).toBe('up');
  });

  it("names the kinds and a heartbeat's rhythm", () => {
    expect(Object.values(CHECK_KIND_LABELS)).toEqual(['HTTP', 'TCP', 'TLS', 'DNS', 'Domain expiry', 'Heartbeat']);
    expect(heartbeatText({ frequency: 300, grace: 60, schedule: null, time_zone: null })).toBe(
      'Every 5 min, 1 min grace',
    );
    expect(heartbeatText({ frequency: 60, grace: 30, schedule: '0 3 * * *', time_zone: 'Europe/Berlin' })).toBe(
      'On 0 3 * * * (Europe/Berlin), 30 s grace',
    );
    expect(heartbeatText({ frequency: 60, grace: null, schedule: '0 3 * * *', time_zone: null })).toBe(
      'On 0 3 * * * (UTC), 0 s grace',
    );
    expect([45, 90, 3600, 5400, 86_400 + 7200].map(secondsText)).toEqual([
      '45 s',
      '1 min 30 s',
      '1 h',
      '1 h 30 min',
      '1 d 2 h',
    ]);
  });
});
