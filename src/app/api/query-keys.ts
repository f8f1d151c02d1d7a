/**
 * Every query key of the app, in one factory: a read and the writes that invalidate it name the same key, and
 * the prefixes (`keys.team(handle)` holds the team's members, services, runners, ...) are where invalidation
 * reaches. The shapes are stored in Dexie by the query persister: change one and what was seen offline is lost.
 */
import type { Page } from '../../domain/pagination.js';

export interface SearchPage extends Page {
  q: string;
}

export const keys = {
  services: () => ['services'] as const,
  serviceSearch: (params: SearchPage) => ['services', 'search', params] as const,

  /** Every service record (prefix). */
  anyService: () => ['service'] as const,
  service: (handle: string) => ['service', handle] as const,
  serviceHealthChecks: (handle: string) => ['service', handle, 'health-checks'] as const,
  serviceDailyHealth: (handle: string, from: string) => ['service', handle, 'health-daily', from] as const,
  /** Every notice list of a service (prefix); `noticeList` adds the filter. */
  serviceNotices: (handle: string) => ['notices', handle] as const,
  noticeList: (handle: string, filter: { type: string; status: string }) => ['notices', handle, filter] as const,
  healthCheckResults: (id: string) => ['health-check', id, 'results'] as const,
  /** A check's aggregates report ending now: the bucket size and how far back (a stable key, whatever the time). */
  healthCheckAggregates: (id: string, bucket: 'minute' | 'hour' | 'day', span: string) =>
    ['health-check', id, 'aggregates', bucket, span] as const,
  healthRollup: (handle: string, from: string, version: number) => ['health-rollup', handle, from, version] as const,
  serviceDependencies: (handle: string) => ['service', handle, 'dependencies'] as const,
  serviceDependents: (handle: string) => ['service', handle, 'dependents'] as const,
  serviceRemoteDependencies: (handle: string) => ['service', handle, 'remote-dependencies'] as const,
  /** Every graph of a service (prefix), and the graph at one depth. */
  serviceGraphs: (handle: string) => ['service', handle, 'graph'] as const,
  serviceGraph: (handle: string, depth: number) => ['service', handle, 'graph', depth] as const,
  remoteServiceSearch: (q: string) => ['remote-services', q] as const,

  /** The linked workspaces (admin area). */
  remotes: () => ['remotes'] as const,
  /** Slack for this workspace (settings, linked Slack workspaces), the SSO providers, a service's channels. */
  slackSettings: () => ['slack', 'settings'] as const,
  slackWorkspaces: () => ['slack', 'workspaces'] as const,
  ssoProviders: () => ['sso-providers'] as const,
  ssoProvider: (handle: string) => ['sso-providers', handle] as const,
  ssoLoginOption: () => ['sso-login-option'] as const,
  serviceChannels: (handle: string) => ['service', handle, 'channels'] as const,
  /** A service's SLO (prefix) and its status. */
  serviceSlo: (handle: string) => ['service', handle, 'slo'] as const,
  /** A service's results on the scorecards that apply to it. */
  serviceScorecards: (handle: string) => ['service', handle, 'scorecards'] as const,
  /** The scorecards (prefix), one scorecard, and a page of its results. */
  scorecards: () => ['scorecards'] as const,
  scorecard: (handle: string) => ['scorecards', handle] as const,
  scorecardHistory: (handle: string, to: string) => ['scorecards', handle, 'history', to] as const,
  scorecardResults: (handle: string, filter: { cursor: number; limit: number; level: string; team: string }) =>
    ['scorecards', handle, 'results', filter] as const,
  serviceSloStatus: (handle: string) => ['service', handle, 'slo', 'status'] as const,
  /** The operations whose answers break a service's published spec now (docs/decisions.md#spec-checks). */
  serviceDrift: (handle: string) => ['service', handle, 'drift'] as const,
  /** The checks a published spec proposes, from one server. */
  serviceSpecProbes: (handle: string, page: string, server: string) =>
    ['service', handle, 'spec-probes', page, server] as const,

  /** A service's published pages (prefix), a page of one section's list, and one published page. */
  servicePages: (service: string) => ['service', service, 'pages'] as const,
  publishedPages: (service: string, section: string, page: Page) =>
    ['service', service, 'pages', section, 'list', page] as const,
  publishedPage: (service: string, section: string, id: string) =>
    ['service', service, 'pages', section, 'page', id] as const,
  /** The overview's What's New: the latest announcement with its content. */
  latestAnnouncement: (service: string) => ['service', service, 'pages', 'latest-announcement'] as const,

  /** A service's drafts (prefix), a page of one section's drafts, and one draft. */
  drafts: (service: string) => ['service', service, 'drafts'] as const,
  draftList: (service: string, section: string, page: Page) =>
    ['service', service, 'drafts', 'list', section, page] as const,
  draft: (service: string, section: string, handle: string) => ['service', service, 'drafts', section, handle] as const,

  teams: () => ['teams'] as const,
  teamSearch: (params: SearchPage) => ['teams', 'search', params] as const,
  /** Every team record (prefix). */
  anyTeam: () => ['team'] as const,
  team: (handle: string) => ['team', handle] as const,
  teamMembers: (team: string, page?: Page) =>
    page ? (['team', team, 'members', page] as const) : (['team', team, 'members'] as const),
  teamServices: (team: string, page: Page) => ['team', team, 'services', page] as const,
  /** The home panel's list of one team's services (one largest page). */
  teamServicesAll: (team: string) => ['team', team, 'services', 'home'] as const,
  subTeams: (team: string, page: Page) => ['team', team, 'teams', page] as const,
  teamServiceCount: (team: string) => ['team', team, 'service-count'] as const,
  teamPublicFeed: (team: string) => ['team', team, 'public-feed'] as const,
  teamRunners: (team: string) => ['team', team, 'runners'] as const,
  teamClients: (team: string) => ['team', team, 'clients'] as const,
  teamPolicies: (team: string) => ['team', team, 'policies'] as const,

  users: () => ['users'] as const,
  userSearch: (params: SearchPage) => ['users', 'search', params] as const,
  invites: (params: Page) => ['invites', params] as const,
  user: (handle: string) => ['user', handle] as const,
  userStarred: (handle: string) => ['user', handle, 'starred'] as const,
  userTeams: (handle: string) => ['user', handle, 'teams'] as const,
  userFeed: (handle: string) => ['user', handle, 'feed'] as const,
  userPublicFeed: (handle: string) => ['user', handle, 'public-feed'] as const,
  userMuted: (handle: string) => ['user', handle, 'muted'] as const,
  userWatched: (handle: string) => ['user', handle, 'watched-services'] as const,

  /**
   * Billing (prefix) and its reads; never persisted offline (billing is online-only, docs/decisions.md#integrations).
   */
  billing: () => ['billing'] as const,
  billingAccount: () => ['billing', 'account'] as const,
  billingSubscription: () => ['billing', 'subscription'] as const,
  billingInvoices: () => ['billing', 'invoices'] as const,
  billingPaymentMethods: () => ['billing', 'payment-methods'] as const,
  billingUpcomingInvoice: (plan: string, quantity: number) => ['billing', 'upcoming-invoice', plan, quantity] as const,

  /**
   * Alerts (prefix): a page of the list by its filter (comma lists, '' for all), the open count of the main
   * navigation's badge, and one alert with its timeline.
   */
  alerts: () => ['alerts'] as const,
  alertLists: () => ['alerts', 'list'] as const,
  alertList: (filter: { team: string; severity: string; state: string; cursor: number; limit: number }) =>
    ['alerts', 'list', filter] as const,
  openAlertCount: () => ['alerts', 'open-count'] as const,
  alert: (id: string) => ['alerts', 'alert', id] as const,
  /** Alert channels (prefix): the workspace's, a team's own, one channel and its delivery log. */
  alertChannels: () => ['alert-channels'] as const,
  workspaceAlertChannels: () => ['alert-channels', 'workspace'] as const,
  teamAlertChannels: (team: string) => ['alert-channels', 'team', team] as const,
  alertChannel: (id: string) => ['alert-channels', 'channel', id] as const,
  alertChannelDeliveries: (id: string) => ['alert-channels', 'channel', id, 'deliveries'] as const,
  /** A team's alert policy (its own, or the workspace's default it falls back to). */
  teamAlertPolicy: (team: string) => ['team', team, 'alert-policy'] as const,

  /** The bell: the first page of a user's notifications with their unread count. */
  notifications: (handle: string) => ['notifications', handle] as const,
};
