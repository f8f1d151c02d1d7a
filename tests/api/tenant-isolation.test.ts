import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authHeaders,
  json,
  registerWorkspace,
  startTestServer,
  type Member,
  type TestServer,
} from '../support/server.js';
import { multipart, tinyPng } from '../support/images.js';
import { pathOf, type Operation } from '../../src/contract/operation.js';
import { billingOperations } from '../../src/contract/operations/billing.js';
import { pageOperations, sectionPageOperations } from '../../src/contract/operations/pages.js';

/**
 * Workspace A's token sent to every workspace-scoped route of workspace B must never answer with B's data or
 * change it. Every route the app registers must appear either here or in PUBLIC_ROUTES, so new routes join
 * this table as they are added.
 */
interface Probe {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  route: string;
  url: (b: Fixture) => string;
  payload?: (b: Fixture) => object;
  multipart?: boolean;
}

interface Fixture {
  owner: Member;
  inviteId: string;
  assetUrl: string;
  team: { id: string; handle: string };
  service: { id: string; handle: string };
  checkId: string;
  noticeId: string;
  clientHandle: string;
  runnerHandle: string;
  page: { id: string; handle: string };
  exemptionId: string;
  catalogPlanId: string;
  alertId: string;
  alertChannelId: string;
}

const svc = (b: Fixture) => `/api/services/${b.service.handle}`;
const team = (b: Fixture) => `/api/teams/${b.team.handle}`;

