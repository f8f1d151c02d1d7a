import type { StatusComponent, StatusNotice, StatusView } from '../../../../src/contract/status-pages.js';
import type { ComponentStatus } from '../../../../src/domain/status-pages.js';

/** Test data shared by the status renderers' tests: a page of two groups with every kind of notice. */

export const XSS = '<script>alert(1)</script>';

const DAY = 86_400_000;
const LAST = Date.parse('2025-03-05T00:00:00Z');

/** 90 days ending Mar 5, 2025, oldest first; `overrides` by index. */
export function days(
  overrides: Record<number, Partial<StatusComponent['days'][number]>> = {},
  count = 90,
): StatusComponent['days'] {
  return Array.from({ length: count }, (_, index) => ({
    date: new Date(LAST - (count - 1 - index) * DAY).toISOString().slice(0, 10),
    uptime: 100,
    status: 'operational' as const,
    notices: [],
    ...overrides[index],
  }));
}

export function component(handle: string, overrides: Partial<StatusComponent> = {}): StatusComponent {
  return {
    handle,
    name: handle.charAt(0).toUpperCase() + handle.slice(1),
    group: '',
    status: 'operational' as ComponentStatus,
    uptime_90d: 100,
    days: days(),
    affected_by: [],
    ...overrides,
  };
}

export function notice(id: string, overrides: Partial<StatusNotice> = {}): StatusNotice {
  return {
    id,
    type: 'incident',
    title: `Notice ${id}`,
    status: 'investigating',
    open: true,
    components: [],
    created_at: '2025-03-05T08:00:00.000Z',
    updated_at: '2025-03-05T08:00:00.000Z',
    starts_at: null,
    ends_at: null,
    updates: [],
    postmortem_html: null,
    url: `https://status.example.com/incidents/${id}`,
    ...overrides,
  };
}

export const activeIncident = notice('inc-1', {
  title: `Checkout ${XSS} errors`,
  status: 'identified',
  components: ['payments', 'gone'],
  updated_at: '2025-03-05T09:30:00.000Z',
  // Oldest first on purpose: the renderers put the newest first whatever the order.
  updates: [
    { status: 'investigating', body: 'Looking into <b>failed</b> payments', created_at: '2025-03-05T08:00:00.000Z' },
    { status: 'identified', body: 'A bad deploy.\nRolling back.', created_at: '2025-03-05T09:30:00.000Z' },
  ],
});

export const scheduledMaintenance = notice('mnt-1', {
  type: 'maintenance',
  title: 'Database upgrade',
  status: 'scheduled',
  components: ['api'],
  starts_at: '2025-03-10T14:00:00.000Z',
  ends_at: '2025-03-10T16:00:00.000Z',
  updates: [{ status: 'scheduled', body: 'Expect short write pauses.', created_at: '2025-03-04T10:00:00.000Z' }],
});

export const resolvedIncident = notice('inc-0', {
  title: 'API latency',
  status: 'resolved',
  open: false,
  components: ['api'],
  created_at: '2025-03-01T10:00:00.000Z',
  updated_at: '2025-03-01T12:00:00.000Z',
  updates: [
    { status: 'resolved', body: 'All clear.', created_at: '2025-03-01T12:00:00.000Z' },
    { status: 'investigating', body: 'Slow answers.', created_at: '2025-03-01T10:00:00.000Z' },
  ],
  postmortem_html: '<h3>What happened</h3><p>A disk filled <em>up</em>.</p>',
});

export const upstream = {
  path: ['db', 'storage'],
  names: ['Database', `Storage ${XSS}`],
  status: 'major_outage' as const,
};

export function view(overrides: Partial<StatusView> = {}): StatusView {
  return {
    page: {
      handle: 'acme',
      title: 'Acme',
      description: 'Live status of Acme services.',
      logo_url: null,
      url: 'https://status.example.com/',
      updated_at: '2025-03-05T10:00:00.000Z',
    },
    status: { indicator: 'minor', description: 'Partially Degraded Service' },
    components: [
      component('api', {
        group: 'Core',
        uptime_90d: 99.95,
        // The first 3 days before the service existed; one day with an incident.
        days: days({
          0: { uptime: null, status: 'no_data' },
          1: { uptime: null, status: 'no_data' },
          2: { uptime: null, status: 'no_data' },
          85: {
            uptime: 98.5,
            status: 'partial_outage',
            notices: [{ id: 'inc-0', type: 'incident', title: `API ${XSS} latency` }],
          },
        }),
      }),
      component('payments', { group: 'Core', status: 'degraded_performance', affected_by: [upstream] }),
      component('cdn', {
        group: 'Edge',
        name: `CDN ${XSS}`,
        status: 'under_maintenance',
        uptime_90d: null,
        days: days(Object.fromEntries(Array.from({ length: 90 }, (_, i) => [i, { uptime: null, status: 'no_data' }]))),
      }),
    ],
    active: [activeIncident],
    scheduled: [scheduledMaintenance],
    recent: [resolvedIncident],
    ...overrides,
  };
}
