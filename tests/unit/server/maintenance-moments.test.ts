import { describe, expect, it } from 'vitest';
import {
  dueMoments,
  MAINTENANCE_NOTICE_AHEAD_MS,
  nextMomentAt,
} from '../../../src/server/jobs/maintenance-reminders.js';

/** Issue 27 and 48: which moments of a maintenance window are due at a look, and when the job looks next. */
const T = Date.parse('2026-03-02T10:00:00.000Z');
const SECOND = 1000;
const iso = (at: number) => new Date(at).toISOString();
const window = (starts: number | null, ends: number | null) => ({
  starts_at: starts === null ? null : iso(starts),
  ends_at: ends === null ? null : iso(ends),
});
const stages = (w: ReturnType<typeof window>, now: number) => dueMoments(w, now).map((moment) => moment.stage);

describe('dueMoments', () => {
  it('tells an hour before, at the start while it is on, and at the end', () => {
    const w = window(T, T + 3_600_000);
    expect(stages(w, T - MAINTENANCE_NOTICE_AHEAD_MS - SECOND)).toEqual([]);
    expect(stages(w, T - MAINTENANCE_NOTICE_AHEAD_MS)).toEqual(['soon']);
    expect(stages(w, T - SECOND)).toEqual(['soon']);
    expect(stages(w, T)).toEqual(['start']);
    expect(stages(w, T + 3_600_000)).toEqual(['start', 'end']);
  });

  it('tells both of a short window that started and ended since the last look, the start first', () => {
    const w = window(T + 10 * SECOND, T + 30 * SECOND);
    expect(stages(w, T + 55 * SECOND)).toEqual(['start', 'end']);
    // Long after its end, only the end is news.
    expect(stages(w, T + 30 * SECOND + 60 * SECOND)).toEqual(['end']);
  });

  it('leaves out what is a day old', () => {
    expect(stages(window(T, T + SECOND), T + 25 * 3_600_000)).toEqual([]);
  });
});

describe('nextMomentAt', () => {
  it('is the first start, end or hour-before still to come, across windows', () => {
    const short = window(T + 10 * SECOND, T + 30 * SECOND);
    const later = window(T + 2 * 3_600_000, null);
    expect(nextMomentAt([short, later], T)).toBe(T + 10 * SECOND);
    expect(nextMomentAt([short, later], T + 10 * SECOND)).toBe(T + 30 * SECOND);
    expect(nextMomentAt([short, later], T + 30 * SECOND)).toBe(T + 2 * 3_600_000 - MAINTENANCE_NOTICE_AHEAD_MS);
    expect(nextMomentAt([short, later], T + 2 * 3_600_000)).toBeNull();
    expect(nextMomentAt([], T)).toBeNull();
  });
});
