import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appliesTo,
  dailyLevelCounts,
  definitionProblems,
  evaluateRule,
  failsOnText,
  levelMovers,
  levelName,
  linkKinds,
  nextLevel,
  NOT_APPLICABLE,
  ranksAt,
  scoreService,
  type CheckFacts,
  type ScorecardRule,
  type ServiceFacts,
} from '../../../src/domain/scorecards.js';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const DAY = 86_400_000;

function facts(over: Partial<ServiceFacts> = {}): ServiceFacts {
  return {
    now: NOW,
    stage: 'live',
    visibility: 'workspace',
    teamId: 'team-1',
    description: 'Takes payments',
    hasIcon: false,
    links: [],
    slo: null,
    checks: [],
    openIncidents: [],
    publishedSpecs: 0,
    teamMembers: 1,
    hasChannel: false,
    eolDependencies: [],
    apiDrift: { specChecks: 0, drifting: [] },
    ...over,
  };
}

function check(over: Partial<CheckFacts> = {}): CheckFacts {
  return {
    name: 'Home page',
    kind: 'http',
    running: true,
    failing: false,
    frequency: 60,
    lastResultAt: NOW - 30_000,
    lastFailureAt: null,
    cert: null,
    ...over,
  };
}

const rule = <R extends ScorecardRule>(r: Omit<R, 'key' | 'name' | 'level' | 'weight'>): ScorecardRule =>
  ({ key: r.evaluator, name: r.evaluator, level: 'bronze', weight: 1, ...r }) as ScorecardRule;

