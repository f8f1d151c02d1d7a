import { describe, expect, it } from 'vitest';
import {
  CheckScheduler,
  firstDue,
  frequencyMs,
  nextDue,
  phaseOf,
  type ScheduledCheck,
} from '../../../src/runner/schedule.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);

interface Check extends ScheduledCheck {
  endpoint: string;
}

const check = (id: string, frequencySeconds = 15, endpoint = `https://example.com/${id}`): Check => ({
  id,
  frequencySeconds,
  endpoint,
});

describe('frequencyMs', () => {
  it('is the frequency in ms, at least 1 s, 15 s when not a number', () => {
    expect(frequencyMs(15)).toBe(15_000);
    expect(frequencyMs(1)).toBe(1_000);
    expect(frequencyMs(0)).toBe(1_000);
    expect(frequencyMs(-5)).toBe(1_000);
    expect(frequencyMs(2.5)).toBe(2_500);
    expect(frequencyMs(Number.NaN)).toBe(15_000);
  });
});

describe('nextDue', () => {
  it('is one frequency after the last start when no phase is given', () => {
    expect(nextDue(T0, 15)).toBe(T0 + 15_000);
    expect(nextDue(T0 + 123, 60)).toBe(T0 + 60_123);
    expect(nextDue(T0, 0)).toBe(T0 + 1_000);
  });

  it('keeps a check on its slots: a late start does not move the next slot', () => {
    const phase = 4_000;
    const slot = T0 - (T0 % 15_000) + phase;
    expect(nextDue(slot, 15, phase)).toBe(slot + 15_000);
    expect(nextDue(slot + 2_500, 15, phase)).toBe(slot + 15_000);
    // Started more than a whole interval late: the next slot after that start, no catching up.
    expect(nextDue(slot + 31_000, 15, phase)).toBe(slot + 45_000);
  });

  it('is always after the last start and at most one frequency later', () => {
    for (let start = T0; start < T0 + 20_000; start += 777) {
      const next = nextDue(start, 15, 1_234);
      expect(next).toBeGreaterThan(start);
      expect(next).toBeLessThanOrEqual(start + 15_000);
    }
  });
});

describe('firstDue and phaseOf', () => {
  it('puts a first run within the first interval, on the check’s phase', () => {
    for (const id of ['a', 'b', 'check-1', '7f8c1c2e-93a1-4c1e-9d2a-1b5d0c6f4e11']) {
      const due = firstDue(id, 15, T0);
      expect(due).toBeGreaterThanOrEqual(T0);
      expect(due).toBeLessThan(T0 + 15_000);
      expect(due % 15_000).toBe(phaseOf(id, 15));
    }
  });

  it('is stable for an id and differs between ids', () => {
    expect(phaseOf('check-1', 15)).toBe(phaseOf('check-1', 15));
    expect(new Set(['check-1', 'check-2', 'check-3', 'check-4'].map((id) => phaseOf(id, 15))).size).toBe(4);
  });
});

describe('CheckScheduler: running checks', () => {
  it('is due at its slot, not before', () => {
    const scheduler = new CheckScheduler([check('a')], T0);
    const dueAt = scheduler.get('a')!.dueAt;
    expect(scheduler.due(dueAt - 1)).toEqual([]);
    expect(scheduler.due(dueAt)).toEqual(['a']);
    expect(scheduler.nextWake()).toBe(dueAt);
  });

  it('never returns a running check as due', () => {
    const scheduler = new CheckScheduler([check('a', 1)], T0);
    const dueAt = scheduler.get('a')!.dueAt;
    expect(scheduler.started('a', dueAt)).toBe(true);
    for (let now = dueAt; now < dueAt + 60_000; now += 250) expect(scheduler.due(now)).toEqual([]);
    expect(scheduler.nextWake()).toBeNull();
    expect(scheduler.started('a', dueAt + 1)).toBe(false);
    scheduler.finished('a', dueAt + 60_000);
    // Its slot passed long ago: due at once, but once.
    expect(scheduler.due(dueAt + 60_000)).toEqual(['a']);
    scheduler.started('a', dueAt + 60_000);
    expect(scheduler.get('a')!.dueAt).toBe(dueAt + 61_000);
  });

  it('runs every frequency, start to start, on its slots even when ticks are late', () => {
    const scheduler = new CheckScheduler([check('a', 15)], T0);
    const first = scheduler.get('a')!.dueAt;
    const starts: number[] = [];
    for (let now = T0; now < T0 + 120_000; now += 100 + (now % 7)) {
      for (const id of scheduler.due(now)) {
        scheduler.started(id, now);
        starts.push(now);
        scheduler.finished(id, now + 40);
      }
    }
    expect(starts.length).toBeGreaterThanOrEqual(7);
    starts.forEach((start, i) => {
      const slot = first + i * 15_000;
      expect(start).toBeGreaterThanOrEqual(slot);
      expect(start).toBeLessThan(slot + 110); // one tick late at most, and it never accumulates
    });
  });

  it('a run longer than the frequency delays the next one until it finishes, without overlap', () => {
    const scheduler = new CheckScheduler([check('slow', 1)], T0);
    let running: { until: number } | null = null;
    let runs = 0;
    for (let now = T0; now < T0 + 30_000; now += 50) {
      if (running && now >= running.until) {
        scheduler.finished('slow', now);
        running = null;
      }
      for (const id of scheduler.due(now)) {
        expect(running).toBeNull();
        expect(scheduler.started(id, now)).toBe(true);
        running = { until: now + 2_500 };
        runs++;
      }
    }
    // 2.5 s runs back to back over 30 s: about 11, not 30.
    expect(runs).toBeGreaterThanOrEqual(10);
    expect(runs).toBeLessThanOrEqual(12);
  });

  it('returns the most overdue first', () => {
    const scheduler = new CheckScheduler(
      ['a', 'b', 'c', 'd'].map((id) => check(id)),
      T0,
    );
    const due = scheduler.due(T0 + 15_000);
    const dueAts = due.map((id) => scheduler.get(id)!.dueAt);
    expect(due).toHaveLength(4);
    expect(dueAts).toEqual([...dueAts].sort((x, y) => x - y));
  });

  it('ignores finished() and refuses started() for unknown checks', () => {
    const scheduler = new CheckScheduler();
    expect(scheduler.started('nope', T0)).toBe(false);
    expect(() => scheduler.finished('nope', T0)).not.toThrow();
  });
});

