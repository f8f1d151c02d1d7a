import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEALTHS, type Health } from '../../src/domain/catalogue.js';
import {
  checkStatusOf,
  consecutiveFailures,
  isCheckFailing,
  DAILY_HEALTH_MAX_DAYS,
  DAILY_STATES,
  SECONDS_PER_DAY,
  dailyHealth,
  dayMessages,
  formatDuration,
  statusOfDay,
  uptime,
  worstHealth,
  type DailyHealth,
  type HealthTransition,
} from '../../src/domain/health.js';

const DAY_MS = SECONDS_PER_DAY * 1000;
const at = (iso: string): number => Date.parse(iso);
const t = (iso: string, health: Health): HealthTransition => ({ at: at(iso), health });
const day = (date: string, seconds: Partial<Omit<DailyHealth, 'date'>> = {}): DailyHealth => ({
  date,
  critical: 0,
  error: 0,
  warning: 0,
  maintenance: 0,
  ...seconds,
});
const sumOf = (entry: DailyHealth): number => DAILY_STATES.reduce((sum, state) => sum + entry[state], 0);

describe('dailyHealth', () => {
  it('splits a spell crossing midnight between the two days (23:00 → 01:30)', () => {
    const days = dailyHealth([t('2024-03-01T23:00:00Z', 'critical'), t('2024-03-02T01:30:00Z', 'good')], {
      from: at('2024-03-01T00:00:00Z'),
      to: at('2024-03-02T23:59:59Z'),
    });
    expect(days).toEqual([day('2024-03-01', { critical: 3600 }), day('2024-03-02', { critical: 5400 })]);
  });

  it('integrates flapping: many short transitions, several in the same second', () => {
    const start = at('2024-03-01T23:30:00Z');
    const log: HealthTransition[] = [];
    // Warning for the first 30 s of every minute from 23:30 to 00:30.
    for (let s = 0; s < 3600; s += 30) log.push({ at: start + s * 1000, health: s % 60 === 0 ? 'warning' : 'good' });
    // Sub-second flapping at 00:45:00: the last change in the second wins (error for 10 s).
    const flap = at('2024-03-02T00:45:00Z');
    for (let ms = 0; ms < 900; ms += 100) log.push({ at: flap + ms, health: ms % 200 === 0 ? 'critical' : 'good' });
    log.push({ at: flap + 950, health: 'error' }, { at: flap + 10_000, health: 'good' });
    const days = dailyHealth(log, { from: at('2024-03-01T00:00:00Z'), to: at('2024-03-02T12:00:00Z') });
    expect(days).toEqual([day('2024-03-01', { warning: 900 }), day('2024-03-02', { warning: 900, error: 10 })]);
  });

  it('counts nothing before a service created mid-day when no initial health is given', () => {
    const created = at('2024-03-03T15:00:00Z');
    const log = [{ at: created, health: 'warning' as const }];
    const days = dailyHealth(log, { from: at('2024-03-01T00:00:00Z'), to: at('2024-03-04T06:00:00Z') });
    expect(days).toEqual([
      day('2024-03-01'),
      day('2024-03-02'),
      day('2024-03-03', { warning: 9 * 3600 }),
      day('2024-03-04', { warning: 6 * 3600 }),
    ]);
    // Starting from the creation instant gives the same creation day.
    expect(dailyHealth(log, { from: created, to: at('2024-03-03T23:00:00Z') })).toEqual([
      day('2024-03-03', { warning: 8 * 3600 }),
    ]);
  });

  it('uses `initial` before the first transition, counted only from `from`', () => {
    const days = dailyHealth([t('2024-03-01T18:00:00Z', 'good')], {
      from: at('2024-03-01T12:00:00Z'),
      to: at('2024-03-01T20:00:00Z'),
      initial: 'maintenance',
    });
    expect(days).toEqual([day('2024-03-01', { maintenance: 6 * 3600 })]);
  });

  it('carries the state in from the last transition before `from`', () => {
    const log = [t('2024-02-20T08:00:00Z', 'error'), t('2024-02-25T09:00:00Z', 'critical')];
    const days = dailyHealth(log, { from: at('2024-03-01T12:00:00Z'), to: at('2024-03-02T02:00:00Z') });
    expect(days).toEqual([day('2024-03-01', { critical: 12 * 3600 }), day('2024-03-02', { critical: 2 * 3600 })]);
    // A transition exactly at `from` is the state from `from` on; `initial` is ignored once a transition precedes.
    const exact = dailyHealth([t('2024-03-01T12:00:00Z', 'warning')], {
      from: at('2024-03-01T12:00:00Z'),
      to: at('2024-03-01T13:00:00Z'),
      initial: 'critical',
    });
    expect(exact).toEqual([day('2024-03-01', { warning: 3600 })]);
  });

  it("counts today's partial day only up to `to`, and nothing after it", () => {
    const now = at('2024-03-02T06:00:00Z');
    const log = [t('2024-03-01T20:00:00Z', 'error'), t('2024-03-02T07:00:00Z', 'good')];
    const days = dailyHealth(log, { from: at('2024-03-01T00:00:00Z'), to: now });
    expect(days).toEqual([day('2024-03-01', { error: 4 * 3600 }), day('2024-03-02', { error: 6 * 3600 })]);
    // Changes at or just after `to` count nothing, even one second before midnight.
    const late = at('2024-03-02T23:59:59Z');
    const edge = [t('2024-03-02T23:00:00Z', 'critical'), { at: late, health: 'good' as const }];
    edge.push({ at: late + 1000, health: 'warning' });
    expect(dailyHealth(edge, { from: at('2024-03-02T00:00:00Z'), to: late })).toEqual([
      day('2024-03-02', { critical: 3599 }),
    ]);
  });

  it('keeps the last 90 days, counting the first from its midnight with the state carried in', () => {
    const to = at('2024-06-30T10:00:00Z');
    const days = dailyHealth([t('2024-01-01T00:00:00Z', 'critical'), t('2024-04-05T00:00:00Z', 'good')], {
      from: at('2024-01-01T00:00:00Z'),
      to,
    });
    expect(days).toHaveLength(DAILY_HEALTH_MAX_DAYS);
    expect(days[0]).toEqual(day('2024-04-02', { critical: SECONDS_PER_DAY }));
    expect(days[2]).toEqual(day('2024-04-04', { critical: SECONDS_PER_DAY }));
    expect(days[3]).toEqual(day('2024-04-05'));
    expect(days.at(-1)?.date).toBe('2024-06-30');
    // Exactly 90 days in range: no cap.
    expect(dailyHealth([], { from: at('2024-04-02T10:00:00Z'), to })).toHaveLength(90);
  });

  it('handles empty and degenerate ranges and unsorted logs', () => {
    expect(dailyHealth([], { from: at('2024-03-02T00:00:00Z'), to: at('2024-03-01T00:00:00Z') })).toEqual([]);
    expect(dailyHealth([], { from: at('2024-03-01T05:00:00Z'), to: at('2024-03-01T05:00:00Z') })).toEqual([
      day('2024-03-01'),
    ]);
    const sorted = [t('2024-03-01T01:00:00Z', 'error'), t('2024-03-01T02:00:00Z', 'good')];
    const range = { from: at('2024-03-01T00:00:00Z'), to: at('2024-03-01T12:00:00Z') };
    expect(dailyHealth([...sorted].reverse(), range)).toEqual(dailyHealth(sorted, range));
    expect(() => dailyHealth([], { from: Number.NaN, to: 0 })).toThrow(RangeError);
  });
});