describe('scorecard evaluators', () => {
  it('slo_met: unknown without an SLO or measured time; a pass names the date the budget runs out', () => {
    const r = rule({ evaluator: 'slo_met', params: {} });
    expect(evaluateRule(r, facts()).state).toBe('unknown');
    expect(
      evaluateRule(r, facts({ slo: { target: 99.9, availability: null, leftSeconds: 600, exhaustedAt: null } })).state,
    ).toBe('unknown');
    const burning = evaluateRule(
      r,
      facts({ slo: { target: 99.9, availability: 99.95, leftSeconds: 600, exhaustedAt: NOW + 3 * DAY } }),
    );
    expect(burning).toEqual({ state: 'pass', value: '99.95 % against 99.9 %', asOf: NOW, failsAt: NOW + 3 * DAY });
    const spent = evaluateRule(
      r,
      facts({ slo: { target: 99.9, availability: 99.5, leftSeconds: -60, exhaustedAt: NOW - DAY } }),
    );
    expect(spent).toMatchObject({ state: 'fail', value: '99.5 % against 99.9 %' });
    expect(spent.failsAt).toBeUndefined();
  });

  it('no_failing_checks: fails while a check fails and for N minutes after; unknown with no check or a stale one', () => {
    const r = rule({ evaluator: 'no_failing_checks', params: { minutes: 30 } });
    expect(evaluateRule(r, facts()).value).toBe('No running check');
    expect(evaluateRule(r, facts({ checks: [check({ running: false })] })).state).toBe('unknown');
    expect(evaluateRule(r, facts({ checks: [check({ failing: true })] }))).toMatchObject({
      state: 'fail',
      value: 'Home page is failing',
    });
    const blip = evaluateRule(r, facts({ checks: [check({ lastFailureAt: NOW - 12 * 60_000 })] }));
    expect(blip).toMatchObject({ state: 'fail', value: 'Home page failed 12 minutes ago', asOf: NOW - 12 * 60_000 });
    expect(evaluateRule(r, facts({ checks: [check({ lastFailureAt: NOW - 31 * 60_000 })] }))).toEqual({
      state: 'pass',
      value: 'No failure in 30 minutes',
      asOf: NOW - 30_000,
    });
    // A minute-check with no result for 9 minutes (more than three periods and five minutes) is not read as passing.
    const stale = evaluateRule(r, facts({ checks: [check({ lastResultAt: NOW - 9 * 60_000 })] }));
    expect(stale).toMatchObject({ state: 'unknown', value: 'Home page has no recent result' });
  });

  it('cert_days_left: the certificate expiring first decides, and a pass says the day it will fail', () => {
    const r = rule({ evaluator: 'cert_days_left', params: { min: 14 } });
    expect(evaluateRule(r, facts({ checks: [check()] })).state).toBe('unknown');
    const tls = (days: number, name = 'TLS') =>
      check({ name, kind: 'tls', frequency: 3600, cert: { notAfter: NOW + days * DAY } });
    const ok = evaluateRule(r, facts({ checks: [tls(40, 'far'), tls(26, 'near')] }));
    expect(ok).toEqual({
      state: 'pass',
      value: 'Certificate expires in 26 days',
      asOf: NOW - 30_000,
      failsAt: NOW + 12 * DAY,
    });
    expect(failsOnText(ok.failsAt!)).toBe('fails this rule on Dec 8');
    expect(evaluateRule(r, facts({ checks: [tls(12)] }))).toMatchObject({
      state: 'fail',
      value: 'Certificate expires in 12 days',
    });
    expect(evaluateRule(r, facts({ checks: [tls(-2)] })).value).toBe('Certificate expired 2 days ago');
    // A result older than three hourly periods and five minutes is stale: unknown, never a pass.
    const old = check({
      kind: 'tls',
      frequency: 3600,
      lastResultAt: NOW - 4 * 3_600_000,
      cert: { notAfter: NOW + 90 * DAY },
    });
    expect(evaluateRule(r, facts({ checks: [old] })).state).toBe('unknown');
  });

  it('no_open_incident counts open incidents at or above the severity', () => {
    const r = rule({ evaluator: 'no_open_incident', params: { min_severity: 'error' } });
    expect(evaluateRule(r, facts({ openIncidents: ['warning'] }))).toMatchObject({ state: 'pass' });
    expect(evaluateRule(r, facts({ openIncidents: ['warning', 'critical', 'error'] }))).toMatchObject({
      state: 'fail',
      value: '2 open incidents',
    });
  });

  it('has_link tells runbooks, repositories and dashboards from their names and addresses', () => {
    expect(linkKinds({ name: 'Runbook', url: 'https://wiki.example.com/x' })).toEqual(['runbook']);
    expect(linkKinds({ name: 'Code', url: 'https://github.com/acme/pay' })).toEqual(['repository']);
    expect(linkKinds({ name: 'Latency', url: 'https://grafana.example.com/d/1' })).toEqual(['dashboard']);
    expect(linkKinds({ name: 'Home', url: 'https://example.com' })).toEqual([]);
    const r = rule({ evaluator: 'has_link', params: { kind: 'repository' } });
    expect(evaluateRule(r, facts({ links: [{ name: 'Code', url: 'https://gitlab.com/a/b' }] }))).toMatchObject({
      state: 'pass',
      value: 'Code',
    });
    expect(evaluateRule(r, facts()).value).toBe('No repository link');
  });

  it('reads the catalogue: spec, team size, channel, end-of-life dependencies, checks of a live service, fields', () => {
    const spec = rule({ evaluator: 'has_published_spec', params: {} });
    expect(evaluateRule(spec, facts({ publishedSpecs: 1 })).state).toBe('pass');
    expect(evaluateRule(spec, facts()).state).toBe('fail');
    const size = rule({ evaluator: 'team_size', params: { min: 3 } });
    expect(evaluateRule(size, facts({ teamMembers: 2 }))).toMatchObject({ state: 'fail', value: '2 members' });
    expect(evaluateRule(rule({ evaluator: 'has_channel', params: {} }), facts({ hasChannel: true })).state).toBe(
      'pass',
    );
    const eol = rule({ evaluator: 'no_eol_dependency', params: {} });
    expect(evaluateRule(eol, facts({ eolDependencies: ['Old Ledger'] }))).toMatchObject({
      state: 'fail',
      value: 'Depends on Old Ledger',
    });
    const live = rule({ evaluator: 'live_has_check', params: {} });
    expect(evaluateRule(live, facts())).toMatchObject({ state: 'fail', value: '0 running checks' });
    expect(evaluateRule(live, facts({ stage: 'development' }))).toMatchObject({ state: 'pass', value: 'Not live' });
    expect(evaluateRule(live, facts({ checks: [check()] })).state).toBe('pass');
    const described = rule({ evaluator: 'field_set', params: { field: 'description' } });
    expect(evaluateRule(described, facts({ description: '  ' }))).toMatchObject({
      state: 'fail',
      value: 'No description',
    });
    expect(evaluateRule(rule({ evaluator: 'field_set', params: { field: 'icon' } }), facts()).state).toBe('fail');
    const drift = rule({ evaluator: 'no_api_drift', params: {} });
    expect(evaluateRule(drift, facts())).toMatchObject({
      state: 'unknown',
      value: 'No check is made from a published spec',
    });
    expect(evaluateRule(drift, facts({ apiDrift: { specChecks: 2, drifting: [] } }))).toMatchObject({
      state: 'pass',
      value: 'No API drift (2 spec checks)',
    });
    expect(
      evaluateRule(drift, facts({ apiDrift: { specChecks: 2, drifting: ['getItem (GET /items/{id})'] } })),
    ).toMatchObject({ state: 'fail', value: 'Drift in getItem (GET /items/{id})' });
  });
});

