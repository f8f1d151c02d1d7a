/**
 * Public status pages (docs/decisions.md#status-pages, issue 27): how a service's health reads to its customers, what a
 * page's overall line says, its 90 days of bars, and how trouble upstream shows without touching a component's own
 * figures. Pure: the server renders with it, the app's admin screen previews with it.
 */
import type { Health } from './catalogue.js';
import {
  healthRank,
  type DailyHealth,
  problemSeconds,
  SECONDS_PER_DAY,
  statusOfDay,
  utcDate,
  utcDayStart,
  MS_PER_DAY,
} from './health.js';

export const STATUS_PAGE_ACCESS = ['public', 'password', 'members'] as const;
export type StatusPageAccess = (typeof STATUS_PAGE_ACCESS)[number];

/** A custom domain serves its page only once verified (issue 48): a TXT record proved it. */
export const CUSTOM_DOMAIN_STATUSES = ['pending', 'verified'] as const;
export type CustomDomainStatus = (typeof CUSTOM_DOMAIN_STATUSES)[number];

/** The DNS name whose TXT record proves a custom domain. */
export const domainChallengeName = (domain: string) => `_beacon-challenge.${domain}`;

/** How far upstream a page looks (docs/decisions.md#status-pages): 1-6 steps, 3 unless the admin says otherwise. */
export const UPSTREAM_DEPTH = { min: 1, max: 6, default: 3 } as const;

/** Statuspage's component statuses, mildest first. */
export const COMPONENT_STATUSES = [
  'operational',
  'under_maintenance',
  'degraded_performance',
  'partial_outage',
  'major_outage',
] as const;
export type ComponentStatus = (typeof COMPONENT_STATUSES)[number];

const STATUS_OF_HEALTH: Record<Health, ComponentStatus> = {
  good: 'operational',
  maintenance: 'under_maintenance',
  warning: 'degraded_performance',
  error: 'partial_outage',
  critical: 'major_outage',
};

/** The words a visitor reads for each status (never the colour alone). */
export const COMPONENT_STATUS_LABELS: Record<ComponentStatus, string> = {
  operational: 'Operational',
  under_maintenance: 'Under maintenance',
  degraded_performance: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
};

export function componentStatusOf(health: Health): ComponentStatus {
  return STATUS_OF_HEALTH[health];
}

export function componentStatusRank(status: ComponentStatus): number {
  return COMPONENT_STATUSES.indexOf(status);
}

/** Statuspage's page indicator. */
export const PAGE_INDICATORS = ['none', 'minor', 'major', 'critical', 'maintenance'] as const;
export type PageIndicator = (typeof PAGE_INDICATORS)[number];

const INDICATOR_OF_STATUS: Record<ComponentStatus, PageIndicator> = {
  operational: 'none',
  under_maintenance: 'maintenance',
  degraded_performance: 'minor',
  partial_outage: 'major',
  major_outage: 'critical',
};

export const INDICATOR_DESCRIPTIONS: Record<PageIndicator, string> = {
  none: 'All Systems Operational',
  minor: 'Partially Degraded Service',
  major: 'Partial System Outage',
  critical: 'Major System Outage',
  maintenance: 'Service Under Maintenance',
};

/** The page's overall line from its components' own statuses: the worst one decides. */
export function pageStatus(statuses: readonly ComponentStatus[]): { indicator: PageIndicator; description: string } {
  let worst: ComponentStatus = 'operational';
  for (const status of statuses) if (componentStatusRank(status) > componentStatusRank(worst)) worst = status;
  const indicator = INDICATOR_OF_STATUS[worst];
  return { indicator, description: INDICATOR_DESCRIPTIONS[indicator] };
}

// ---- bars ----

export interface StatusDay {
  date: string;
  /** Percent of the day's elapsed time without a problem, two decimals; null when there is no data. */
  uptime: number | null;
  status: ComponentStatus | 'no_data';
}

/**
 * The last `count` UTC days up to `now`'s day, oldest first, from a daily-health report: a day before the
 * service existed (or missing from the report) is "no data", never 100 %. Today weighs what has passed of it.
 */
export function statusDays(
  report: readonly DailyHealth[],
  options: { now: number; createdAt: number; count: number },
): StatusDay[] {
  const byDate = new Map(report.map((day) => [day.date, day]));
  const today = utcDayStart(utcDate(options.now));
  const days: StatusDay[] = [];
  for (let index = options.count - 1; index >= 0; index--) {
    const start = today - index * MS_PER_DAY;
    const date = utcDate(start);
    const day = byDate.get(date);
    const end = Math.min(start + MS_PER_DAY, options.now);
    const from = Math.max(start, options.createdAt);
    if (!day || end <= from) {
      days.push({ date, uptime: null, status: 'no_data' });
      continue;
    }
    const seconds = Math.max(1, Math.round((end - from) / 1000));
    const percent = 100 - (100 * Math.min(problemSeconds(day), seconds)) / Math.min(seconds, SECONDS_PER_DAY);
    days.push({ date, uptime: Math.round(percent * 100) / 100, status: componentStatusOf(statusOfDay(day)) });
  }
  return days;
}

/** Seconds observed (the days with data, as much of each as has passed) and seconds of them with a problem. */
export interface UptimeSeconds {
  observed: number;
  problem: number;
}

