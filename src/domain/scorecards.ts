/**
 * Scorecards (docs/decisions.md#slos-and-scorecards, issue 28): rules over what the catalogue knows of a service and
 * how it really runs, each pass, fail or unknown (no data, or data too old, is never a pass), with the value it saw
 * and, for a rule on a date, when it will fail; ordered levels reached when every rule of the level and below passes or
 * is exempt. Pure: the server gathers a service's facts, this decides. Shared by the server, the app and the worker.
 */
import type { Health, Stage, Visibility } from './catalogue.js';
import { healthRank, MS_PER_DAY, utcDayStart } from './health.js';
import { plural } from './words.js';

export const SCORECARD_EVALUATORS = [
  'slo_met',
  'no_failing_checks',
  'cert_days_left',
  'no_open_incident',
  'has_link',
  'has_published_spec',
  'team_size',
  'has_channel',
  'no_eol_dependency',
  'live_has_check',
  'field_set',
  'no_api_drift',
] as const;
export type ScorecardEvaluator = (typeof SCORECARD_EVALUATORS)[number];

/** The kinds of link a rule can ask for, told from the link's name and address. */
export const LINK_KINDS = ['runbook', 'repository', 'dashboard'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/** The fields a field rule can ask to be set. */
export const SCORECARD_FIELDS = ['description', 'icon', 'links'] as const;
export type ScorecardField = (typeof SCORECARD_FIELDS)[number];

/** The severities an incident rule can start from. */
export const INCIDENT_SEVERITIES = ['warning', 'error', 'critical'] as const satisfies readonly Health[];
export type IncidentSeverity = (typeof INCIDENT_SEVERITIES)[number];

/** Each evaluator's parameters. */
export interface EvaluatorParams {
  slo_met: Record<string, never>;
  no_failing_checks: { minutes: number };
  cert_days_left: { min: number };
  no_open_incident: { min_severity: IncidentSeverity };
  has_link: { kind: LinkKind };
  has_published_spec: Record<string, never>;
  team_size: { min: number };
  has_channel: Record<string, never>;
  no_eol_dependency: Record<string, never>;
  live_has_check: Record<string, never>;
  field_set: { field: ScorecardField };
  no_api_drift: Record<string, never>;
}

export type ScorecardRule = {
  [E in ScorecardEvaluator]: {
    key: string;
    name: string;
    /** The key of the level the rule belongs to. */
    level: string;
    weight: number;
    evaluator: E;
    params: EvaluatorParams[E];
    remediation?: string | null;
  };
}[ScorecardEvaluator];

export interface ScorecardLevel {
  key: string;
  name: string;
}

export interface AppliesTo {
  stages?: readonly Stage[];
  /** Team ids (the API names teams by handle). */
  teams?: readonly string[];
  visibility?: readonly Visibility[];
}

export interface ScorecardDefinition {
  applies_to: AppliesTo;
  /** Lowest first. */
  levels: readonly ScorecardLevel[];
  rules: readonly ScorecardRule[];
}

/** What is known of one check of the service. */
export interface CheckFacts {
  name: string;
  kind: string;
  /** Neither disabled nor paused. */
  running: boolean;
  failing: boolean;
  /** Seconds between runs. */
  frequency: number;
  /** Epoch ms of its latest result, and of its latest failed one. */
  lastResultAt: number | null;
  lastFailureAt: number | null;
  /** The certificate its latest TLS result saw. */
  cert: { notAfter: number } | null;
}

/** Everything the evaluators read of one service, gathered at `now`. */
export interface ServiceFacts {
  now: number;
  stage: Stage;
  visibility: Visibility;
  teamId: string;
  description: string | null;
  hasIcon: boolean;
  links: ReadonlyArray<{ name: string; url: string }>;
  /** The SLO's status, when the service has one. */
  slo: { target: number; availability: number | null; leftSeconds: number; exhaustedAt: number | null } | null;
  checks: readonly CheckFacts[];
  /** The open incidents' healths. */
  openIncidents: readonly Health[];
  publishedSpecs: number;
  teamMembers: number;
  hasChannel: boolean;
  /** The names of the dependencies in stage End of Life. */
  eolDependencies: readonly string[];
  /**
   * Checks made from a published spec, and the operations whose answers break it now (docs/decisions.md#spec-checks).
   */
  apiDrift: { specChecks: number; drifting: readonly string[] };
}

export type RuleState = 'pass' | 'fail' | 'unknown' | 'exempt';

export interface RuleOutcome {
  state: Exclude<RuleState, 'exempt'>;
  /** What the rule saw, in words. */
  value: string;
  /** Epoch ms of the data it read (the evaluation time when the data is the catalogue's own). */
  asOf: number;
  /** Epoch ms at which a passing rule on a date will fail. */
  failsAt?: number;
}

export interface RuleResult extends Omit<RuleOutcome, 'state'> {
  key: string;
  state: RuleState;
}

export interface ServiceScore {
  /** The highest level reached; null when not even the lowest is. */
  level: string | null;
  /** The weighted share of the rules that pass, in percent, exempt rules left out; null when every rule is exempt. */
  score: number | null;
  rules: RuleResult[];
}

/** How long a check's result is read as current: three of its periods, and five minutes of slack. */
export function resultFreshFor(frequencySeconds: number): number {
  return (3 * frequencySeconds + 300) * 1000;
}

/** The kinds a link is, from its name and address ('Runbook', github.com, a Grafana board). */
export function linkKinds(link: { name: string; url: string }): LinkKind[] {
  const text = `${link.name} ${link.url}`.toLowerCase();
  const kinds: LinkKind[] = [];
  if (/runbook|playbook/.test(text)) kinds.push('runbook');
  if (/github\.com|gitlab\.|bitbucket\.org|\brepo(sitory)?\b|\bsource\b/.test(text)) kinds.push('repository');
  if (/dashboard|grafana|datadog|kibana|newrelic|\bmetrics\b/.test(text)) kinds.push('dashboard');
  return kinds;
}

const percent = (value: number) => `${Number(value.toFixed(3))} %`;

function evaluateChecksFailing(facts: ServiceFacts, minutes: number): RuleOutcome {
  const { now } = facts;
  const running = facts.checks.filter((check) => check.running);
  if (running.length === 0) return { state: 'unknown', value: 'No running check', asOf: now };
  const failing = running.find((check) => check.failing);
  if (failing) return { state: 'fail', value: `${failing.name} is failing`, asOf: failing.lastResultAt ?? now };
  const since = now - minutes * 60_000;
  const failed = running
    .filter((check) => check.lastFailureAt !== null && check.lastFailureAt > since)
    .sort((a, b) => b.lastFailureAt! - a.lastFailureAt!)[0];
  if (failed) {
    const ago = Math.max(1, Math.round((now - failed.lastFailureAt!) / 60_000));
    return { state: 'fail', value: `${failed.name} failed ${plural(ago, 'minute')} ago`, asOf: failed.lastFailureAt! };
  }
  const current = running.filter((c) => c.lastResultAt !== null && now - c.lastResultAt <= resultFreshFor(c.frequency));
  if (current.length < running.length) {
    const stale = running.find((c) => !current.includes(c))!;
    return { state: 'unknown', value: `${stale.name} has no recent result`, asOf: stale.lastResultAt ?? now };
  }
  const asOf = Math.min(...current.map((c) => c.lastResultAt!));
  return { state: 'pass', value: `No failure in ${plural(minutes, 'minute')}`, asOf };
}

function evaluateCertificate(facts: ServiceFacts, min: number): RuleOutcome {
  const { now } = facts;
  const seen = facts.checks.filter((c) => c.running && c.cert && c.lastResultAt !== null);
  if (seen.length === 0) return { state: 'unknown', value: 'No TLS check has seen a certificate', asOf: now };
  const current = seen.filter((c) => now - c.lastResultAt! <= resultFreshFor(c.frequency));
  if (current.length === 0) return { state: 'unknown', value: 'No recent TLS result', asOf: seen[0]!.lastResultAt! };
  // The certificate that expires first decides.
  const first = current.reduce((a, b) => (b.cert!.notAfter < a.cert!.notAfter ? b : a));
  const notAfter = first.cert!.notAfter;
  const daysLeft = Math.floor((notAfter - now) / MS_PER_DAY);
  const value =
    daysLeft < 0
      ? `Certificate expired ${plural(-daysLeft, 'day')} ago`
      : `Certificate expires in ${plural(daysLeft, 'day')}`;
  const asOf = first.lastResultAt!;
  if (daysLeft < min) return { state: 'fail', value, asOf };
  return { state: 'pass', value, asOf, failsAt: notAfter - min * MS_PER_DAY };
}

export function evaluateRule(rule: ScorecardRule, facts: ServiceFacts): RuleOutcome {
  const { now } = facts;
  const outcome = (pass: boolean, value: string): RuleOutcome => ({ state: pass ? 'pass' : 'fail', value, asOf: now });
  switch (rule.evaluator) {
    case 'slo_met': {
      const slo = facts.slo;
      if (!slo) return { state: 'unknown', value: 'No SLO set', asOf: now };
      if (slo.availability === null) return { state: 'unknown', value: 'No time measured yet', asOf: now };
      const value = `${percent(slo.availability)} against ${percent(slo.target)}`;
      if (slo.leftSeconds < 0) return outcome(false, value);
      return slo.exhaustedAt === null
        ? outcome(true, value)
        : { state: 'pass', value, asOf: now, failsAt: slo.exhaustedAt };
    }
    case 'no_failing_checks':
      return evaluateChecksFailing(facts, rule.params.minutes);
    case 'cert_days_left':
      return evaluateCertificate(facts, rule.params.min);
    case 'no_open_incident': {
      const floor = healthRank(rule.params.min_severity);
      const open = facts.openIncidents.filter((health) => healthRank(health) >= floor);
      return outcome(
        open.length === 0,
        open.length === 0 ? 'No open incident' : `${plural(open.length, 'open incident')}`,
      );
    }
    case 'has_link': {
      const link = facts.links.find((l) => linkKinds(l).includes(rule.params.kind));
      return outcome(Boolean(link), link ? link.name : `No ${rule.params.kind} link`);
    }
    case 'has_published_spec':
      return outcome(facts.publishedSpecs > 0, plural(facts.publishedSpecs, 'published OpenAPI spec'));
    case 'team_size':
      return outcome(facts.teamMembers >= rule.params.min, plural(facts.teamMembers, 'member'));
    case 'has_channel':
      return outcome(facts.hasChannel, facts.hasChannel ? 'Has a Slack channel' : 'No Slack channel');
    case 'no_eol_dependency': {
      const eol = facts.eolDependencies;
      return outcome(
        eol.length === 0,
        eol.length === 0 ? 'No dependency at End of Life' : `Depends on ${eol.join(', ')}`,
      );
    }
    case 'live_has_check': {
      if (facts.stage !== 'live') return outcome(true, 'Not live');
      const running = facts.checks.filter((c) => c.running).length;
      return outcome(running > 0, plural(running, 'running check'));
    }
    case 'field_set': {
      const field = rule.params.field;
      const set =
        field === 'description'
          ? Boolean(facts.description?.trim())
          : field === 'icon'
            ? facts.hasIcon
            : facts.links.length > 0;
      return outcome(set, set ? `${FIELD_NAMES[field]} set` : `No ${FIELD_NAMES[field].toLowerCase()}`);
    }
    case 'no_api_drift': {
      // Without a check made from its spec nothing compares the service with its spec: unknown, never a pass.
      const { specChecks, drifting } = facts.apiDrift;
      if (specChecks === 0) return { state: 'unknown', value: 'No check is made from a published spec', asOf: now };
      return outcome(
        drifting.length === 0,
        drifting.length === 0
          ? `No API drift (${plural(specChecks, 'spec check')})`
          : `Drift in ${drifting.join(', ')}`,
      );
    }
  }
}

const FIELD_NAMES: Record<ScorecardField, string> = { description: 'Description', icon: 'Icon', links: 'Links' };

/** Whether a scorecard applies to a service: each criterion given must match. */
export function appliesTo(
  criteria: AppliesTo,
  service: { stage: Stage; teamId: string; visibility: Visibility },
): boolean {
  if (criteria.stages?.length && !criteria.stages.includes(service.stage)) return false;
  if (criteria.teams?.length && !criteria.teams.includes(service.teamId)) return false;
  if (criteria.visibility?.length && !criteria.visibility.includes(service.visibility)) return false;
  return true;
}

/**
 * A service's results on a scorecard: each rule (exempt where `exempt` names it), the highest level every rule of
 * which, and of every level below it, passes or is exempt, and the weighted score.
 */
export function scoreService(
  card: Pick<ScorecardDefinition, 'levels' | 'rules'>,
  facts: ServiceFacts,
  exempt: ReadonlySet<string> = new Set(),
): ServiceScore {
  const rules: RuleResult[] = card.rules.map((rule) => {
    const outcome = evaluateRule(rule, facts);
    return { key: rule.key, ...outcome, state: exempt.has(rule.key) ? 'exempt' : outcome.state };
  });
  const stateOf = new Map(rules.map((r) => [r.key, r.state]));
  let level: string | null = null;
  for (const candidate of card.levels) {
    const met = card.rules
      .filter((rule) => rule.level === candidate.key)
      .every((rule) => ['pass', 'exempt'].includes(stateOf.get(rule.key)!));
    if (!met) break;
    level = candidate.key;
  }
  let counted = 0;
  let passed = 0;
  for (const rule of card.rules) {
    const state = stateOf.get(rule.key)!;
    if (state === 'exempt') continue;
    counted += rule.weight;
    if (state === 'pass') passed += rule.weight;
  }
  return { level, score: counted === 0 ? null : Math.round((passed / counted) * 100), rules };
}

/**
 * What is wrong with a definition beyond its shape: keys unique, every rule on a level of the scorecard. Empty
 * when it is sound.
 */
export function definitionProblems(card: {
  levels: readonly ScorecardLevel[];
  rules: ReadonlyArray<Pick<ScorecardRule, 'key' | 'level'>>;
}): string[] {
  const problems: string[] = [];
  const levels = new Set<string>();
  for (const level of card.levels) {
    if (levels.has(level.key)) problems.push(`Level "${level.key}" is given twice`);
    levels.add(level.key);
  }
  const rules = new Set<string>();
  for (const rule of card.rules) {
    if (rules.has(rule.key)) problems.push(`Rule "${rule.key}" is given twice`);
    rules.add(rule.key);
    if (!levels.has(rule.level)) problems.push(`Rule "${rule.key}" is on level "${rule.level}", which is not one`);
  }
  return problems;
}

/** A day as the scorecards name it: "Dec 8" (UTC). */
export function shortUtcDay(ms: number): string {
  return new Date(ms).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** "Fails this rule on Dec 8" for a rule on a date. */
export function failsOnText(failsAt: number): string {
  return `fails this rule on ${shortUtcDay(failsAt)}`;
}

/** The results filter's value for the services that reach no level. */
export const NO_LEVEL_FILTER = 'none';

/** How each rule state reads on screen. */
export const RULE_STATE_LABELS: Record<RuleState, string> = {
  pass: 'Pass',
  fail: 'Fail',
  unknown: 'Unknown',
  exempt: 'Exempt',
};

/** A level's name by key; "No level" for none. */
export function levelName(levels: readonly ScorecardLevel[], key: string | null): string {
  if (key === null) return 'No level';
  return levels.find((level) => level.key === key)?.name ?? key;
}

/**
 * The level after `current` (the lowest when none is reached) and the rules that keep the service from it: those of
 * that level and below neither passing nor exempt. Null at the top level.
 */
export function nextLevel<R extends { key: string; level: string; state: RuleState }>(
  levels: readonly ScorecardLevel[],
  current: string | null,
  rules: readonly R[],
): { level: ScorecardLevel; blocking: R[] } | null {
  const index = current === null ? 0 : levels.findIndex((level) => level.key === current) + 1;
  const level = levels[index];
  if (!level) return null;
  const upTo = new Set(levels.slice(0, index + 1).map((l) => l.key));
  return {
    level,
    blocking: rules.filter((rule) => upTo.has(rule.level) && rule.state !== 'pass' && rule.state !== 'exempt'),
  };
}

/** A stored change of a service's level on a scorecard; `rank` -1 is no level, NOT_APPLICABLE that it left the scorecard. */
export interface LevelChange {
  service: string;
  /** Epoch ms. */
  at: number;
  rank: number;
}

/** The rank a change records when a scorecard stops applying to a service (its results are dropped). */
export const NOT_APPLICABLE = -2;

/** Each service's rank as of `until` (exclusive), from its changes; services not on the scorecard are left out. */
export function ranksAt(changes: readonly LevelChange[], until: number): Map<string, number> {
  const ranks = new Map<string, number>();
  for (const change of [...changes].sort((a, b) => a.at - b.at)) {
    if (change.at >= until) break;
    if (change.rank === NOT_APPLICABLE) ranks.delete(change.service);
    else ranks.set(change.service, change.rank);
  }
  return ranks;
}

/**
 * How many services were at each rank at the end of each UTC day (`YYYY-MM-DD`, in order), replayed from the
 * changes: index 0 counts the services at no level, index r + 1 those at rank r.
 */
export function dailyLevelCounts(
  changes: readonly LevelChange[],
  days: readonly string[],
  levels: number,
): Array<{ date: string; counts: number[] }> {
  const sorted = [...changes].sort((a, b) => a.at - b.at);
  const ranks = new Map<string, number>();
  let next = 0;
  return days.map((date) => {
    const end = utcDayStart(date) + MS_PER_DAY;
    for (; next < sorted.length && sorted[next]!.at < end; next++) {
      const change = sorted[next]!;
      if (change.rank === NOT_APPLICABLE) ranks.delete(change.service);
      else ranks.set(change.service, change.rank);
    }
    const counts = Array.from({ length: levels + 1 }, () => 0);
    for (const rank of ranks.values()) counts[Math.min(rank, levels - 1) + 1]!++;
    return { date, counts };
  });
}

/** The services whose rank rose and fell between two times, most moved first. */
export function levelMovers(
  changes: readonly LevelChange[],
  from: number,
  to: number,
): {
  improved: Array<{ service: string; from: number; to: number }>;
  regressed: Array<{ service: string; from: number; to: number }>;
} {
  const before = ranksAt(changes, from);
  const after = ranksAt(changes, to);
  const moves = [...after].flatMap(([service, rank]) => {
    const was = before.get(service);
    return was === undefined || was === rank ? [] : [{ service, from: was, to: rank }];
  });
  const by = (a: { from: number; to: number }) => Math.abs(a.to - a.from);
  return {
    improved: moves.filter((m) => m.to > m.from).sort((a, b) => by(b) - by(a)),
    regressed: moves.filter((m) => m.to < m.from).sort((a, b) => by(b) - by(a)),
  };
}