describe('uptime (docs/decisions.md#health-maths)', () => {
  it('is 100 - 100 * problem / (86400 * days), two decimals', () => {
    expect(uptime([day('2024-03-01', { error: 864 })])).toBe(99);
    expect(uptime([day('2024-03-01', { error: 864 }), day('2024-03-02')])).toBe(99.5);
    expect(uptime([day('2024-03-01', { critical: 100 })])).toBe(99.88);
    expect(uptime([day('2024-03-01', { warning: 1 })])).toBe(100);
    expect(uptime([day('2024-03-01', { critical: 43_200, error: 21_600, warning: 21_600 })])).toBe(0);
  });

  it('does not count maintenance, and is 100 with no days', () => {
    expect(uptime([day('2024-03-01', { maintenance: SECONDS_PER_DAY })])).toBe(100);
    expect(uptime([])).toBe(100);
  });

  it("weighs today's partial day by the seconds elapsed so far when given now", () => {
    const days = [day('2024-03-01'), day('2024-03-02', { error: 1800 })];
    // 86400 + 3600 seconds counted, 1800 of them error.
    expect(uptime(days, at('2024-03-02T01:00:00Z'))).toBe(98);
    // Without now every entry counts a full day.
    expect(uptime(days)).toBe(98.96);
    // An hour into today, an hour of critical is the whole of today.
    expect(uptime([day('2024-03-02', { critical: 3600 })], at('2024-03-02T01:00:00Z'))).toBe(0);
    // At midnight today weighs nothing yet; a day after now weighs nothing.
    expect(uptime([day('2024-03-02')], at('2024-03-02T00:00:00Z'))).toBe(100);
    expect(uptime([day('2024-03-01', { error: 864 }), day('2024-03-05')], at('2024-03-02T00:00:00Z'))).toBe(99);
  });
});

