import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEALTHS } from '../../../src/domain/catalogue.js';
import type { HealthTransition } from '../../../src/domain/health.js';
import {
  budgetLeftText,
  burnRate,
  crossedBurnAlerts,
  firingBurnAlerts,
  formatBurnRate,
  isSloTarget,
  sloStatus,
  sloSummary,
  windowSeconds,
  type HealthLog,
} from '../../../src/domain/slo.js';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function log(transitions: HealthTransition[], createdAt = NOW - 60 * DAY, now = NOW): HealthLog {
  return { transitions, createdAt, now };
}

describe('SLO status, against hand-computed cases', () => {
  it('measures half an hour of critical against 99.9 % over 30 days', () => {
    const status = sloStatus(
      { target: 99.9, window_days: 30 },
      log([
        { at: NOW - 60 * DAY, health: 'good' },
        { at: NOW - 30 * MINUTE, health: 'critical' },
      ]),
    );
    // 30 days are 2,592,000 s; 0.1 % of them is 2,592 s (43.2 minutes), of which 1,800 are spent.
    expect(status).toEqual({
      target: 99.9,
      window_days: 30,
      availability: 99.931,
      budget: { total_seconds: 2592, left_seconds: 792, left_ratio: 0.3056 },
      // 1,800 of 3,600 s is an error ratio of 0.5, 500 times the 0.001 allowed; 1,800 of 21,600 and of 259,200.
      burn_rates: { '1h': 500, '6h': 83.33, '3d': 6.94 },
      // Down half of the last hour: 792 s left last 1,584 s.
      exhausted_at: NOW + 1584 * 1000,
      maintenance_seconds_excluded: 0,
    });
  });

  it('leaves declared maintenance out of the measure and of the budget, and says how much', () => {
    const status = sloStatus(
      { target: 99.9, window_days: 7 },
      log([
        { at: NOW - 60 * DAY, health: 'good' },
        { at: NOW - 3 * HOUR, health: 'maintenance' },
        { at: NOW - 2 * HOUR, health: 'good' },
        { at: NOW - 10 * MINUTE, health: 'warning' },
      ]),
    );
    // 604,800 s less 3,600 of maintenance leave 601,200 eligible: 601 s of budget, 600 of them spent.
    expect(status.maintenance_seconds_excluded).toBe(3600);
    expect(status.availability).toBe(99.9);
    expect(status.budget).toEqual({ total_seconds: 601, left_seconds: 1, left_ratio: 0.0017 });
    // The last hour: 600 of 3,600 s; the last six: 600 of the 18,000 outside maintenance.
    expect(status.burn_rates['1h']).toBe(166.67);
    expect(status.burn_rates['6h']).toBe(33.33);
    // 1 s left at a ratio of 1/6 lasts 6 s.
    expect(status.exhausted_at).toBe(NOW + 6000);
  });

  it('counts a spell crossing midnight UTC on both sides of it', () => {
    const now = Date.UTC(2026, 10, 27, 0, 20, 0);
    const seconds = windowSeconds(
      log(
        [
          { at: now - 60 * DAY, health: 'good' },
          { at: Date.UTC(2026, 10, 26, 23, 50, 0), health: 'error' },
        ],
        now - 60 * DAY,
        now,
      ),
      3600,
    );
    expect(seconds).toEqual({ observed: 3600, problem: 1800, maintenance: 0 });
  });

  it('reads the state before the window from the last transition before it', () => {
    const status = sloStatus(
      { target: 99.9, window_days: 30 },
      log([
        { at: NOW - 40 * DAY, health: 'good' },
        { at: NOW - 35 * DAY, health: 'critical' },
        { at: NOW - 29 * DAY, health: 'good' },
      ]),
    );
    // Critical from the window's start to 29 days ago: one whole day, far past the 2,592 s allowed.
    expect(status.budget.left_seconds).toBe(2592 - 86_400);
    expect(status.budget.left_ratio).toBeLessThan(0);
    expect(status.exhausted_at).toBe(NOW);
    expect(status.availability).toBe(96.667);
    expect(status.burn_rates).toEqual({ '1h': 0, '6h': 0, '3d': 0 });
  });

  it('gives a young service the whole budget and measures only what it has observed', () => {
    const created = NOW - 2 * DAY;
    const status = sloStatus(
      { target: 99.9, window_days: 30 },
      log(
        [
          { at: created, health: 'good' },
          { at: NOW - DAY, health: 'error' },
          { at: NOW - DAY + 864_000, health: 'good' },
        ],
        created,
      ),
    );
    // 864 s of error over 172,800 observed: 99.5 %, and 864 of the 2,592 budget spent.
    expect(status.availability).toBe(99.5);
    expect(status.budget).toEqual({ total_seconds: 2592, left_seconds: 1728, left_ratio: 0.6667 });
    // Burning nothing now: no date.
    expect(status.exhausted_at).toBeNull();
    expect(status.burn_rates['3d']).toBe(5);
  });

  it('has no availability, burn rates or date before anything was observed', () => {
    const status = sloStatus({ target: 99.5, window_days: 28 }, log([], NOW, NOW));
    expect(status.availability).toBeNull();
    expect(status.burn_rates).toEqual({ '1h': null, '6h': null, '3d': null });
    expect(status.exhausted_at).toBeNull();
    expect(status.budget.total_seconds).toBe(12_096);
  });
});

