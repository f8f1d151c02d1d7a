// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HealthCheck, HealthCheckResult } from '../../../src/contract/health.js';
import {
  makeService,
  makeUser,
  renderApp,
  resetLocalDb,
  stubApi,
  violations,
  type Answer,
  type Call,
} from './services-kit.js';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

const me = makeUser('mia');
const payments = makeService('payments', { name: 'Payments' });
const editable = { ...payments, permissions: { edit: true } };

function makeCheck(id: string, overrides: Partial<HealthCheck> = {}): HealthCheck {
  return {
    id,
    name: id,
    endpoint: `https://example.test/${id}`,
    runner: null,
    frequency: 15,
    allowed_failures: 0,
    importance: 'warning',
    disabled: false,
    paused: false,
    timeout: 1,
    service: { handle: 'payments' },
    ...overrides,
  };
}

const homepage = makeCheck('hc1', { name: 'Homepage', frequency: 30, timeout: 5, allowed_failures: 2 });
const login = makeCheck('hc2', { name: 'Login', runner: 'runner-a', importance: 'critical' });
const results: HealthCheckResult[] = [
  { time: 120, start: '2024-06-01T10:00:00.000Z', success: true, status: 200 },
  { time: 340, start: '2024-06-01T10:00:15.000Z', success: false, status: 500 },
  { time: 80, start: '2024-06-01T10:00:30.000Z', success: true, status: 200 },
];
const runners = [
  { id: 'r1', handle: 'runner-a', name: 'Runner A', description: 'In the DC', sync_status: 'ok', last_sync: null },
];

/** A server with the service, its checks, results per check and the owner team's runners. */
function healthApi({
  service = payments,
  checks = [homepage, login],
  runnersAnswer = { status: 200, body: runners } as Answer,
  fail = [] as string[],
} = {}) {
  const server = { checks: [...checks] };
  const calls = stubApi(me, {
    handler: (call: Call) => {
      if (fail.includes(`${call.method} ${call.path}`)) return { status: 500, body: { message: 'Boom' } };
      if (call.method === 'GET' && call.path === '/api/services/payments') return { status: 200, body: service };
      if (call.path === '/api/services/payments/health-checks') {
        if (call.method === 'GET') return { status: 200, body: server.checks };
        if (call.method === 'POST') {
          const created = makeCheck(`hc${server.checks.length + 1}`, call.body as Partial<HealthCheck>);
          server.checks.push(created);
          return { status: 201, body: created };
        }
      }
      const patch = /^\/api\/health-checks\/([^/]+)$/.exec(call.path);
      if (call.method === 'PATCH' && patch) {
        const updated = { ...server.checks.find((check) => check.id === patch[1])!, ...(call.body as object) };
        server.checks = server.checks.map((check) => (check.id === updated.id ? updated : check));
        return { status: 200, body: updated };
      }
      if (call.method === 'GET' && call.path === '/api/health-checks/hc1/reports/health-check-results')
        return { status: 200, body: results };
      if (call.method === 'GET' && call.path.endsWith('/reports/health-check-results'))
        return { status: 200, body: [] };
      if (call.method === 'GET' && call.path === '/api/teams/core/runners') return runnersAnswer;
      return undefined;
    },
  });
  return { calls, server };
}

/** The calls of `method` the screens made (not the session's token calls). */
const sent = (calls: Call[], method: string) =>
  calls.filter((call) => call.method === method && call.path !== '/api/token');

async function pick(label: string, option: string) {
  fireEvent.click(screen.getByLabelText(label, { selector: 'input' }).closest('.p-dropdown')!);
  const listbox = await screen.findByRole('listbox', { hidden: true });
  fireEvent.click(within(listbox).getByRole('option', { name: option, hidden: true }));
}

async function optionsOf(label: string) {
  fireEvent.click(screen.getByLabelText(label, { selector: 'input' }).closest('.p-dropdown')!);
  const listbox = await screen.findByRole('listbox', { hidden: true });
  const names = within(listbox)
    .getAllByRole('option', { hidden: true })
    .map((option) => option.textContent);
  fireEvent.click(screen.getByLabelText(label, { selector: 'input' }).closest('.p-dropdown')!);
  return names;
}

function dropdownText(label: string) {
  return screen.getByLabelText(label, { selector: 'input' }).closest('.p-dropdown')!.querySelector('.p-dropdown-label')!
    .textContent;
}