const SCOPED: Probe[] = [
  { method: 'GET', route: '/api/search/users', url: () => '/api/search/users' },
  { method: 'GET', route: '/api/users/:username', url: (b) => `/api/users/${b.owner.handle}` },
  {
    method: 'PATCH',
    route: '/api/users/:username',
    url: (b) => `/api/users/${b.owner.handle}`,
    payload: () => ({ name: 'Pwned' }),
  },
  {
    method: 'POST',
    route: '/api/users/:username/icon',
    url: (b) => `/api/users/${b.owner.handle}/icon`,
    multipart: true,
  },
  { method: 'DELETE', route: '/api/users/:username/icon', url: (b) => `/api/users/${b.owner.handle}/icon` },
  { method: 'DELETE', route: '/api/users/:username', url: (b) => `/api/users/${b.owner.handle}` },
  {
    method: 'POST',
    route: '/api/users/:userId/actions/change-role',
    url: (b) => `/api/users/${b.owner.id}/actions/change-role`,
    payload: () => ({ role: 'guest' }),
  },
  { method: 'GET', route: '/api/invites', url: () => '/api/invites' },
  {
    method: 'POST',
    route: '/api/invites',
    url: () => '/api/invites',
    payload: () => ({ email: 'intruder@example.com' }),
  },
  {
    method: 'POST',
    route: '/api/invites/:inviteId/actions/resend',
    url: (b) => `/api/invites/${b.inviteId}/actions/resend`,
  },
  { method: 'GET', route: '/api/assets/:assetId', url: (b) => b.assetUrl },
  // Teams.
  { method: 'GET', route: '/api/search/teams', url: () => '/api/search/teams' },
  { method: 'POST', route: '/api/teams', url: () => '/api/teams', payload: () => ({ name: 'X', handle: 'intruders' }) },
  { method: 'GET', route: '/api/teams/:team', url: team },
  { method: 'GET', route: '/api/team/:handle', url: (b) => `/api/team/${b.team.handle}` },
  { method: 'PATCH', route: '/api/teams/:team', url: team, payload: () => ({ name: 'Pwned' }) },
  { method: 'GET', route: '/api/teams/:team/policies', url: (b) => `${team(b)}/policies` },
  {
    method: 'PATCH',
    route: '/api/teams/:team/policies',
    url: (b) => `${team(b)}/policies`,
    payload: () => ({ members_create_services: true }),
  },
  { method: 'DELETE', route: '/api/teams/:team', url: team },
  { method: 'POST', route: '/api/teams/:team/icon', url: (b) => `${team(b)}/icon`, multipart: true },
  { method: 'DELETE', route: '/api/teams/:team/icon', url: (b) => `${team(b)}/icon` },
  { method: 'GET', route: '/api/teams/:team/members', url: (b) => `${team(b)}/members` },
  {
    method: 'POST',
    route: '/api/teams/:team/members',
    url: (b) => `${team(b)}/members`,
    payload: (b) => ({ user: { id: b.owner.id } }),
  },
  {
    method: 'PATCH',
    route: '/api/teams/:team/members/:user',
    url: (b) => `${team(b)}/members/${b.owner.handle}`,
    payload: () => ({ role: 'member' }),
  },
  {
    method: 'DELETE',
    route: '/api/teams/:team/members/:user',
    url: (b) => `${team(b)}/members/${b.owner.handle}`,
  },
  { method: 'GET', route: '/api/teams/:team/teams', url: (b) => `${team(b)}/teams` },
  {
    method: 'POST',
    route: '/api/teams/:team/teams',
    url: (b) => `${team(b)}/teams`,
    payload: () => ({ name: 'X', handle: 'intruders' }),
  },
  // Services.
  { method: 'GET', route: '/api/search/services', url: () => '/api/search/services' },
  { method: 'GET', route: '/api/teams/:team/services', url: (b) => `${team(b)}/services` },
  {
    method: 'POST',
    route: '/api/teams/:team/services',
    url: (b) => `${team(b)}/services`,
    payload: () => ({ name: 'X', handle: 'intruder' }),
  },
  { method: 'GET', route: '/api/services/:service', url: svc },
  { method: 'PATCH', route: '/api/services/:service', url: svc, payload: () => ({ name: 'Pwned' }) },
  { method: 'DELETE', route: '/api/services/:service', url: svc },
  {
    method: 'POST',
    route: '/api/services/:service/actions/reparent',
    url: (b) => `${svc(b)}/actions/reparent`,
    payload: (b) => ({ owner: { id: b.team.id } }),
  },
  {
    method: 'POST',
    route: '/api/services/:service/actions/change-health',
    url: (b) => `${svc(b)}/actions/change-health`,
    payload: () => ({ health: 'critical' }),
  },
  {
    method: 'POST',
    route: '/api/services/:service/actions/change-visibility',
    url: (b) => `${svc(b)}/actions/change-visibility`,
    payload: () => ({ visibility: 'public' }),
  },
  {
    method: 'POST',
    route: '/api/services/:service/actions/change-stage',
    url: (b) => `${svc(b)}/actions/change-stage`,
    payload: () => ({ stage: 'eol' }),
  },
  { method: 'POST', route: '/api/services/:service/icon', url: (b) => `${svc(b)}/icon`, multipart: true },
  { method: 'DELETE', route: '/api/services/:service/icon', url: (b) => `${svc(b)}/icon` },
  // Dependencies, remote dependencies, the graph and linked workspaces.
  { method: 'GET', route: '/api/services/:service/dependencies', url: (b) => `${svc(b)}/dependencies` },
  {
    method: 'POST',
    route: '/api/services/:service/dependencies',
    url: (b) => `${svc(b)}/dependencies`,
    payload: (b) => ({ service: { id: b.service.handle } }),
  },
  {
    method: 'DELETE',
    route: '/api/services/:service/dependencies/:dependency',
    url: (b) => `${svc(b)}/dependencies/${b.service.handle}`,
  },
  { method: 'GET', route: '/api/services/:service/dependents', url: (b) => `${svc(b)}/dependents` },
  {
    method: 'GET',
    route: '/api/services/:service/remote-dependencies',
    url: (b) => `${svc(b)}/remote-dependencies`,
  },
  {
    method: 'POST',
    route: '/api/services/:service/remote-dependencies',
    url: (b) => `${svc(b)}/remote-dependencies`,
    payload: () => ({ workspace: 'alpha', service: 'anything' }),
  },
  {
    method: 'DELETE',
    route: '/api/services/:service/remote-dependencies/:workspace/:remote',
    url: (b) => `${svc(b)}/remote-dependencies/alpha/anything`,
  },
  { method: 'GET', route: '/api/search-remotes/services', url: () => '/api/search-remotes/services' },
  { method: 'GET', route: '/api/services/:service/graph', url: (b) => `${svc(b)}/graph` },
  { method: 'GET', route: '/api/remotes', url: () => '/api/remotes' },
  // A service's SLO.
  { method: 'GET', route: '/api/services/:service/slo', url: (b) => `${svc(b)}/slo` },
  {
    method: 'PUT',
    route: '/api/services/:service/slo',
    url: (b) => `${svc(b)}/slo`,
    payload: () => ({ target: 99, window_days: 7 }),
  },
  { method: 'DELETE', route: '/api/services/:service/slo', url: (b) => `${svc(b)}/slo` },
  { method: 'GET', route: '/api/services/:service/slo/status', url: (b) => `${svc(b)}/slo/status` },
  {
    method: 'GET',
    route: '/api/services/:service/open-api-specs/:page/probes',
    url: (b) => `${svc(b)}/open-api-specs/${b.page.handle}/probes`,
  },
  { method: 'GET', route: '/api/services/:service/drift', url: (b) => `${svc(b)}/drift` },
  // Slack: settings, linked workspaces, chat connect and service channels.
  { method: 'GET', route: '/api/slack/settings', url: () => '/api/slack/settings' },
  { method: 'GET', route: '/api/slack-workspaces', url: () => '/api/slack-workspaces' },
  {
    method: 'POST',
    route: '/api/slack-workspaces',
    url: () => '/api/slack-workspaces',
    payload: () => ({ token: 'code' }),
  },
  {
    method: 'PATCH',
    route: '/api/slack-workspaces/:id',
    url: () => '/api/slack-workspaces/anything',
    payload: () => ({ token: 'code' }),
  },
  {
    method: 'POST',
    route: '/api/users/:username/actions/connect-to-slack',
    url: (b) => `/api/users/${b.owner.handle}/actions/connect-to-slack`,
    payload: () => ({ token: 'code' }),
  },
  { method: 'GET', route: '/api/services/:service/channels', url: (b) => `${svc(b)}/channels` },
  {
    method: 'POST',
    route: '/api/services/:service/channels',
    url: (b) => `${svc(b)}/channels`,
    payload: () => ({ provider: 'slack', channel: 'C1' }),
  },
  {
    method: 'PATCH',
    route: '/api/services/:service/channels/:provider',
    url: (b) => `${svc(b)}/channels/slack`,
    payload: () => ({ channel: 'C1' }),
  },
  { method: 'DELETE', route: '/api/services/:service/channels/:provider', url: (b) => `${svc(b)}/channels/slack` },
  // SSO providers.
  { method: 'GET', route: '/api/sso-providers', url: () => '/api/sso-providers' },
  {
    method: 'POST',
    route: '/api/sso-providers',
    url: () => '/api/sso-providers',
    payload: () => ({ handle: 'pwned', name: 'Pwned' }),
  },
  { method: 'GET', route: '/api/sso-providers/:provider', url: () => '/api/sso-providers/okta' },
  {
    method: 'PATCH',
    route: '/api/sso-providers/:provider',
    url: () => '/api/sso-providers/okta',
    payload: () => ({ name: 'Pwned' }),
  },
  { method: 'DELETE', route: '/api/sso-providers/:provider', url: () => '/api/sso-providers/okta' },
  // Status pages (admins); the readers are public (tests/api/status-pages.test.ts).
  { method: 'GET', route: '/api/status-pages', url: () => '/api/status-pages' },
  {
    method: 'POST',
    route: '/api/status-pages',
    url: () => '/api/status-pages',
    payload: () => ({ handle: 'pwned', title: 'Pwned' }),
  },
  { method: 'GET', route: '/api/status-pages/:page', url: () => '/api/status-pages/public' },
  {
    method: 'PATCH',
    route: '/api/status-pages/:page',
    url: () => '/api/status-pages/public',
    payload: () => ({ title: 'Pwned' }),
  },
  { method: 'DELETE', route: '/api/status-pages/:page', url: () => '/api/status-pages/public' },
  {
    method: 'POST',
    route: '/api/status-pages/:page/actions/verify-domain',
    url: () => '/api/status-pages/public/actions/verify-domain',
  },
  { method: 'GET', route: '/api/status-pages/:page/subscribers', url: () => '/api/status-pages/public/subscribers' },
  {
    method: 'DELETE',
    route: '/api/status-pages/:page/subscribers/:id',
    url: () => '/api/status-pages/public/subscribers/x',
  },
  // Scorecards (admins define; members read).
  { method: 'GET', route: '/api/scorecards', url: () => '/api/scorecards' },
  {
    method: 'POST',
    route: '/api/scorecards',
    url: () => '/api/scorecards',
    payload: () => ({ handle: 'pwned', name: 'Pwned', levels: [{ key: 'l', name: 'L' }], rules: [] }),
  },
  { method: 'GET', route: '/api/scorecards/:scorecard', url: () => '/api/scorecards/readiness' },
  {
    method: 'PATCH',
    route: '/api/scorecards/:scorecard',
    url: () => '/api/scorecards/readiness',
    payload: () => ({ name: 'Pwned' }),
  },
  { method: 'DELETE', route: '/api/scorecards/:scorecard', url: () => '/api/scorecards/readiness' },
  { method: 'GET', route: '/api/scorecards/:scorecard/results', url: () => '/api/scorecards/readiness/results' },
  { method: 'GET', route: '/api/scorecards/:scorecard/history', url: () => '/api/scorecards/readiness/history' },
  {
    method: 'POST',
    route: '/api/scorecards/:scorecard/exemptions',
    url: () => '/api/scorecards/readiness/exemptions',
    payload: (b) => ({
      service: b.service.handle,
      rule: 'described',
      reason: 'Pwned',
      expires_at: '2099-01-01T00:00:00Z',
    }),
  },
  {
    method: 'DELETE',
    route: '/api/scorecards/:scorecard/exemptions/:id',
    url: (b) => `/api/scorecards/readiness/exemptions/${b.exemptionId}`,
  },
  { method: 'GET', route: '/api/services/:service/scorecards', url: (b) => `${svc(b)}/scorecards` },
  // The catalogue as code.
  { method: 'GET', route: '/api/catalog/sources', url: () => '/api/catalog/sources' },
  {
    method: 'POST',
    route: '/api/catalog/sources',
    url: () => '/api/catalog/sources',
    payload: () => ({ name: 'pwned' }),
  },
  { method: 'GET', route: '/api/catalog/sources/:source', url: () => '/api/catalog/sources/bravo-repo' },
  {
    method: 'PATCH',
    route: '/api/catalog/sources/:source',
    url: () => '/api/catalog/sources/bravo-repo',
    payload: () => ({ name: 'pwned' }),
  },
  { method: 'DELETE', route: '/api/catalog/sources/:source', url: () => '/api/catalog/sources/bravo-repo' },
  {
    method: 'POST',
    route: '/api/catalog/sources/:source/actions/sync',
    url: () => '/api/catalog/sources/bravo-repo/actions/sync',
  },
  {
    method: 'POST',
    route: '/api/catalog/plans',
    url: () => '/api/catalog/plans',
    payload: () => ({ source: 'bravo-repo', files: [{ path: 'x.yaml', content: '' }] }),
  },
  {
    method: 'POST',
    route: '/api/catalog/plans/:plan/actions/apply',
    url: (b) => `/api/catalog/plans/${b.catalogPlanId}/actions/apply`,
  },
  { method: 'GET', route: '/api/catalog/entities', url: () => '/api/catalog/entities' },
  { method: 'GET', route: '/api/catalog/export', url: () => '/api/catalog/export' },
  // Feeds, notifications and the live stream.
  { method: 'GET', route: '/api/users/:username/feed', url: (b) => `/api/users/${b.owner.handle}/feed` },
  { method: 'GET', route: '/api/users/:username/public-feed', url: (b) => `/api/users/${b.owner.handle}/public-feed` },
  { method: 'GET', route: '/api/teams/:team/public-feed', url: (b) => `${team(b)}/public-feed` },
  {
    method: 'GET',
    route: '/api/users/:username/notifications',
    url: (b) => `/api/users/${b.owner.handle}/notifications`,
  },
  {
    method: 'POST',
    route: '/api/users/:username/notifications/actions/mark-read',
    url: (b) => `/api/users/${b.owner.handle}/notifications/actions/mark-read`,
    payload: () => ({}),
  },
  { method: 'GET', route: '/api/events/stream', url: () => '/api/events/stream' },
  { method: 'POST', route: '/api/remotes', url: () => '/api/remotes', payload: () => ({ remote: 'alpha' }) },
  { method: 'DELETE', route: '/api/remotes/:remote', url: () => '/api/remotes/alpha' },
  // Health checks and health reports.
  { method: 'GET', route: '/api/services/:service/health-checks', url: (b) => `${svc(b)}/health-checks` },
  {
    method: 'POST',
    route: '/api/services/:service/health-checks',
    url: (b) => `${svc(b)}/health-checks`,
    payload: () => ({ name: 'Intruder', endpoint: 'https://intruder.example' }),
  },
  {
    method: 'PATCH',
    route: '/api/health-checks/:id',
    url: (b) => `/api/health-checks/${b.checkId}`,
    payload: () => ({
      name: 'Pwned',
      endpoint: 'https://intruder.example',
      frequency: 15,
      timeout: 1,
      allowed_failures: 0,
      importance: 'critical',
      disabled: true,
      paused: true,
    }),
  },
  {
    method: 'POST',
    route: '/api/services/:service/health-checks/actions/test',
    url: (b) => `${svc(b)}/health-checks/actions/test`,
    payload: () => ({ name: 'Intruder', endpoint: 'https://intruder.example' }),
  },
  {
    method: 'POST',
    route: '/api/health-checks/:id/actions/rotate-ping-url',
    url: (b) => `/api/health-checks/${b.checkId}/actions/rotate-ping-url`,
  },
  {
    method: 'GET',
    route: '/api/services/:service/reports/service-health-daily',
    url: (b) => `${svc(b)}/reports/service-health-daily`,
  },
  {
    method: 'GET',
    route: '/api/health-checks/:id/reports/health-check-results',
    url: (b) => `/api/health-checks/${b.checkId}/reports/health-check-results`,
  },
  {
    method: 'GET',
    route: '/api/health-checks/:id/reports/health-check-aggregates',
    url: (b) => `/api/health-checks/${b.checkId}/reports/health-check-aggregates`,
  },
  // Alerts, their channels and policies.
  { method: 'GET', route: '/api/alerts', url: () => '/api/alerts' },
  { method: 'GET', route: '/api/alerts/:id', url: (b) => `/api/alerts/${b.alertId}` },
  {
    method: 'POST',
    route: '/api/alerts/:id/actions/acknowledge',
    url: (b) => `/api/alerts/${b.alertId}/actions/acknowledge`,
  },
  {
    method: 'POST',
    route: '/api/alerts/:id/actions/resolve',
    url: (b) => `/api/alerts/${b.alertId}/actions/resolve`,
    payload: () => ({ reason: 'Pwned' }),
  },
  { method: 'GET', route: '/api/alert-channels', url: () => '/api/alert-channels' },
  {
    method: 'POST',
    route: '/api/alert-channels',
    url: () => '/api/alert-channels',
    payload: () => ({ name: 'Pwned', kind: 'email', config: { addresses: ['pwned@example.com'] } }),
  },
  { method: 'GET', route: '/api/teams/:team/alert-channels', url: (b) => `${team(b)}/alert-channels` },
  {
    method: 'POST',
    route: '/api/teams/:team/alert-channels',
    url: (b) => `${team(b)}/alert-channels`,
    payload: () => ({ name: 'Pwned', kind: 'email', config: { addresses: ['pwned@example.com'] } }),
  },
  { method: 'GET', route: '/api/alert-channels/:id', url: (b) => `/api/alert-channels/${b.alertChannelId}` },
  {
    method: 'PATCH',
    route: '/api/alert-channels/:id',
    url: (b) => `/api/alert-channels/${b.alertChannelId}`,
    payload: () => ({ name: 'Pwned' }),
  },
  { method: 'DELETE', route: '/api/alert-channels/:id', url: (b) => `/api/alert-channels/${b.alertChannelId}` },
  {
    method: 'POST',
    route: '/api/alert-channels/:id/actions/test',
    url: (b) => `/api/alert-channels/${b.alertChannelId}/actions/test`,
  },
  {
    method: 'GET',
    route: '/api/alert-channels/:id/deliveries',
    url: (b) => `/api/alert-channels/${b.alertChannelId}/deliveries`,
  },
  { method: 'GET', route: '/api/alert-policy', url: () => '/api/alert-policy' },
  {
    method: 'PUT',
    route: '/api/alert-policy',
    url: () => '/api/alert-policy',
    payload: () => ({ rules: [] }),
  },
  { method: 'GET', route: '/api/teams/:team/alert-policy', url: (b) => `${team(b)}/alert-policy` },
  {
    method: 'PUT',
    route: '/api/teams/:team/alert-policy',
    url: (b) => `${team(b)}/alert-policy`,
    payload: () => ({ rules: [] }),
  },
  { method: 'GET', route: '/api/services/:service/alert-channels', url: (b) => `${svc(b)}/alert-channels` },
  {
    method: 'PUT',
    route: '/api/services/:service/alert-channels',
    url: (b) => `${svc(b)}/alert-channels`,
    payload: () => ({ channels: [] }),
  },
  // Notices.
  { method: 'GET', route: '/api/services/:service/notices', url: (b) => `${svc(b)}/notices` },
  {
    method: 'POST',
    route: '/api/services/:service/notices',
    url: (b) => `${svc(b)}/notices`,
    payload: () => ({ type: 'incident', title: 'Pwned', message: 'x', health: 'critical' }),
  },
  {
    method: 'PATCH',
    route: '/api/notices/:id',
    url: (b) => `/api/notices/${b.noticeId}`,
    payload: () => ({ status: 'resolved', message: 'Pwned', health: 'good' }),
  },
  // Team clients and runners, and the runner agent's calls.
  { method: 'GET', route: '/api/teams/:team/clients', url: (b) => `${team(b)}/clients` },
  { method: 'GET', route: '/api/teams/:team/clients/:client', url: (b) => `${team(b)}/clients/${b.clientHandle}` },
  {
    method: 'POST',
    route: '/api/teams/:team/clients',
    url: (b) => `${team(b)}/clients`,
    payload: () => ({ name: 'Intruder', description: 'x', scopes: ['beacon.team.read'] }),
  },
  {
    method: 'PATCH',
    route: '/api/teams/:team/clients/:client',
    url: (b) => `${team(b)}/clients/${b.clientHandle}`,
    payload: () => ({ scopes: ['beacon.service.manage'] }),
  },
  {
    method: 'POST',
    route: '/api/teams/:team/clients/:client/actions/update-secret',
    url: (b) => `${team(b)}/clients/${b.clientHandle}/actions/update-secret`,
  },
  { method: 'DELETE', route: '/api/teams/:team/clients/:client', url: (b) => `${team(b)}/clients/${b.clientHandle}` },
  { method: 'GET', route: '/api/teams/:team/runners', url: (b) => `${team(b)}/runners` },
  { method: 'GET', route: '/api/teams/:team/runners/:runner', url: (b) => `${team(b)}/runners/${b.runnerHandle}` },
  {
    method: 'POST',
    route: '/api/teams/:team/runners',
    url: (b) => `${team(b)}/runners`,
    payload: () => ({ name: 'Intruder', description: 'x' }),
  },
  {
    method: 'PUT',
    route: '/api/teams/:team/runners/:runner',
    url: (b) => `${team(b)}/runners/${b.runnerHandle}`,
    payload: () => ({ name: 'Pwned', description: 'x' }),
  },
  { method: 'DELETE', route: '/api/teams/:team/runners/:runner', url: (b) => `${team(b)}/runners/${b.runnerHandle}` },
  {
    method: 'POST',
    route: '/api/runners/:runner/actions/sync',
    url: (b) => `/api/runners/${b.runnerHandle}/actions/sync`,
    payload: () => ({}),
  },
  {
    method: 'POST',
    route: '/api/runners/:runner/results',
    url: (b) => `/api/runners/${b.runnerHandle}/results`,
    payload: (b) => ({
      results: [{ check_id: b.checkId, start: new Date().toISOString(), time: 1, success: false }],
    }),
  },
  // Stars, mutes, watched services, a user's teams, autocomplete.
  { method: 'GET', route: '/api/users/:username/starred', url: (b) => `/api/users/${b.owner.handle}/starred` },
  {
    method: 'PUT',
    route: '/api/users/:username/starred/:service',
    url: (b) => `/api/users/${b.owner.handle}/starred/${b.service.handle}`,
  },
  {
    method: 'DELETE',
    route: '/api/users/:username/starred/:service',
    url: (b) => `/api/users/${b.owner.handle}/starred/${b.service.handle}`,
  },
  { method: 'GET', route: '/api/users/:username/muted', url: (b) => `/api/users/${b.owner.handle}/muted` },
  {
    method: 'GET',
    route: '/api/users/:username/muted/:profile',
    url: (b) => `/api/users/${b.owner.handle}/muted/${b.service.id}`,
  },
  {
    method: 'PUT',
    route: '/api/users/:username/muted/:profile',
    url: (b) => `/api/users/${b.owner.handle}/muted/${b.team.id}`,
    payload: () => ({ activity: true, notifications: true }),
  },
  {
    method: 'PATCH',
    route: '/api/users/:username/muted/:profile',
    url: (b) => `/api/users/${b.owner.handle}/muted/${b.service.id}`,
    payload: () => ({ notifications: false }),
  },
  {
    method: 'DELETE',
    route: '/api/users/:username/muted/:profile',
    url: (b) => `/api/users/${b.owner.handle}/muted/${b.service.id}`,
  },
  { method: 'GET', route: '/api/users/:username/services', url: (b) => `/api/users/${b.owner.handle}/services` },
  { method: 'GET', route: '/api/users/:username/teams', url: (b) => `/api/users/${b.owner.handle}/teams` },
  { method: 'GET', route: '/api/autocomplete/teams', url: () => '/api/autocomplete/teams?q=b' },
  { method: 'GET', route: '/api/autocomplete/users', url: () => '/api/autocomplete/users?q=b' },
  { method: 'GET', route: '/api/autocomplete/services', url: () => '/api/autocomplete/services?q=b' },
];

