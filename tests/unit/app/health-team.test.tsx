// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Service } from '../../../src/contract/catalogue.js';
import type { DailyHealthEntry } from '../../../src/contract/health.js';
import {
  makeService,
  makeTeam,
  makeUser,
  page,
  renderTeams,
  stubApi,
  violations,
  type Answer,
  type Call,
} from './teams-kit.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2024-06-30T12:00:00.000Z'));
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const me = makeUser('mia');
const core = makeTeam('core', { name: 'Core', is_member: true });
const search = makeService('search', { name: 'Search' });
const billing = makeService('billing', { name: 'Billing' });

const entry = (date: string, seconds: Partial<Omit<DailyHealthEntry, 'date'>> = {}): DailyHealthEntry => ({
  date,
  critical: 0,
  error: 0,
  warning: 0,
  maintenance: 0,
  ...seconds,
});
const reports: Record<string, Answer> = {
  search: { status: 200, body: [entry('2024-06-28'), entry('2024-06-29', { error: 8640 })] },
  billing: { status: 200, body: [entry('2024-06-28', { warning: 45 }), entry('2024-06-29')] },
};

function teamApi(services: Service[]) {
  const calls = stubApi(me, {
    handler: (call: Call) => {
      if (call.method !== 'GET') return undefined;
      if (call.path === '/api/teams/core') return { status: 200, body: core };
      if (call.path === '/api/teams/core/services') return page(services);
      const daily = /^\/api\/services\/([^/]+)\/reports\/service-health-daily$/.exec(call.path);
      if (daily) return reports[daily[1]!] ?? { status: 404, body: { message: 'Not Found' } };
      return undefined;
    },
  });
  return calls;
}

describe('team Health tab', () => {
  it('lists the services, then shows a card per service with its uptime and daily bars', async () => {
    const calls = teamApi([search, billing]);
    renderTeams('/teams/core/health');
    const searchCard = await screen.findByRole('article', { name: 'Search' });
    expect(await within(searchCard).findByText('95.00%')).toBeTruthy();
    expect(
      within(searchCard)
        .getAllByRole('img')
        .map((bar) => bar.getAttribute('aria-label')),
    ).toEqual(['Jun 28, 2024: Good', 'Jun 29, 2024: Error (2h 24m of error)']);

    const billingCard = screen.getByRole('article', { name: 'Billing' });
    expect(await within(billingCard).findByText('99.97%')).toBeTruthy();
    expect(within(billingCard).getAllByRole('img')[0]!.getAttribute('aria-label')).toBe(
      'Jun 28, 2024: Warning (45s of warning)',
    );

    const list = calls.find((call) => call.path === '/api/teams/core/services')!;
    expect([list.query.get('cursor'), list.query.get('limit')]).toEqual(['0', '100']);
    expect(
      calls
        .filter((call) => call.path.endsWith('/reports/service-health-daily'))
        .map((call) => call.path)
        .sort(),
    ).toEqual([
      '/api/services/billing/reports/service-health-daily',
      '/api/services/search/reports/service-health-daily',
    ]);

    fireEvent.click(within(billingCard).getByRole('button', { name: 'View HealthChecks' }));
    expect(screen.getByTestId('location').textContent).toBe('/services/billing/health-checks');
  });

  it("shows a spinner while the services load, 'No Services' when the team has none", async () => {
    teamApi([]);
    // The services list never answers.
    const answered = globalThis.fetch;
    vi.stubGlobal('fetch', (input: string, init?: RequestInit) =>
      input.includes('/api/teams/core/services') ? new Promise(() => undefined) : answered(input, init),
    );
    renderTeams('/teams/core/health');
    expect(await screen.findByRole('progressbar', { name: 'Loading services' })).toBeTruthy();
    cleanup();

    teamApi([]);
    renderTeams('/teams/core/health');
    expect(await screen.findByText('No Services')).toBeTruthy();
    expect(screen.queryByRole('article')).toBeNull();
  });

  it("reads 'No Data Available' on a service whose report fails", async () => {
    teamApi([makeService('legacy', { name: 'Legacy' })]);
    renderTeams('/teams/core/health');
    const card = await screen.findByRole('article', { name: 'Legacy' });
    expect(await within(card).findByText('No Data Available')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'View HealthChecks' })).toBeTruthy();
  });

  it('passes axe with its cards shown', async () => {
    teamApi([search, billing]);
    renderTeams('/teams/core/health');
    const card = await screen.findByRole('article', { name: 'Billing' });
    await within(card).findByText('99.97%');
    await waitFor(() => expect(screen.queryAllByRole('progressbar')).toEqual([]));
    expect(await violations()).toEqual([]);
  });
});
