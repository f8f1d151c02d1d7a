import { describe, expect, it } from 'vitest';
import type { DailyHealth } from '../../../src/domain/health.js';
import { noticeExtrasErrors } from '../../../src/domain/notices.js';
import {
  uptimeOfSeconds,
  uptimeSeconds,
  componentStatusOf,
  dayLabel,
  impactText,
  pageStatus,
  recentUptime,
  statusDays,
  upstreamImpacts,
  uptimeOver,
  type UpstreamNode,
} from '../../../src/domain/status-pages.js';

const day = (date: string, seconds: Partial<Omit<DailyHealth, 'date'>> = {}): DailyHealth => ({
  date,
  critical: 0,
  error: 0,
  warning: 0,
  maintenance: 0,
  ...seconds,
});
const NOON = Date.parse('2026-03-10T12:00:00Z');

describe('status page health', () => {
  it("maps the spec's health to Statuspage's statuses, and the worst own status to the page's line", () => {
    expect(['good', 'maintenance', 'warning', 'error', 'critical'].map((h) => componentStatusOf(h as never))).toEqual([
      'operational',
      'under_maintenance',
      'degraded_performance',
      'partial_outage',
      'major_outage',
    ]);
    expect(pageStatus([])).toEqual({ indicator: 'none', description: 'All Systems Operational' });
    expect(pageStatus(['operational', 'under_maintenance'])).toEqual({
      indicator: 'maintenance',
      description: 'Service Under Maintenance',
    });
    expect(pageStatus(['under_maintenance', 'degraded_performance', 'operational']).indicator).toBe('minor');
    expect(pageStatus(['major_outage', 'partial_outage']).indicator).toBe('critical');
  });

  it('shows days before the service existed as no data, never as 100 %', () => {
    const createdAt = Date.parse('2026-03-09T18:00:00Z');
    const days = statusDays([day('2026-03-09', { error: 3600 }), day('2026-03-10')], {
      now: NOON,
      createdAt,
      count: 5,
    });
    expect(days.map((d) => [d.date, d.status, d.uptime])).toEqual([
      ['2026-03-06', 'no_data', null],
      ['2026-03-07', 'no_data', null],
      ['2026-03-08', 'no_data', null],
      // Six hours observed, one of them an error.
      ['2026-03-09', 'partial_outage', 83.33],
      ['2026-03-10', 'operational', 100],
    ]);
    // Over what was observed: 18 hours, one of error.
    expect(
      uptimeOver([day('2026-03-09', { error: 3600 }), day('2026-03-10')], { now: NOON, createdAt, count: 90 }),
    ).toBe(94.44);
    expect(uptimeOver([], { now: NOON, createdAt: NOON + 1, count: 90 })).toBeNull();
    expect(recentUptime(days, 30)).toBe(91.67);
    expect(recentUptime(days.slice(0, 3), 30)).toBeNull();
    expect(dayLabel(days[3]!, 1)).toBe('Mar 9, 2026: 83.33% uptime, partial outage, 1 notice');
    expect(dayLabel(days[0]!, 0)).toBe('Mar 6, 2026: no data');
  });
});

describe('upstream impact', () => {
  const node = (id: string, health: UpstreamNode['health'], dependencies: string[] = []): UpstreamNode => ({
    id,
    name: id.toUpperCase(),
    health,
    dependencies,
  });
  const graph = new Map(
    [
      node('checkout', 'good', ['payments', 'search']),
      node('payments', 'good', ['database', 'other:auth']),
      node('search', 'warning', ['database']),
      node('database', 'critical'),
      node('other:auth', 'error'),
    ].map((n) => [n.id, n]),
  );

  it('lists each upstream problem by its shortest path, worst first, within the depth', () => {
    expect(upstreamImpacts('checkout', graph, 3)).toEqual([
      // Two shortest paths to the database: the first dependency's.
      { path: ['payments', 'database'], names: ['PAYMENTS', 'DATABASE'], status: 'major_outage' },
      { path: ['payments', 'other:auth'], names: ['PAYMENTS', 'OTHER:AUTH'], status: 'partial_outage' },
      { path: ['search'], names: ['SEARCH'], status: 'degraded_performance' },
    ]);
    expect(upstreamImpacts('checkout', graph, 1)).toEqual([
      { path: ['search'], names: ['SEARCH'], status: 'degraded_performance' },
    ]);
    // Its own health is never looked at; a cycle ends.
    const cycle = new Map([node('a', 'critical', ['b']), node('b', 'good', ['a'])].map((n) => [n.id, n]));
    expect(upstreamImpacts('a', cycle, 6)).toEqual([]);
    expect(impactText(upstreamImpacts('checkout', graph, 3)[0]!)).toBe(
      'Affected: depends on PAYMENTS → DATABASE (major outage)',
    );
  });
});

describe('notice window and post-mortem', () => {
  it('keeps a window to maintenance, ending after it starts, and a post-mortem to incidents', () => {
    expect(
      noticeExtrasErrors('maintenance', { starts_at: '2026-01-01T02:00:00Z', ends_at: '2026-01-01T04:00:00Z' }),
    ).toEqual({});
    expect(
      noticeExtrasErrors('maintenance', { starts_at: '2026-01-01T02:00:00Z', ends_at: '2026-01-01T01:00:00Z' }),
    ).toEqual({ ends_at: ['Must be after the start'] });
    expect(noticeExtrasErrors('incident', { starts_at: '2026-01-01T02:00:00Z', postmortem: 'x' })).toEqual({
      starts_at: ['Only maintenance has a window'],
    });
    expect(noticeExtrasErrors('maintenance', { postmortem: 'x' })).toEqual({
      postmortem: ['Only an incident has a post-mortem'],
    });
  });
});

describe('day labels and uptime in parts', () => {
  it('names a day from its date, in the form people read, with its uptime, status and notices', () => {
    expect(dayLabel({ date: '2026-03-05', uptime: 99.31, status: 'degraded_performance' }, 1)).toBe(
      'Mar 5, 2026: 99.31% uptime, degraded performance, 1 notice',
    );
    expect(dayLabel({ date: '2026-12-31', uptime: null, status: 'no_data' }, 0)).toBe('Dec 31, 2026: no data');
  });

  it('adds up the seconds of two parts of a report to the uptime of the whole', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    const span = { now, createdAt: Date.parse('2026-03-01T00:00:00Z'), count: 90 };
    const report: DailyHealth[] = [
      { date: '2026-03-08', critical: 600, error: 0, warning: 0, maintenance: 0 },
      { date: '2026-03-09', critical: 0, error: 0, warning: 3600, maintenance: 0 },
      { date: '2026-03-10', critical: 60, error: 0, warning: 0, maintenance: 0 },
    ];
    const past = uptimeSeconds(report.slice(0, 2), span);
    const today = uptimeSeconds(report.slice(2), span);
    expect(uptimeOfSeconds({ observed: past.observed + today.observed, problem: past.problem + today.problem })).toBe(
      uptimeOver(report, span),
    );
    expect(uptimeOfSeconds({ observed: 0, problem: 0 })).toBeNull();
  });
});
