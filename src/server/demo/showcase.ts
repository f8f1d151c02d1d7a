import type { ServerContext } from '../context.js';
import type { ScorecardCreate } from '../../contract/scorecards.js';
import type { Caller } from '../services/accounts/auth.js';
import { updateServiceFields } from '../services/catalogue/services.js';
import { createNotice } from '../services/notices/notices.js';
import { createScorecard } from '../services/reliability/scorecards.js';
import { setSlo } from '../services/reliability/slo.js';
import { createStatusPage, listStatusPages } from '../services/status-pages/status-pages.js';

/**
 * What only Beacon does, seeded so a newcomer sees it in the first minute: a public status page whose Checkout
 * is affected by a failing service of the linked cloud, an SLO burning its budget beside one holding, and two
 * scorecards the services reach at different levels. Made once, when the demo workspace has no status page.
 */
export const DEMO_STATUS_PAGE = 'shop';

/** The cloud's storage fails now: Checkout reaches it through the message bus, so the page shows it upstream. */
export async function seedCloudOutage(ctx: ServerContext, cloud: Caller): Promise<void> {
  await createNotice(ctx, cloud, 'object-storage', {
    type: 'incident',
    title: 'Elevated error rates',
    message: 'Writes to buckets in one region fail for some requests.',
    health: 'error',
  });
}

/** Links the scorecards read: runbooks and dashboards on some services, none on others. */
const DEMO_LINKS: Record<string, Array<{ name: string; url: string }>> = {
  checkout: [
    { name: 'Runbook', url: 'https://wiki.demo.beacon.test/runbooks/checkout' },
    { name: 'Grafana dashboard', url: 'https://grafana.demo.beacon.test/d/checkout' },
  ],
  search: [{ name: 'Runbook', url: 'https://wiki.demo.beacon.test/runbooks/search' }],
  identity: [{ name: 'Runbook', url: 'https://wiki.demo.beacon.test/runbooks/identity' }],
  'api-gateway': [{ name: 'Grafana dashboard', url: 'https://grafana.demo.beacon.test/d/gateway' }],
};

/**
 * Checkout has been slow for the last hour (the story's warning), so 99.9 % burns its budget a thousand times
 * too fast; Search's two critical hours five days ago fit well inside 99.5 %.
 */
const DEMO_SLOS: Array<{ service: string; target: number }> = [
  { service: 'checkout', target: 99.9 },
  { service: 'search', target: 99.5 },
];

export const DEMO_SCORECARDS: ScorecardCreate[] = [
  {
    handle: 'operational-maturity',
    name: 'Operational maturity',
    description: 'What every service we run grows into.',
    levels: [
      { key: 'bronze', name: 'Bronze' },
      { key: 'silver', name: 'Silver' },
      { key: 'gold', name: 'Gold' },
    ],
    rules: [
      {
        key: 'described',
        name: 'Has a description',
        level: 'bronze',
        weight: 1,
        evaluator: 'field_set',
        params: { field: 'description' },
      },
      {
        key: 'runbook',
        name: 'Has a runbook',
        level: 'silver',
        weight: 2,
        evaluator: 'has_link',
        params: { kind: 'runbook' },
        remediation: 'Link the runbook on-call reads first.',
      },
      {
        key: 'no-incident',
        name: 'No open incident',
        level: 'silver',
        weight: 1,
        evaluator: 'no_open_incident',
        params: { min_severity: 'error' },
      },
      {
        key: 'slo',
        name: 'Meets its SLO',
        level: 'gold',
        weight: 3,
        evaluator: 'slo_met',
        params: {},
        remediation: 'Set an SLO and keep within its budget.',
      },
    ],
  },
  {
    handle: 'on-call-ready',
    name: 'On-call ready',
    description: 'Can whoever is paged at night find their way?',
    applies_to: { stages: ['live'] },
    levels: [
      { key: 'basic', name: 'Basic' },
      { key: 'ready', name: 'Ready' },
    ],
    rules: [
      {
        key: 'dashboard',
        name: 'Has a dashboard',
        level: 'basic',
        weight: 1,
        evaluator: 'has_link',
        params: { kind: 'dashboard' },
        remediation: 'Link the dashboard that shows the service is healthy.',
      },
      {
        key: 'runbook',
        name: 'Has a runbook',
        level: 'ready',
        weight: 1,
        evaluator: 'has_link',
        params: { kind: 'runbook' },
      },
    ],
  },
];

export async function seedDemoShowcase(ctx: ServerContext, caller: Caller): Promise<void> {
  if ((await listStatusPages(ctx, caller)).length > 0) return;
  for (const [service, links] of Object.entries(DEMO_LINKS)) await updateServiceFields(ctx, caller, service, { links });
  for (const { service, target } of DEMO_SLOS) await setSlo(ctx, caller, service, { target, window_days: 30 });
  for (const scorecard of DEMO_SCORECARDS) await createScorecard(ctx, caller, scorecard);
  await createStatusPage(ctx, caller, {
    handle: DEMO_STATUS_PAGE,
    title: 'Demo Shop status',
    description: 'Whether you can browse, search and pay.',
    access: 'public',
    show_upstream: true,
    groups: [
      { name: 'Storefront', services: ['api-gateway', 'search'] },
      { name: 'Payments', services: ['checkout'] },
    ],
  });
}