// Pages, through both doors: every operation, aimed at B's announcement draft.
SCOPED.push(
  ...[pageOperations, ...Object.values(sectionPageOperations)]
    .flatMap((group) => Object.values<Operation>(group))
    .map((operation): Probe => ({
      method: operation.method,
      route: `/api${operation.path}`,
      url: (b) =>
        `/api${pathOf(operation, {
          service: b.service.handle,
          section: 'announcements',
          handle: b.page.handle,
          page: b.page.handle,
          id: b.page.id,
        })}`,
      // A body the contract accepts, so the request reaches authentication.
      payload: () =>
        [
          { section: 'announcements', title: 'Pwned', content: 'Pwned' },
          { title: 'Pwned', content: 'Pwned' },
          { title: 'Pwned', content: 'Pwned', lock: 1 },
          { content: 'Pwned', lock: 1 },
        ].find((body) => operation.body?.safeParse(body).success) ?? {},
    })),
);

// Billing: the account and every subscription action, on B's host (tests/api/billing.test.ts has the rest).
SCOPED.push(
  ...Object.values<Operation>(billingOperations).map((operation): Probe => ({
    method: operation.method,
    route: `/api${operation.path}`,
    url: () => `/api${operation.path}`,
    payload: () =>
      [
        {},
        { plan: 'team', payment_method_id: 'pm_card_visa', quantity: 2 },
        { plan: 'team', quantity: 2 },
        { payment_method_id: 'pm_card_visa' },
        { id: 'pm_card_visa' },
        { invoice_id: 'in_1', payment_method_id: 'pm_card_visa' },
      ].find((body) => operation.body?.safeParse(body).success) ?? {},
  })),
);

