// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Service } from '../../../src/contract/catalogue.js';
import type { DailyHealthEntry } from '../../../src/contract/health.js';
import { makeService, makeUser, renderApp, resetLocalDb, stubApi, type Answer, type Call } from './services-kit.js';

const NOW = '2024-06-30T15:20:00.000Z';

beforeEach(() => {
  // Only the clock: timers stay real for the screens' waits.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(NOW));
});

afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

const me = makeUser('mia');
const payments = makeService('payments', { name: 'Payments', created_at: '2023-01-01T00:00:00.000Z' });

const report: DailyHealthEntry[] = [
  { date: '2024-06-28', critical: 0, error: 0, warning: 0, maintenance: 0 },
  { date: '2024-06-29', critical: 7500, error: 0, warning: 600, maintenance: 0 },
  { date: '2024-06-30', critical: 0, error: 0, warning: 0, maintenance: 3600 },
];

function overviewApi(service: Service, daily: Answer = { status: 200, body: report }) {
  return stubApi(me, {
    handler: (call: Call) => {
      if (call.method !== 'GET') return undefined;
      if (call.path === `/api/services/${service.handle}`) return { status: 200, body: service };
      if (call.path === `/api/services/${service.handle}/reports/service-health-daily`) return daily;
      return undefined;
    },
  });
}

const dailyCalls = (calls: Call[]) => calls.filter((call) => call.path.endsWith('/reports/service-health-daily'));

describe('Overall Health card', () => {
  it('shows the uptime and one labelled bar per day, coloured by the status of the day', async () => {
    const calls = overviewApi(payments);
    renderApp('/services/payments');
    expect(await screen.findByRole('heading', { level: 2, name: 'Overall Health' })).toBeTruthy();
    // Two full days and 15h20m of today counted; 2h 5m of critical and 10m of warning are problem time,
    // maintenance is not: 100 - 100 * 8100 / 228000.
    expect(await screen.findByText('96.45%')).toBeTruthy();
    const bars = within(screen.getByRole('list', { name: 'Daily health of Payments' })).getAllByRole('img');
    expect(bars.map((bar) => bar.getAttribute('aria-label'))).toEqual([
      'Jun 28, 2024: Good',
      'Jun 29, 2024: Critical (2h 5m of critical, 10m of warning)',
      'Jun 30, 2024: Maintenance (1h of maintenance)',
    ]);
    expect(bars.map((bar) => bar.getAttribute('title'))).toEqual(bars.map((bar) => bar.getAttribute('aria-label')));
    expect(bars.map((bar) => bar.style.background)).toEqual([
      'rgb(21, 128, 61)',
      'rgb(185, 28, 28)',
      'rgb(29, 78, 216)',
    ]);
    // Spec 7: from the later of creation and 90 days ago (the first of the last 90 UTC days).
    expect(dailyCalls(calls).map((call) => call.query.get('from'))).toEqual(['2024-04-02T00:00:00.000Z']);
  });

  it("asks from the creation of a younger service; 'View HealthChecks' goes to the health checks", async () => {
    const young = { ...payments, created_at: '2024-06-20T08:00:00.000Z' };
    const calls = overviewApi(young);
    renderApp('/services/payments');
    await screen.findByText('96.45%');
    expect(dailyCalls(calls).map((call) => call.query.get('from'))).toEqual(['2024-06-20T08:00:00.000Z']);
    fireEvent.click(screen.getByRole('button', { name: 'View HealthChecks' }));
    expect(screen.getByTestId('location').textContent).toBe('/services/payments/health-checks');
  });

  it("reads 'No Data Available' when the report cannot be had", async () => {
    overviewApi(payments, { status: 404, body: { message: 'Not Found' } });
    renderApp('/services/payments');
    expect(await screen.findByText('No Data Available')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Loading health of Payments' })).toBeNull());
  });
});