/** The seconds uptimeOver weighs, from some days of a report: those of two parts of a report add up. */
export function uptimeSeconds(
  report: readonly DailyHealth[],
  options: { now: number; createdAt: number; count: number },
): UptimeSeconds {
  let problem = 0;
  let observed = 0;
  const first = utcDayStart(utcDate(options.now)) - (options.count - 1) * MS_PER_DAY;
  for (const day of report) {
    const start = utcDayStart(day.date);
    if (start < first) continue;
    const from = Math.max(start, options.createdAt);
    const end = Math.min(start + MS_PER_DAY, options.now);
    if (end <= from) continue;
    const seconds = (end - from) / 1000;
    observed += seconds;
    problem += Math.min(problemSeconds(day), seconds);
  }
  return { observed, problem };
}

/** Uptime in percent (two decimals) of some seconds; null when none was observed. */
export function uptimeOfSeconds({ observed, problem }: UptimeSeconds): number | null {
  if (observed === 0) return null;
  return Math.round((100 - (100 * problem) / observed) * 100) / 100;
}

/** Uptime over the days with data, weighted by how much of each was observed; null when none has data. */
export function uptimeOver(
  report: readonly DailyHealth[],
  options: { now: number; createdAt: number; count: number },
): number | null {
  return uptimeOfSeconds(uptimeSeconds(report, options));
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Mar 5: 99.31% uptime, 1 incident": the name a day's bar carries for keyboards and screen readers. */
export function dayLabel(day: StatusDay, notices: number): string {
  // From the date's own digits: a page names tens of thousands of days, and Intl costs microseconds each.
  const [year, month, date] = day.date.split('-');
  const when = `${MONTHS[Number(month) - 1]} ${Number(date)}, ${year}`;
  const uptime = day.uptime === null ? 'no data' : `${day.uptime.toFixed(2)}% uptime`;
  const status = day.status === 'no_data' ? '' : `, ${COMPONENT_STATUS_LABELS[day.status].toLowerCase()}`;
  const counted = notices === 0 ? '' : `, ${notices} notice${notices === 1 ? '' : 's'}`;
  return `${when}: ${uptime}${status}${counted}`;
}

// ---- upstream ----

/** A service a component may depend on, as the page's walk sees it. */
export interface UpstreamNode {
  /** Handle, or `workspace:handle` for a linked workspace's service. */
  id: string;
  name: string;
  health: Health;
  /** What it depends on (ids); a linked workspace's service is a leaf. */
  dependencies: readonly string[];
}

export interface UpstreamImpact {
  path: string[];
  names: string[];
  status: ComponentStatus;
}

/** At most this many upstream problems are listed per component (the worst first). */
export const UPSTREAM_IMPACTS_MAX = 5;

/**
 * Each service with a problem that `root` depends on within `depth` steps, by the shortest path to it (from the
 * root's direct dependency to that service), worst first, then nearest, then by id; at most
 * UPSTREAM_IMPACTS_MAX. The root's own health is not looked at: impact never changes its own figures.
 */
export function upstreamImpacts(
  root: string,
  nodes: ReadonlyMap<string, UpstreamNode>,
  depth: number,
): UpstreamImpact[] {
  const previous = new Map<string, string | null>([[root, null]]);
  let frontier = [root];
  const found: { id: string; steps: number }[] = [];
  for (let step = 1; step <= depth && frontier.length > 0; step++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const dependency of nodes.get(id)?.dependencies ?? []) {
        if (previous.has(dependency) || !nodes.has(dependency)) continue;
        previous.set(dependency, id);
        next.push(dependency);
        if (nodes.get(dependency)!.health !== 'good') found.push({ id: dependency, steps: step });
      }
    }
    frontier = next;
  }
  const pathTo = (id: string): string[] => {
    const path: string[] = [];
    for (let at: string | null = id; at !== null && at !== root; at = previous.get(at) ?? null) path.unshift(at);
    return path;
  };
  return found
    .sort(
      (a, b) =>
        healthRank(nodes.get(b.id)!.health) - healthRank(nodes.get(a.id)!.health) ||
        a.steps - b.steps ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, UPSTREAM_IMPACTS_MAX)
    .map(({ id }) => {
      const path = pathTo(id);
      return {
        path,
        names: path.map((step) => nodes.get(step)!.name),
        status: componentStatusOf(nodes.get(id)!.health),
      };
    });
}

/** "Affected: depends on Payments → Database (major outage)". */
export function impactText(impact: UpstreamImpact): string {
  return `Affected: depends on ${impact.names.join(' → ')} (${COMPONENT_STATUS_LABELS[impact.status].toLowerCase()})`;
}

// ---- badges ----

/** Colours of badges and bars, each status also named in words wherever it is drawn. */
export const COMPONENT_STATUS_COLORS: Record<ComponentStatus | 'no_data', string> = {
  operational: '#15803d',
  under_maintenance: '#1d4ed8',
  degraded_performance: '#a16207',
  partial_outage: '#c2410c',
  major_outage: '#b91c1c',
  no_data: '#6b7280',
};

/** Shields.io's colour of an uptime figure. */
export function uptimeColor(uptime: number | null): string {
  if (uptime === null) return 'lightgrey';
  if (uptime >= 99.9) return 'brightgreen';
  if (uptime >= 99) return 'green';
  if (uptime >= 95) return 'yellow';
  if (uptime >= 90) return 'orange';
  return 'red';
}

/** Uptime over the last `count` days of bars that have data (each such day weighs the same); null when none has. */
export function recentUptime(days: readonly StatusDay[], count: number): number | null {
  const observed = days.slice(-count).flatMap((day) => (day.uptime === null ? [] : [day.uptime]));
  if (observed.length === 0) return null;
  return Math.round((observed.reduce((sum, uptime) => sum + uptime, 0) / observed.length) * 100) / 100;
}