describe('statusOfDay, dayMessages and formatDuration (spec section 4)', () => {
  it('takes critical over error over warning over maintenance over good', () => {
    const all = { critical: 1, error: 1, warning: 1, maintenance: 1 };
    expect(statusOfDay(day('d', all))).toBe('critical');
    expect(statusOfDay(day('d', { ...all, critical: 0 }))).toBe('error');
    expect(statusOfDay(day('d', { warning: 5, maintenance: 9 }))).toBe('warning');
    expect(statusOfDay(day('d', { maintenance: 9 }))).toBe('maintenance');
    expect(statusOfDay(day('d'))).toBe('good');
  });

  it("says '{duration} of {state}' for each non-zero state in order", () => {
    expect(dayMessages(day('d', { maintenance: 45, critical: 7500, warning: 720 }))).toEqual([
      '2h 5m of critical',
      '12m of warning',
      '45s of maintenance',
    ]);
    expect(dayMessages(day('d'))).toEqual([]);
  });

  it.each([
    [0, '0s'],
    [45, '45s'],
    [60, '1m'],
    [720, '12m'],
    [750, '12m 30s'],
    [3600, '1h'],
    [7500, '2h 5m'],
    [7530, '2h 5m'],
    [SECONDS_PER_DAY, '1d'],
    [97_200, '1d 3h'],
    [3 * SECONDS_PER_DAY + 59, '3d'],
    [12.9, '12s'],
    [-5, '0s'],
    [Number.NaN, '0s'],
  ])('formats %d s as %s', (seconds, text) => expect(formatDuration(seconds)).toBe(text));
});

describe('consecutiveFailures and isCheckFailing (docs/decisions.md#health-maths)', () => {
  it('counts the failures since the newest success, and fails only past the allowed ones', () => {
    expect(consecutiveFailures([])).toBe(0);
    expect(consecutiveFailures([true, false, false])).toBe(0);
    expect(consecutiveFailures([false, false, true, false])).toBe(2);
    expect(consecutiveFailures([false, false, false])).toBe(3);
    expect(isCheckFailing(0, 0)).toBe(false);
    expect(isCheckFailing(1, 0)).toBe(true);
    expect(isCheckFailing(2, 2)).toBe(false);
    expect(isCheckFailing(3, 2)).toBe(true);
  });
});

describe('worstHealth', () => {
  it('orders good < maintenance < warning < error < critical', () => {
    expect(worstHealth()).toBe('good');
    expect(worstHealth('good', 'maintenance')).toBe('maintenance');
    expect(worstHealth('warning', 'maintenance')).toBe('warning');
    expect(worstHealth('warning', 'error', 'good')).toBe('error');
    expect(worstHealth('critical', 'error')).toBe('critical');
  });
  it('raises a service to a failing check importance only when worse', () => {
    expect(worstHealth('error', 'warning')).toBe('error');
    expect(worstHealth('maintenance', 'warning')).toBe('warning');
  });
});