describe('levels and scores', () => {
  const card = {
    levels: [
      { key: 'bronze', name: 'Bronze' },
      { key: 'silver', name: 'Silver' },
      { key: 'gold', name: 'Gold' },
    ],
    rules: [
      {
        key: 'described',
        name: 'Described',
        level: 'bronze',
        weight: 1,
        evaluator: 'field_set',
        params: { field: 'description' },
      },
      { key: 'channel', name: 'Channel', level: 'silver', weight: 2, evaluator: 'has_channel', params: {} },
      { key: 'slo', name: 'SLO met', level: 'silver', weight: 3, evaluator: 'slo_met', params: {} },
      { key: 'spec', name: 'Spec', level: 'gold', weight: 4, evaluator: 'has_published_spec', params: {} },
    ] as ScorecardRule[],
  };

  it('reaches the highest level whose rules and those below all pass; unknown is not a pass', () => {
    const healthy = { target: 99, availability: 100, leftSeconds: 100, exhaustedAt: null };
    expect(scoreService(card, facts({ hasChannel: true, slo: healthy }))).toMatchObject({ level: 'silver', score: 60 });
    // The SLO is unknown: silver is not reached, whatever gold says.
    expect(scoreService(card, facts({ hasChannel: true, publishedSpecs: 1 }))).toMatchObject({
      level: 'bronze',
      score: 70,
    });
    expect(scoreService(card, facts({ description: null }))).toMatchObject({ level: null, score: 0 });
  });

  it('counts an exempt rule as met for the level and leaves it out of the score', () => {
    const result = scoreService(card, facts({ hasChannel: true }), new Set(['slo']));
    expect(result.level).toBe('silver');
    expect(result.score).toBe(Math.round((3 / 7) * 100));
    expect(result.rules.find((r) => r.key === 'slo')).toMatchObject({ state: 'exempt', value: 'No SLO set' });
    const allExempt = scoreService(card, facts(), new Set(['described', 'channel', 'slo', 'spec']));
    expect(allExempt).toMatchObject({ level: 'gold', score: null });
  });

  it('finds duplicate keys and rules on levels that are not there', () => {
    expect(definitionProblems(card)).toEqual([]);
    expect(
      definitionProblems({
        levels: [...card.levels, { key: 'gold', name: 'Again' }],
        rules: [...card.rules, { ...card.rules[0]!, level: 'platinum' }],
      }),
    ).toEqual([
      'Level "gold" is given twice',
      'Rule "described" is given twice',
      'Rule "described" is on level "platinum", which is not one',
    ]);
  });

  it('applies to services by stage, team and visibility, each criterion given', () => {
    const service = { stage: 'live' as const, teamId: 't1', visibility: 'public' as const };
    expect(appliesTo({}, service)).toBe(true);
    expect(appliesTo({ stages: ['live'], teams: ['t1', 't2'] }, service)).toBe(true);
    expect(appliesTo({ stages: ['development'] }, service)).toBe(false);
    expect(appliesTo({ visibility: ['owner'] }, service)).toBe(false);
    expect(appliesTo({ teams: [] }, service)).toBe(true);
  });
});