describe('burn-rate alerts', () => {
  const slo = { target: 99.9, window_days: 30 } as const;

  it('fires the fast pair when both the last hour and the last five minutes burn faster than 14.4', () => {
    // 6 minutes of critical, just now: the hour burns 100 times over, the five minutes 1,000.
    const firing = firingBurnAlerts(
      slo,
      log([
        { at: NOW - 60 * DAY, health: 'good' },
        { at: NOW - 6 * MINUTE, health: 'critical' },
      ]),
    );
    // The slow pair too: 360 of 21,600 s is 16.7 times over, and the last 30 minutes 200.
    expect(firing).toEqual({ fast: true, slow: true });
  });

  it('does not fire the fast pair once the last five minutes are good again', () => {
    const firing = firingBurnAlerts(
      slo,
      log([
        { at: NOW - 60 * DAY, health: 'good' },
        { at: NOW - 30 * MINUTE, health: 'critical' },
        { at: NOW - 6 * MINUTE, health: 'good' },
      ]),
    );
    expect(firing).toEqual({ fast: false, slow: true });
  });

  it('fires the slow pair alone for problems spread over hours', () => {
    // At 99 % (0.01 allowed): 20 minutes of critical three hours ago and 3 of warning ten minutes ago. Six hours:
    // 1,380 of 21,600 s, a burn of 6.39; thirty minutes: 180 of 1,800, 10. The last hour burns only 5.
    const transitions: HealthTransition[] = [
      { at: NOW - 60 * DAY, health: 'good' },
      { at: NOW - 3 * HOUR, health: 'critical' },
      { at: NOW - 3 * HOUR + 20 * MINUTE, health: 'good' },
      { at: NOW - 10 * MINUTE, health: 'warning' },
      { at: NOW - 7 * MINUTE, health: 'good' },
    ];
    expect(firingBurnAlerts({ target: 99, window_days: 30 }, log(transitions))).toEqual({ fast: false, slow: true });
  });

  it('announces only the alerts that started firing', () => {
    expect(crossedBurnAlerts({ fast: false, slow: false }, { fast: true, slow: true })).toEqual(['fast', 'slow']);
    expect(crossedBurnAlerts({ fast: true, slow: false }, { fast: true, slow: true })).toEqual(['slow']);
    expect(crossedBurnAlerts({ fast: true, slow: true }, { fast: false, slow: true })).toEqual([]);
  });
});

describe('SLO arithmetic', () => {
  it('takes targets strictly between 0 and 100 with at most three decimals', () => {
    for (const good of [99.9, 99.99, 99.999, 95, 0.5]) expect(isSloTarget(good), String(good)).toBe(true);
    for (const bad of [100, 0, -1, 99.9999, Number.NaN, Infinity]) expect(isSloTarget(bad), String(bad)).toBe(false);
  });

  it('burns at 1 exactly when the error ratio equals what the target allows', () => {
    expect(burnRate({ observed: 1000, problem: 1, maintenance: 0 }, 99.9)).toBeCloseTo(1, 10);
    expect(burnRate({ observed: 100, problem: 0, maintenance: 100 }, 99.9)).toBeNull();
  });

  it('keeps every figure consistent for any log', () => {
    const transition = fc.record({
      at: fc.integer({ min: NOW - 40 * DAY, max: NOW }),
      health: fc.constantFrom(...HEALTHS),
    });
    fc.assert(
      fc.property(
        fc.array(transition, { maxLength: 40 }),
        fc.constantFrom(7, 28, 30),
        fc.integer({ min: 1, max: 99_999 }),
        (transitions, windowDays, thousandths) => {
          const slo = { target: thousandths / 1000, window_days: windowDays as 7 | 28 | 30 };
          const status = sloStatus(slo, log(transitions, NOW - 45 * DAY));
          const window = windowSeconds(log(transitions, NOW - 45 * DAY), windowDays * 86_400);
          expect(window.problem + window.maintenance).toBeLessThanOrEqual(window.observed);
          expect(status.budget.left_seconds).toBe(status.budget.total_seconds - window.problem);
          if (status.availability !== null) {
            expect(status.availability).toBeGreaterThanOrEqual(0);
            expect(status.availability).toBeLessThanOrEqual(100);
          }
          if (status.exhausted_at !== null) expect(status.exhausted_at).toBeGreaterThanOrEqual(NOW);
          for (const rate of Object.values(status.burn_rates))
            if (rate !== null) expect(rate).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});

describe('SLO texts', () => {
  it('names the SLO, the burn rate and the budget left', () => {
    expect(sloSummary({ target: 99.9, window_days: 30 })).toBe('99.9% over 30 days');
    expect(formatBurnRate(83.33)).toBe('83.33×');
    expect(formatBurnRate(null)).toBe('No data');
    expect(budgetLeftText({ total_seconds: 2592, left_seconds: 792, left_ratio: 0.3056 })).toBe('13m 12s left (30.6%)');
    expect(budgetLeftText({ total_seconds: 2592, left_seconds: -2592, left_ratio: -1 })).toBe(
      'Overspent by 43m 12s (100%)',
    );
  });
});