describe('CheckScheduler: spreading 10,000 checks', () => {
  const ids = Array.from({ length: 10_000 }, (_, i) => `check-${i}`);

  it('spreads first runs across the first interval', () => {
    const scheduler = new CheckScheduler(
      ids.map((id) => check(id)),
      T0,
    );
    const dueAts = ids.map((id) => scheduler.get(id)!.dueAt);
    expect(Math.min(...dueAts)).toBeGreaterThanOrEqual(T0);
    expect(Math.max(...dueAts)).toBeLessThan(T0 + 15_000);

    const perSecond = new Array<number>(15).fill(0);
    const perMs = new Map<number, number>();
    for (const dueAt of dueAts) {
      perSecond[Math.floor((dueAt - T0) / 1000)]!++;
      perMs.set(dueAt, (perMs.get(dueAt) ?? 0) + 1);
    }
    // 10,000 / 15 ≈ 667 per second.
    for (const count of perSecond) {
      expect(count).toBeGreaterThan(550);
      expect(count).toBeLessThan(800);
    }
    expect(Math.max(...perMs.values())).toBeLessThanOrEqual(8);
    expect(scheduler.due(T0).length).toBeLessThanOrEqual(8);
  });

  it('spreads UUID ids too', () => {
    const uuids = Array.from(
      { length: 10_000 },
      (_, i) => `${i.toString(16).padStart(8, '0')}-1c2e-4a1e-9d2a-1b5d0c6f4e11`,
    );
    const scheduler = new CheckScheduler(
      uuids.map((id) => check(id)),
      T0,
    );
    const perSecond = new Array<number>(15).fill(0);
    for (const id of uuids) perSecond[Math.floor((scheduler.get(id)!.dueAt - T0) / 1000)]!++;
    for (const count of perSecond) {
      expect(count).toBeGreaterThan(550);
      expect(count).toBeLessThan(800);
    }
  });

  it('spreads them out again after a stall made them all start together', () => {
    const scheduler = new CheckScheduler(
      ids.map((id) => check(id)),
      T0,
    );
    const stalled = T0 + 20_000;
    const due = scheduler.due(stalled);
    expect(due).toHaveLength(10_000);
    for (const id of due) scheduler.started(id, stalled);
    for (const id of due) scheduler.finished(id, stalled + 100);
    const next = ids.map((id) => scheduler.get(id)!.dueAt);
    expect(Math.min(...next)).toBeGreaterThan(stalled);
    expect(Math.max(...next)).toBeLessThanOrEqual(stalled + 15_000);
    expect(scheduler.due(stalled + 1_000).length).toBeLessThan(1_000);
  });
});