// Property tests.

const healthArb = fc.constantFrom(...HEALTHS);
const utcDayOf = (ms: number): number => Math.floor(ms / DAY_MS);

/** A random log and range around `base`, spanning up to `maxDays` days. */
const scenario = (maxDays: number) =>
  fc
    .record({
      // fc.integer is 32-bit: epoch ms are built from a day (2000 to 2030) and a time of day.
      baseDay: fc.integer({ min: utcDayOf(at('2000-01-01T00:00:00Z')), max: utcDayOf(at('2030-01-01T00:00:00Z')) }),
      baseTime: fc.integer({ min: 0, max: DAY_MS - 1 }),
      fromOffset: fc.integer({ min: 0, max: DAY_MS }),
      lengthSeconds: fc.integer({ min: 0, max: maxDays * SECONDS_PER_DAY }),
      lengthMs: fc.integer({ min: 0, max: 999 }),
      initial: fc.option(healthArb, { nil: undefined }),
      offsets: fc.array(
        fc.record({
          // Whole seconds mostly, with some sub-second times to exercise flooring.
          second: fc.integer({ min: -SECONDS_PER_DAY, max: (maxDays + 2) * SECONDS_PER_DAY }),
          ms: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 999 })),
          health: healthArb,
        }),
        { maxLength: 60 },
      ),
      // Transitions at or next to the ends of the range, where off-by-one mistakes live.
      edges: fc.array(
        fc.record({
          end: fc.constantFrom('from' as const, 'to' as const),
          delta: fc.integer({ min: -2000, max: 2000 }),
          health: healthArb,
        }),
        { maxLength: 4 },
      ),
    })
    .map(({ baseDay, baseTime, fromOffset, lengthSeconds, lengthMs, initial, offsets, edges }) => {
      const base = baseDay * DAY_MS + baseTime;
      const from = base + fromOffset;
      const to = from + lengthSeconds * 1000 + lengthMs;
      const log = offsets.map((o) => ({ at: base + o.second * 1000 + o.ms, health: o.health }));
      for (const edge of edges) log.push({ at: (edge.end === 'from' ? from : to) + edge.delta, health: edge.health });
      return { from, to, initial, log };
    });

/**
 * Second by second: each second of the range takes the state of the last transition (in time order) whose
 * floored second is at or before it.
 */
function bruteForce(log: HealthTransition[], from: number, to: number, initial: Health | undefined) {
  const sorted = log
    .map((entry, index) => ({ ...entry, second: Math.floor(entry.at / 1000), index }))
    .sort((a, b) => a.at - b.at || a.index - b.index);
  const perDay = new Map<string, Record<string, number>>();
  let total = 0;
  let state = initial;
  let next = 0;
  for (let s = Math.floor(from / 1000); s < Math.floor(to / 1000); s++) {
    while (next < sorted.length && sorted[next]!.second <= s) state = sorted[next++]!.health;
    if (state === undefined || state === 'good') continue;
    const date = new Date(s * 1000).toISOString().slice(0, 10);
    const counts = perDay.get(date) ?? {};
    counts[state] = (counts[state] ?? 0) + 1;
    perDay.set(date, counts);
    total++;
  }
  return { perDay, total };
}