/** Routes that need no token: they are public or authenticate otherwise (tested in their own files). */
const PUBLIC_ROUTES = [
  'GET /api/healthz',
  'GET /api/livez',
  'GET /api/openapi.json',
  'GET /api/workspace',
  'POST /api/session',
  'DELETE /api/session',
  'POST /api/token',
  'POST /api/register',
  'POST /api/registration/register-workspace',
  'POST /api/forgot-password',
  'POST /api/reset-password',
  'POST /api/users',
  // SAML: browsers and identity providers, by the host's workspace (tests/api/sso.test.ts).
  'GET /api/sso/login-option',
  'GET /api/sso/:provider/metadata',
  'GET /api/sso/:provider/login',
  'POST /api/sso/:provider/acs',
  'GET /api/sso/:provider/slo',
  'POST /api/sso/:provider/slo',
  // Stripe's webhook: no token, its signature instead (tests/api/billing.test.ts).
  'POST /api/stripe/webhook',
  // Heartbeat pings: no token, the secret in the URL, on its own workspace's host only (check-kinds.test.ts).
  ...['', '/start', '/fail'].flatMap((suffix) => [
    `GET /api/heartbeats/:token${suffix}`,
    `POST /api/heartbeats/:token${suffix}`,
  ]),
  // Status pages' readers: by the host's workspace or custom domain, a password cookie or a session of the
  // workspace (status-pages.test.ts reaches another workspace's page through this host and gets 404).
  'GET /api/status/:page/summary.json',
  'GET /api/status/:page/view',
  'GET /api/status/:page/history',
  'GET /api/status/:page/shields/:service.json',
  'POST /api/status/:page/unlock',
  'POST /api/status/:page/subscriptions',
  'POST /api/status/:page/unsubscribe',
  'POST /api/status/:page/subscriptions/confirm',
  'GET /status/:page',
  'GET /status/:page/*',
  // The vendors' answers to alerts: verified by a told channel's secret (or Slack's signing secret), and the alert
  // they name is found by its id whatever the host (alerts.test.ts).
  'POST /api/integrations/pagerduty',
  'POST /api/integrations/opsgenie',
  'POST /api/integrations/slack/actions',
  // An alert's acknowledge link: the signed token names one alert of the host's workspace (alert-links.test.ts).
  'GET /alerts/:id/ack',
  'POST /alerts/:id/ack',
  // The web app's pages and files (public; the app asks the API for everything else).
  'GET /',
  'GET /index.html',
  // The login card prerendered at build time: the host's workspace is not in it (tests/api/web.test.ts).
  'GET /login',
  // The installed app's manifest, named after the host's workspace (its name only).
  'GET /manifest.webmanifest',
  // The same rules for every host (status pages may be indexed, the app not): it names no workspace's data.
  'GET /robots.txt',
  'GET /*',
];