function type(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

function saveButton() {
  return within(screen.getByRole('dialog')).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
}

function toasts() {
  return [...document.querySelectorAll('.beacon-snackbar')].map((toast) => ({
    text: toast.textContent,
    success: toast.classList.contains('beacon-snackbar-success'),
  }));
}

describe('health checks screen', () => {
  it("shows each check as a card with its results chart, or 'No Data Available'; viewers get no buttons", async () => {
    healthApi();
    renderApp('/services/payments/health-checks');
    expect(await screen.findByRole('heading', { level: 2, name: 'Homepage' })).toBeTruthy();
    const homepageCard = screen.getByRole('article', { name: 'Homepage' });
    expect(await within(homepageCard).findByRole('img', { name: /^Response times of Homepage/ })).toBeTruthy();
    // The mean is of the successful probes: a failure's duration is no response time.
    expect(
      within(homepageCard).getByText('Last 24 hours: 3 results, 1 failed, mean response time 100 ms'),
    ).toBeTruthy();
    const loginCard = screen.getByRole('article', { name: 'Login' });
    expect(await within(loginCard).findByText('No Data Available')).toBeTruthy();
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('Health Checks')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Healthcheck' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
  });

  it("reads 'No HealthChecks' with none, and when the list fails to load", async () => {
    healthApi({ checks: [] });
    renderApp('/services/payments/health-checks');
    expect(await screen.findByText('No HealthChecks')).toBeTruthy();
    cleanup();
    await resetLocalDb();

    healthApi({ fail: ['GET /api/services/payments/health-checks'] });
    renderApp('/services/payments/health-checks');
    // A server error is retried once (after a second) before the list is given up.
    expect(await screen.findByText('No HealthChecks', undefined, { timeout: 4000 })).toBeTruthy();
  });

  it("adds a check with the spec's defaults and a team runner, toasts and refreshes the list", async () => {
    const { calls } = healthApi({ service: editable });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Healthcheck' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Healthcheck' });
    expect((within(dialog).getByLabelText('Frequency') as HTMLInputElement).value).toBe('15');
    expect((within(dialog).getByLabelText('Timeout') as HTMLInputElement).value).toBe('1');
    expect((within(dialog).getByLabelText('Allowed failures') as HTMLInputElement).value).toBe('0');
    expect(within(dialog).queryByLabelText('Disabled')).toBeNull();
    expect(within(dialog).queryByLabelText('Paused')).toBeNull();
    expect(dropdownText('Runner')).toBe('Shared runner');
    expect(dropdownText('Importance')).toBe('Warning');
    expect(saveButton().disabled).toBe(true);

    type('Name', 'Checkout');
    type('Endpoint', 'https://shop.test/checkout');
    await waitFor(() => expect(calls.some((call) => call.path === '/api/teams/core/runners')).toBe(true));
    await pick('Runner', 'Runner A');
    await pick('Importance', 'Error');
    type('Frequency', '60');
    expect(saveButton().disabled).toBe(false);
    fireEvent.click(saveButton());

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent(calls, 'POST').map((call) => [call.path, call.body])).toEqual([
      [
        '/api/services/payments/health-checks',
        {
          name: 'Checkout',
          endpoint: 'https://shop.test/checkout',
          runner: 'runner-a',
          frequency: 60,
          timeout: 1,
          allowed_failures: 0,
          importance: 'error',
        },
      ],
    ]);
    expect(await screen.findByText('Service Healhcheck Added')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 2, name: 'Checkout' })).toBeTruthy();
  });

  it('offers only the shared runner when the runners cannot be listed, and then omits the runner', async () => {
    const { calls } = healthApi({ service: editable, runnersAnswer: { status: 404, body: { message: 'Not Found' } } });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Healthcheck' }));
    await screen.findByRole('dialog', { name: 'Add Healthcheck' });
    await waitFor(() => expect(calls.some((call) => call.path === '/api/teams/core/runners')).toBe(true));
    expect(await optionsOf('Runner')).toEqual(['Shared runner']);
    type('Name', 'Ping');
    type('Endpoint', 'http://ping.test');
    fireEvent.click(saveButton());
    await waitFor(() => expect(sent(calls, 'POST')).toHaveLength(1));
    expect(sent(calls, 'POST')[0]!.body).toEqual({
      name: 'Ping',
      endpoint: 'http://ping.test',
      frequency: 15,
      timeout: 1,
      allowed_failures: 0,
      importance: 'warning',
    });
  });

  it('validates on the client: field errors shown, Save disabled while anything is invalid', async () => {
    const { calls } = healthApi({ service: editable });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Healthcheck' }));
    await screen.findByRole('dialog', { name: 'Add Healthcheck' });
    type('Name', 'Checkout');
    type('Endpoint', 'shop.test');
    expect(screen.getByText('Endpoint must be an http or https URL')).toBeTruthy();
    expect(saveButton().disabled).toBe(true);
    type('Endpoint', 'https://shop.test');
    expect(saveButton().disabled).toBe(false);

    const cases: Array<[string, string, string]> = [
      ['Timeout', '16', 'Timeout must be a whole number from 1 to 15'],
      ['Timeout', '0', 'Timeout must be a whole number from 1 to 15'],
      ['Frequency', '0', 'Frequency must be a whole number from 1 to 86400'],
      ['Frequency', '', 'Frequency is required'],
      ['Allowed failures', '-1', 'Allowed failures must be a whole number from 0 to 1000'],
      ['Name', '  ', 'Name is required'],
    ];
    const valid: Record<string, string> = { Timeout: '15', Frequency: '1', 'Allowed failures': '0', Name: 'Checkout' };
    for (const [label, value, message] of cases) {
      type(label, value);
      expect(screen.getByText(message)).toBeTruthy();
      expect(screen.getByLabelText(label).getAttribute('aria-invalid')).toBe('true');
      expect(saveButton().disabled).toBe(true);
      type(label, valid[label]!);
      expect(screen.queryByText(message)).toBeNull();
      expect(saveButton().disabled).toBe(false);
    }
    expect(sent(calls, 'POST')).toEqual([]);
  });

  it("toasts 'Unable to create healthcheck' (with success styling) when the create fails, and stays open", async () => {
    healthApi({ service: editable, fail: ['POST /api/services/payments/health-checks'] });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Healthcheck' }));
    await screen.findByRole('dialog', { name: 'Add Healthcheck' });
    type('Name', 'Checkout');
    type('Endpoint', 'https://shop.test');
    fireEvent.click(saveButton());
    expect(await screen.findByText('Unable to create healthcheck')).toBeTruthy();
    expect(toasts()).toEqual([{ text: 'Unable to create healthcheck', success: true }]);
    expect(screen.getByRole('dialog', { name: 'Add Healthcheck' })).toBeTruthy();
    expect(saveButton().disabled).toBe(false);
  });

  it('edits a check with its values, the disabled and paused switches, and sends the full body', async () => {
    const { calls } = healthApi({ service: editable });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Homepage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Healthcheck' });
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Homepage');
    expect((within(dialog).getByLabelText('Endpoint') as HTMLInputElement).value).toBe('https://example.test/hc1');
    expect((within(dialog).getByLabelText('Frequency') as HTMLInputElement).value).toBe('30');
    expect((within(dialog).getByLabelText('Timeout') as HTMLInputElement).value).toBe('5');
    expect((within(dialog).getByLabelText('Allowed failures') as HTMLInputElement).value).toBe('2');
    expect(saveButton().disabled).toBe(false);

    fireEvent.click(within(dialog).getByLabelText('Paused'));
    await pick('Importance', 'Critical');
    type('Name', 'Home page');
    fireEvent.click(saveButton());

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent(calls, 'PATCH').map((call) => [call.path, call.body])).toEqual([
      [
        '/api/health-checks/hc1',
        {
          name: 'Home page',
          endpoint: 'https://example.test/hc1',
          runner: null,
          frequency: 30,
          timeout: 5,
          allowed_failures: 2,
          importance: 'critical',
          disabled: false,
          paused: true,
        },
      ],
    ]);
    expect(await screen.findByText('Service Healhcheck Updated')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 2, name: 'Home page' })).toBeTruthy();
  });

  it("keeps a check's team runner when editing", async () => {
    const { calls } = healthApi({ service: editable });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Login' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Healthcheck' });
    await waitFor(() => expect(dropdownText('Runner')).toBe('Runner A'));
    expect(dropdownText('Importance')).toBe('Critical');
    fireEvent.click(within(dialog).getByLabelText('Disabled'));
    fireEvent.click(saveButton());
    await waitFor(() => expect(sent(calls, 'PATCH')).toHaveLength(1));
    expect(sent(calls, 'PATCH')[0]!.body).toMatchObject({ runner: 'runner-a', importance: 'critical', disabled: true });
  });
});

describe('health checks accessibility', () => {
  it('the screen passes axe', async () => {
    healthApi({ service: editable });
    renderApp('/services/payments/health-checks');
    await screen.findByRole('img', { name: /^Response times of Homepage/ });
    await screen.findByText('No Data Available');
    expect(await violations()).toEqual([]);
  });

  it('the edit modal passes axe, with a field error shown', async () => {
    const { calls } = healthApi({ service: editable });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Homepage' }));
    await screen.findByRole('dialog', { name: 'Edit Healthcheck' });
    await waitFor(() => expect(calls.some((call) => call.path === '/api/teams/core/runners')).toBe(true));
    type('Timeout', '20');
    expect(await violations()).toEqual([]);
  });
});