describe('dailyHealth properties', () => {
  it('gives non-negative integer seconds, at most a day (or the elapsed part), one entry per day up to 90', () => {
    fc.assert(
      fc.property(scenario(200), ({ log, from, to, initial }) => {
        const days = dailyHealth(log, { from, to, initial });
        const span = utcDayOf(to) - utcDayOf(from) + 1;
        expect(days).toHaveLength(Math.min(DAILY_HEALTH_MAX_DAYS, span));
        days.forEach((entry, index) => {
          for (const state of DAILY_STATES) {
            expect(Number.isInteger(entry[state])).toBe(true);
            expect(entry[state]).toBeGreaterThanOrEqual(0);
          }
          expect(sumOf(entry)).toBeLessThanOrEqual(SECONDS_PER_DAY);
          expect(entry.date).toBe(
            new Date((utcDayOf(to) - (days.length - 1 - index)) * DAY_MS).toISOString().slice(0, 10),
          );
        });
        const last = days.at(-1)!;
        const elapsedToday = Math.floor(to / 1000) - utcDayOf(to) * SECONDS_PER_DAY;
        expect(sumOf(last)).toBeLessThanOrEqual(elapsedToday);
        if (span <= DAILY_HEALTH_MAX_DAYS) {
          const first = days[0]!;
          const leftOfFirst = (utcDayOf(from) + 1) * SECONDS_PER_DAY - Math.floor(from / 1000);
          expect(sumOf(first)).toBeLessThanOrEqual(leftOfFirst);
        }
        for (const now of [undefined, to]) {
          const percent = uptime(days, now);
          expect(percent).toBeGreaterThanOrEqual(0);
          expect(percent).toBeLessThanOrEqual(100);
          expect(Math.round(percent * 100)).toBeCloseTo(percent * 100, 6);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('matches a second-by-second brute force over small ranges, day by day and in total', () => {
    fc.assert(
      fc.property(scenario(2), ({ log, from, to, initial }) => {
        const days = dailyHealth(log, { from, to, initial });
        const expected = bruteForce(log, from, to, initial);
        expect(days.reduce((sum, entry) => sum + sumOf(entry), 0)).toBe(expected.total);
        for (const entry of days) {
          const counts = expected.perDay.get(entry.date) ?? {};
          for (const state of DAILY_STATES) expect(entry[state]).toBe(counts[state] ?? 0);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('does not depend on the order the log arrives in', () => {
    fc.assert(
      fc.property(
        scenario(5).chain((s) =>
          fc.shuffledSubarray(s.log, { minLength: s.log.length }).map((shuffled) => ({ ...s, shuffled })),
        ),
        ({ log, shuffled, from, to, initial }) => {
          // Equal times keep log order, so compare against a log whose times are distinct.
          const distinct = new Set(log.map((entry) => entry.at)).size === log.length;
          fc.pre(distinct);
          expect(dailyHealth(shuffled, { from, to, initial })).toEqual(dailyHealth(log, { from, to, initial }));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keeps uptime within [0, 100] for any days', () => {
    const seconds = fc.integer({ min: 0, max: SECONDS_PER_DAY });
    const entry = fc
      .record({ critical: seconds, error: seconds, warning: seconds, maintenance: seconds })
      .map((s) => day('2024-03-01', s));
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 90 }), (days) => {
        const percent = uptime(days);
        expect(percent).toBeGreaterThanOrEqual(0);
        expect(percent).toBeLessThanOrEqual(100);
      }),
    );
  });
});

describe('checkStatusOf', () => {
  const check = { paused: false, disabled: false, allowed_failures: 1 };
  const ok = (start: string) => ({ start, success: true });
  const failed = (start: string, error?: string, status?: number) => ({ start, success: false, error, status });

  it('is down once more than the allowed failures ran in a row, with the newest failure as the last error', () => {
    const results = [ok('t1'), failed('t2', undefined, 503), failed('t3', 'Could not resolve example.com')];
    expect(checkStatusOf(check, results)).toEqual({
      state: 'down',
      lastError: { message: 'Could not resolve example.com', start: 't3' },
      uptime: 33.33,
    });
  });

  it('stays up within the allowed failures, and keeps why it last failed', () => {
    const status = checkStatusOf(check, [failed('t1', undefined, 503), ok('t2'), failed('t3', undefined, 500)]);
    expect(status.state).toBe('up');
    expect(status.lastError).toEqual({ message: 'HTTP 500', start: 't3' });
  });

  it('says paused or disabled whatever the results, and unknown without any', () => {
    expect(checkStatusOf({ ...check, paused: true }, [ok('t1')]).state).toBe('paused');
    expect(checkStatusOf({ ...check, disabled: true, paused: true }, []).state).toBe('disabled');
    expect(checkStatusOf(check, [])).toEqual({ state: 'unknown', lastError: null, uptime: null });
  });
});