let server: TestServer;
let a: Member;
let b: Fixture;

beforeAll(async () => {
  server = await startTestServer();
  a = await registerWorkspace(server, 'alpha');
  const bOwner = await registerWorkspace(server, 'bravo');
  const invite = await server.app.inject({
    method: 'POST',
    url: '/api/invites',
    headers: authHeaders(bOwner),
    payload: { email: 'guest@bravo.example' },
  });
  const body = multipart('icon', 'x.png', 'image/png', tinyPng());
  const icon = await server.app.inject({
    method: 'POST',
    url: `/api/users/${bOwner.handle}/icon`,
    headers: { ...authHeaders(bOwner), ...body.headers },
    payload: body.payload,
  });
  // A team and a service in B, starred and muted by B's owner, so every probe has something to aim at.
  const createdTeam = await server.app.inject({
    method: 'POST',
    url: '/api/teams',
    headers: authHeaders(bOwner),
    payload: { name: 'Bravo Core', handle: 'core' },
  });
  const createdService = await server.app.inject({
    method: 'POST',
    url: '/api/teams/core/services',
    headers: authHeaders(bOwner),
    payload: { name: 'Bravo Gateway', handle: 'gateway' },
  });
  const service = json<{ id: string; handle: string }>(createdService);
  const check = await server.app.inject({
    method: 'POST',
    url: '/api/services/gateway/health-checks',
    headers: authHeaders(bOwner),
    payload: { name: 'Gateway up', endpoint: 'https://gateway.bravo.example/health' },
  });
  const notice = await server.app.inject({
    method: 'POST',
    url: '/api/services/gateway/notices',
    headers: authHeaders(bOwner),
    payload: { type: 'maintenance', title: 'Gateway upgrade', message: 'Tonight' },
  });
  await server.app.inject({
    method: 'PUT',
    url: `/api/users/${bOwner.handle}/starred/gateway`,
    headers: authHeaders(bOwner),
  });
  await server.app.inject({
    method: 'PUT',
    url: `/api/users/${bOwner.handle}/muted/${service.id}`,
    headers: authHeaders(bOwner),
    payload: { activity: true, notifications: true },
  });
  const client = await server.app.inject({
    method: 'POST',
    url: '/api/teams/core/clients',
    headers: authHeaders(bOwner),
    payload: { name: 'Bravo Bot', description: 'Automation', scopes: ['beacon.team.read'] },
  });
  const runner = await server.app.inject({
    method: 'POST',
    url: '/api/teams/core/runners',
    headers: authHeaders(bOwner),
    payload: { name: 'Bravo Runner', description: 'In the bravo network', handle: 'bravo-runner' },
  });
  const page = await server.app.inject({
    method: 'POST',
    url: '/api/services/gateway/announcement-drafts',
    headers: authHeaders(bOwner),
    payload: { title: 'Bravo news', content: 'Only for bravo' },
  });
  await server.app.inject({
    method: 'POST',
    url: '/api/scorecards',
    headers: authHeaders(bOwner),
    payload: {
      handle: 'readiness',
      name: 'Bravo readiness',
      levels: [{ key: 'bronze', name: 'Bronze' }],
      rules: [
        {
          key: 'described',
          name: 'Described',
          level: 'bronze',
          evaluator: 'field_set',
          params: { field: 'description' },
        },
      ],
    },
  });
  const exemption = await server.app.inject({
    method: 'POST',
    url: '/api/scorecards/readiness/exemptions',
    headers: authHeaders(bOwner),
    payload: { service: 'gateway', rule: 'described', reason: 'Bravo only', expires_at: '2099-01-01T00:00:00Z' },
  });
  await server.app.inject({
    method: 'POST',
    url: '/api/catalog/sources',
    headers: authHeaders(bOwner),
    payload: { name: 'bravo-repo' },
  });
  const catalogPlan = await server.app.inject({
    method: 'POST',
    url: '/api/catalog/plans',
    headers: authHeaders(bOwner),
    payload: {
      source: 'bravo-repo',
      files: [{ path: 'catalog-info.yaml', content: 'kind: Group\nmetadata:\n  name: bravo-team\nspec: {}\n' }],
    },
  });
  // An alert channel and an open alert in B: an incident that makes the service critical opens one.
  const alertChannel = await server.app.inject({
    method: 'POST',
    url: '/api/alert-channels',
    headers: authHeaders(bOwner),
    payload: { name: 'Bravo mail', kind: 'email', config: { addresses: ['ops@bravo.example'] } },
  });
  await server.app.inject({
    method: 'POST',
    url: '/api/services/gateway/notices',
    headers: authHeaders(bOwner),
    payload: { type: 'incident', title: 'Bravo outage', message: 'Down', health: 'critical' },
  });
  const alerts = await server.app.inject({ method: 'GET', url: '/api/alerts', headers: authHeaders(bOwner) });
  b = {
    alertId: json<Array<{ id: string }>>(alerts)[0]!.id,
    alertChannelId: json<{ id: string }>(alertChannel).id,
    catalogPlanId: json<{ id: string }>(catalogPlan).id,
    exemptionId: json<{ id: string }>(exemption).id,
    page: json<{ id: string; handle: string }>(page),
    owner: bOwner,
    inviteId: json<{ id: string }>(invite).id,
    assetUrl: json<{ thumbnail_url: string }>(icon).thumbnail_url,
    team: json<{ id: string; handle: string }>(createdTeam),
    service: { id: service.id, handle: service.handle },
    checkId: json<{ id: string }>(check).id,
    noticeId: json<{ id: string }>(notice).id,
    clientHandle: json<{ handle: string }>(client).handle,
    runnerHandle: json<{ handle: string }>(runner).handle,
  };
});
afterAll(() => server.close());