describe('CheckScheduler: at scale', () => {
  it('gives at most the room the caller has, most overdue first, and takes nothing by looking', () => {
    const ids = Array.from({ length: 100_000 }, (_, i) => `check-${i}`);
    const scheduler = new CheckScheduler(
      ids.map((id) => check(id, 60)),
      T0,
    );
    const now = T0 + 30_000;
    const all = scheduler.due(now);
    expect(all.length).toBeGreaterThan(45_000);
    expect(all.length).toBeLessThan(55_000);
    // Checks may share a slot (100,000 over 60,000 ms), so the order is compared by slot.
    const slots = (list: string[]) => list.map((id) => scheduler.get(id)!.dueAt);
    expect(slots(all)).toEqual([...slots(all)].sort((a, b) => a - b));
    const some = scheduler.due(now, 100);
    expect(slots(some)).toEqual(slots(all.slice(0, 100)));
    expect(scheduler.due(now)).toHaveLength(all.length);
    const next = slots(all.slice(100, 200));
    for (const id of some) scheduler.started(id, now);
    expect(slots(scheduler.due(now, 100))).toEqual(next);
    // A started check's slot moves on; the rest of the queue is untouched.
    expect(scheduler.due(now)).toHaveLength(all.length - 100);
    expect(scheduler.nextWake()).toBe(next[0]);
  });

  it('keeps its queue small while checks change frequency and come and go', () => {
    const scheduler = new CheckScheduler([check('a', 15), check('b', 15)], T0);
    for (let round = 0; round < 5_000; round++) {
      scheduler.update([check('a', round % 2 ? 15 : 30), ...(round % 3 ? [check('b', 15)] : [])], T0 + round);
    }
    expect(scheduler.size).toBe(2);
    const wake = scheduler.nextWake()!;
    expect(wake).toBe(Math.min(scheduler.get('a')!.dueAt, scheduler.get('b')!.dueAt));
    expect(scheduler.due(wake).length).toBeGreaterThanOrEqual(1);
  });
});

describe('CheckScheduler: updates', () => {
  it('adds new checks with a first slot in the interval after the update', () => {
    const scheduler = new CheckScheduler([check('a')], T0);
    scheduler.update([check('a'), check('b')], T0 + 60_000);
    expect(scheduler.size).toBe(2);
    const dueAt = scheduler.get('b')!.dueAt;
    expect(dueAt).toBeGreaterThanOrEqual(T0 + 60_000);
    expect(dueAt).toBeLessThan(T0 + 75_000);
  });

  it('removes checks missing from the update', () => {
    const scheduler = new CheckScheduler([check('a'), check('b')], T0);
    scheduler.update([check('b')], T0);
    expect(scheduler.get('a')).toBeUndefined();
    expect(scheduler.size).toBe(1);
    expect(scheduler.due(T0 + 60_000)).toEqual(['b']);
  });

  it('drops a removed running check when it finishes, and a re-added one cannot overlap its old run', () => {
    const scheduler = new CheckScheduler([check('a', 1)], T0);
    const dueAt = scheduler.get('a')!.dueAt;
    scheduler.started('a', dueAt);
    scheduler.update([], dueAt + 10);
    expect(scheduler.get('a')).toBeUndefined();
    expect(scheduler.size).toBe(0);
    expect(scheduler.due(dueAt + 5_000)).toEqual([]);

    scheduler.update([check('a', 1)], dueAt + 20);
    expect(scheduler.due(dueAt + 5_000)).toEqual([]); // the old run is still going
    expect(scheduler.started('a', dueAt + 5_000)).toBe(false);
    scheduler.finished('a', dueAt + 5_000);
    expect(scheduler.due(dueAt + 5_000)).toEqual(['a']);

    scheduler.update([], dueAt + 6_000);
    scheduler.finished('a', dueAt + 6_000);
    expect(scheduler.size).toBe(0);
  });

  it('a changed definition is used from the next run without moving its slot', () => {
    const scheduler = new CheckScheduler([check('a', 15, 'https://old.example.com')], T0);
    const dueAt = scheduler.get('a')!.dueAt;
    scheduler.started('a', dueAt);
    scheduler.update([check('a', 15, 'https://new.example.com')], dueAt + 10);
    const state = scheduler.get('a')!;
    expect(state.check.endpoint).toBe('https://new.example.com');
    expect(state.running).toBe(true);
    expect(state.dueAt).toBe(dueAt + 15_000);
  });

  it('a changed frequency re-plans the next slot from the last start', () => {
    const scheduler = new CheckScheduler([check('a', 3600)], T0);
    const dueAt = scheduler.get('a')!.dueAt;
    scheduler.started('a', dueAt);
    scheduler.finished('a', dueAt + 100);
    expect(scheduler.get('a')!.dueAt).toBe(dueAt + 3_600_000);

    scheduler.update([check('a', 15)], dueAt + 1_000);
    const faster = scheduler.get('a')!.dueAt;
    expect(faster).toBeGreaterThan(dueAt);
    expect(faster).toBeLessThanOrEqual(dueAt + 15_000);
    expect(faster % 15_000).toBe(phaseOf('a', 15));

    scheduler.update([check('a', 60)], dueAt + 2_000);
    const slower = scheduler.get('a')!.dueAt;
    expect(slower).toBeGreaterThan(dueAt);
    expect(slower).toBeLessThanOrEqual(dueAt + 60_000);
  });

  it('a changed frequency before the first run re-plans the first slot', () => {
    const scheduler = new CheckScheduler([check('a', 3600)], T0);
    scheduler.update([check('a', 15)], T0 + 10);
    const dueAt = scheduler.get('a')!.dueAt;
    expect(dueAt).toBeGreaterThanOrEqual(T0 + 10);
    expect(dueAt).toBeLessThan(T0 + 15_010);
  });
});