describe('what the screens say', () => {
  const levels = [
    { key: 'bronze', name: 'Bronze' },
    { key: 'silver', name: 'Silver' },
  ];
  const rules = [
    { key: 'a', level: 'bronze', state: 'pass' as const },
    { key: 'b', level: 'silver', state: 'fail' as const },
    { key: 'c', level: 'silver', state: 'exempt' as const },
    { key: 'd', level: 'silver', state: 'unknown' as const },
  ];

  it('names the next level and the rules that hold the service back from it', () => {
    expect(nextLevel(levels, 'bronze', rules)).toEqual({ level: levels[1], blocking: [rules[1], rules[3]] });
    expect(nextLevel(levels, null, rules)).toEqual({ level: levels[0], blocking: [] });
    expect(nextLevel(levels, 'silver', rules)).toBeNull();
    expect(levelName(levels, 'silver')).toBe('Silver');
    expect(levelName(levels, null)).toBe('No level');
  });
});

describe('history', () => {
  const at = (iso: string) => Date.parse(iso);
  const changes = [
    { service: 'a', at: at('2026-11-01T10:00:00Z'), rank: 0 },
    { service: 'b', at: at('2026-11-01T23:59:59Z'), rank: -1 },
    { service: 'a', at: at('2026-11-02T00:00:00Z'), rank: 1 },
    { service: 'b', at: at('2026-11-03T08:00:00Z'), rank: NOT_APPLICABLE },
    { service: 'c', at: at('2026-11-03T09:00:00Z'), rank: 1 },
    { service: 'c', at: at('2026-11-04T09:00:00Z'), rank: -1 },
  ];

  it('counts the services at each level at the end of each UTC day', () => {
    expect(
      dailyLevelCounts(changes, ['2026-10-31', '2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04'], 2),
    ).toEqual([
      { date: '2026-10-31', counts: [0, 0, 0] },
      { date: '2026-11-01', counts: [1, 1, 0] },
      { date: '2026-11-02', counts: [1, 0, 1] },
      { date: '2026-11-03', counts: [0, 0, 2] },
      { date: '2026-11-04', counts: [1, 0, 1] },
    ]);
  });

  it('names the most improved and the most regressed between two times', () => {
    expect(levelMovers(changes, at('2026-11-02T00:00:00Z'), at('2026-11-05T00:00:00Z'))).toEqual({
      improved: [{ service: 'a', from: 0, to: 1 }],
      regressed: [],
    });
    expect(levelMovers(changes, at('2026-11-03T12:00:00Z'), at('2026-11-05T00:00:00Z')).regressed).toEqual([
      { service: 'c', from: 1, to: -1 },
    ]);
  });

  it('replays any history to the latest rank of each service still on the scorecard', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            service: fc.constantFrom('a', 'b', 'c', 'd'),
            at: fc.integer({ min: 0, max: 10 * DAY }),
            rank: fc.integer({ min: NOT_APPLICABLE, max: 2 }),
          }),
        ),
        (history) => {
          const unique = history.filter((c, i) => history.findIndex((o) => o.at === c.at) === i);
          const latest = new Map<string, number>();
          for (const change of [...unique].sort((a, b) => a.at - b.at)) latest.set(change.service, change.rank);
          const expected = [...latest].filter(([, rank]) => rank !== NOT_APPLICABLE);
          const counts = [0, 0, 0, 0];
          for (const [, rank] of expected) counts[rank + 1]!++;
          const last = dailyLevelCounts(unique, ['1970-01-11'], 3)[0]!.counts;
          expect(last).toEqual(counts);
          expect([...ranksAt(unique, 11 * DAY)].sort()).toEqual(expected.sort());
        },
      ),
    );
  });
});