describe('tenant isolation', () => {
  it('covers every registered route', () => {
    const listed = new Set([...SCOPED.map((p) => `${p.method} ${p.route}`), ...PUBLIC_ROUTES]);
    const registered = server.app.beaconRoutes.map((r) => `${r.method} ${r.url}`);
    expect(registered.filter((r) => !listed.has(r))).toEqual([]);
  });

  it.each(SCOPED.map((probe) => [`${probe.method} ${probe.route}`, probe] as const))(
    '%s with a token of another workspace is refused',
    async (_name, probe) => {
      const upload = probe.multipart ? multipart('icon', 'x.png', 'image/png', tinyPng()) : undefined;
      const response = await server.app.inject({
        method: probe.method,
        url: probe.url(b),
        // A's token, sent to B's host.
        headers: { ...authHeaders(a, 'bravo'), ...(upload?.headers ?? {}) },
        ...(upload ? { payload: upload.payload } : probe.payload ? { payload: probe.payload(b) } : {}),
      });
      expect(response.statusCode, response.body).toBe(401);
      expect(response.body).not.toContain(b.owner.email);
      expect(response.body).not.toContain('bravo');
    },
  );

  it('left workspace B unchanged', async () => {
    const owner = json(
      await server.app.inject({ method: 'GET', url: `/api/users/${b.owner.handle}`, headers: authHeaders(b.owner) }),
    );
    expect(owner).toMatchObject({ name: 'Owner of bravo', role: 'owner', thumbnail_url: b.assetUrl });
    const invites = await server.app.inject({ method: 'GET', url: '/api/invites', headers: authHeaders(b.owner) });
    expect(json<Array<{ email: string }>>(invites).map((i) => i.email)).toEqual(['guest@bravo.example']);
    const read = async (url: string) =>
      json(await server.app.inject({ method: 'GET', url, headers: authHeaders(b.owner) }));
    expect(await read(team(b))).toMatchObject({ name: 'Bravo Core', thumbnail_url: null, member_count: 1 });
    expect(await read(`${team(b)}/teams`)).toEqual([]);
    // B's own incident made it critical (and opened B's alert).
    expect(await read(svc(b))).toMatchObject({
      name: 'Bravo Gateway',
      health: 'critical',
      visibility: 'workspace',
      stage: 'development',
      thumbnail_url: null,
      starred: true,
      starred_count: 1,
      owner: { handle: 'core' },
    });
    expect(await read(`/api/alerts/${b.alertId}`)).toMatchObject({ state: 'open', severity: 'critical', reason: null });
    expect(await read('/api/alert-channels')).toEqual([
      expect.objectContaining({ id: b.alertChannelId, name: 'Bravo mail' }),
    ]);
    expect(await read('/api/alert-policy')).toMatchObject({ source: 'none', rules: [] });
    expect(await read(`${team(b)}/alert-policy`)).toMatchObject({ source: 'none' });
    expect(await read(`${svc(b)}/alert-channels`)).toEqual([]);
    expect(await read(`/api/alert-channels/${b.alertChannelId}/deliveries`)).toEqual([]);
    expect(await read(`/api/users/${b.owner.handle}/muted`)).toMatchObject([
      { profile: { id: b.service.id }, activity: true, notifications: true },
    ]);
    expect(await read(`${svc(b)}/health-checks`)).toEqual([
      expect.objectContaining({ id: b.checkId, name: 'Gateway up', importance: 'warning', disabled: false }),
    ]);
    expect(await read(`${svc(b)}/notices`)).toEqual([
      expect.objectContaining({ title: 'Bravo outage', status: 'investigating', health: 'critical' }),
      expect.objectContaining({
        id: b.noticeId,
        title: 'Gateway upgrade',
        status: 'scheduled',
        history: [expect.anything()],
      }),
    ]);
    expect(await read('/api/search/services')).toHaveLength(1);
    expect(await read('/api/search/teams')).toHaveLength(1);
    expect(await read(`${team(b)}/clients`)).toEqual([
      expect.objectContaining({ handle: b.clientHandle, scopes: ['beacon.team.read'] }),
    ]);
    expect(await read(`${team(b)}/runners`)).toEqual([
      expect.objectContaining({ handle: b.runnerHandle, name: 'Bravo Runner', sync_status: 'never', last_sync: null }),
    ]);
    expect(await read(`/api/health-checks/${b.checkId}/reports/health-check-results`)).toEqual([]);
    expect(await read(`/api/announcement-drafts/${b.page.id}`)).toMatchObject({
      title: 'Bravo news',
      content: 'Only for bravo',
      lock: 1,
      published_at: null,
    });
    expect(await read('/api/scorecards')).toEqual([
      expect.objectContaining({ handle: 'readiness', name: 'Bravo readiness' }),
    ]);
    expect(await read('/api/catalog/sources')).toEqual([
      expect.objectContaining({ name: 'bravo-repo', last_sync: null }),
    ]);
    expect((await read('/api/search/teams')) as unknown[]).not.toContainEqual(
      expect.objectContaining({ handle: 'bravo-team' }),
    );
    expect(await read(`${svc(b)}/scorecards`)).toEqual([
      expect.objectContaining({
        level: 'bronze',
        rules: [
          expect.objectContaining({ state: 'exempt', exemption: expect.objectContaining({ id: b.exemptionId }) }),
        ],
      }),
    ]);
  });

  it("A's own routes never reach B's records by id either", async () => {
    const byId = await server.app.inject({ method: 'GET', url: `/api/users/${b.owner.id}`, headers: authHeaders(a) });
    expect(byId.statusCode).toBe(404);
    const resend = await server.app.inject({
      method: 'POST',
      url: `/api/invites/${b.inviteId}/actions/resend`,
      headers: authHeaders(a),
    });
    expect(resend.statusCode).toBe(404);
    // A's own host, B's page id.
    for (const url of [`/api/announcement-drafts/${b.page.id}`, `/api/announcements/${b.page.id}`]) {
      expect((await server.app.inject({ method: 'GET', url, headers: authHeaders(a) })).statusCode, url).toBe(404);
    }
    const asset = await server.app.inject({ method: 'GET', url: b.assetUrl, headers: authHeaders(a) });
    expect(asset.statusCode).toBe(404);
    const role = await server.app.inject({
      method: 'POST',
      url: `/api/users/${b.owner.id}/actions/change-role`,
      headers: authHeaders(a),
      payload: { role: 'guest' },
    });
    expect(role.statusCode).toBe(404);
    const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      server.app.inject({ method, url, headers: authHeaders(a), ...(payload ? { payload } : {}) });
    expect((await inject('GET', `/api/teams/${b.team.id}`)).statusCode).toBe(404);
    expect((await inject('GET', `/api/services/${b.service.id}`)).statusCode).toBe(404);
    expect((await inject('GET', `/api/health-checks/${b.checkId}/reports/health-check-results`)).statusCode).toBe(404);
    expect((await inject('PUT', `/api/users/${a.handle}/starred/${b.service.id}`)).statusCode).toBe(404);
    const notice = await server.app.inject({
      method: 'PATCH',
      url: `/api/notices/${b.noticeId}`,
      headers: authHeaders(a),
      payload: { status: 'completed', message: 'Pwned', health: 'good' },
    });
    expect(notice.statusCode).toBe(404);
    expect((await inject('PUT', `/api/users/${a.handle}/muted/${b.team.id}`, {})).statusCode).toBe(404);
    // A's own service cannot be moved into B's team, nor can B's owner join A's team.
    await inject('POST', '/api/teams', { name: 'Alpha', handle: 'alpha-team' });
    await inject('POST', '/api/teams/alpha-team/services', { name: 'Alpha API', handle: 'alpha-api' });
    const reparent = await inject('POST', '/api/services/alpha-api/actions/reparent', { owner: { id: b.team.id } });
    expect(reparent.statusCode).toBe(400);
    const join = await inject('POST', '/api/teams/alpha-team/members', { user: { id: b.owner.id } });
    expect(join.statusCode).toBe(404);
    const found = await inject('GET', '/api/autocomplete/services?q=gateway');
    expect(json(found)).toEqual([]);
  });
});
