import { describe, expect, it } from 'vitest';
import {
  DAILY_HEALTH_MAX_DAYS,
  SECONDS_PER_DAY,
  dailyHealthReportFrom,
  formatUptime,
  rollupDailyHealth,
  summariseCheckResults,
  utcDate,
  type DailyHealth,
} from '../../src/domain/health.js';

const DAY_MS = SECONDS_PER_DAY * 1000;
const day = (date: string, seconds: Partial<Omit<DailyHealth, 'date'>> = {}): DailyHealth => ({
  date,
  critical: 0,
  error: 0,
  warning: 0,
  maintenance: 0,
  ...seconds,
});

describe('dailyHealthReportFrom', () => {
  const now = Date.parse('2024-06-30T15:20:00.000Z');

  it('starts at the first of the last 90 UTC days for an older service', () => {
    const from = dailyHealthReportFrom(Date.parse('2023-01-01T00:00:00.000Z'), now);
    expect(new Date(from).toISOString()).toBe('2024-04-02T00:00:00.000Z');
    // The range, today included, is exactly the 90 days the server accepts.
    expect((Date.parse('2024-06-30T00:00:00.000Z') - from) / DAY_MS + 1).toBe(DAILY_HEALTH_MAX_DAYS);
  });

  it('starts at the creation of a younger service', () => {
    const created = Date.parse('2024-06-20T08:00:00.000Z');
    expect(dailyHealthReportFrom(created, now)).toBe(created);
  });

  it('is the same all day (one cache entry per day) and ignores an unreadable creation time', () => {
    const old = Date.parse('2020-01-01T00:00:00.000Z');
    expect(dailyHealthReportFrom(old, now)).toBe(dailyHealthReportFrom(old, Date.parse('2024-06-30T00:00:01.000Z')));
    expect(utcDate(dailyHealthReportFrom(Number.NaN, now))).toBe('2024-04-02');
  });
});

describe('formatUptime', () => {
  it('shows two decimals and a percent sign', () => {
    expect(formatUptime(99.95)).toBe('99.95%');
    expect(formatUptime(100)).toBe('100.00%');
    expect(formatUptime(87.5)).toBe('87.50%');
  });
});

describe('rollupDailyHealth', () => {
  it("gives each day's status and messages in report order, and the uptime", () => {
    const days = [
      day('2024-06-01'),
      day('2024-06-02', { critical: 7500, warning: 600 }),
      day('2024-06-03', { maintenance: 3600 }),
      day('2024-06-04', { error: 45 }),
    ];
    expect(rollupDailyHealth(days)).toEqual({
      uptime: 97.64,
      days: [
        { date: '2024-06-01', status: 'good', messages: [] },
        { date: '2024-06-02', status: 'critical', messages: ['2h 5m of critical', '10m of warning'] },
        { date: '2024-06-03', status: 'maintenance', messages: ['1h of maintenance'] },
        { date: '2024-06-04', status: 'error', messages: ['45s of error'] },
      ],
    });
  });

  it('weighs today by what has passed of it when now is given', () => {
    const days = [day('2024-06-01'), day('2024-06-02', { error: 3600 })];
    const now = Date.parse('2024-06-02T02:00:00.000Z');
    // One full day and two hours counted, one hour of them in error.
    expect(rollupDailyHealth(days, now).uptime).toBe(Math.round((100 - (100 * 3600) / (86_400 + 7200)) * 100) / 100);
  });

  it('has 100% and no days for an empty report', () => {
    expect(rollupDailyHealth([])).toEqual({ uptime: 100, days: [] });
  });
});

describe('summariseCheckResults', () => {
  it('counts results and failures and rounds the mean response time', () => {
    expect(
      summariseCheckResults([
        { time: 100, success: true },
        { time: 201, success: false },
        { time: 50, success: true },
      ]),
    ).toEqual({ count: 3, failures: 1, meanMs: 117 });
  });

  it('has no mean without results', () => {
    expect(summariseCheckResults([])).toEqual({ count: 0, failures: 0, meanMs: null });
  });
});
