// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HealthCheck, HealthCheckResult } from '../../../src/contract/health.js';
import { defaultAssertionsText } from '../../../src/app/health/health-check-form.js';
import { sourcesFor } from '../../../src/domain/assertion-text.js';
import {
  failNetworkFor,
  localDb,
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
    kind: 'http',
    request: null,
    starttls: null,
    record: null,
    assertions: [{ source: 'status', op: 'in', value: ['200..299'] }],
    assertions_text: defaultAssertionsText('http'),
    retries: 0,
    recover_after: 1,
    grace: null,
    schedule: null,
    time_zone: null,
    ping_url: null,
    spec: null,
    ...overrides,
  };
}

const homepage = makeCheck('hc1', { name: 'Homepage', frequency: 30, timeout: 5, allowed_failures: 2 });
const login = makeCheck('hc2', { name: 'Login', runner: 'runner-a', importance: 'critical' });
const results: HealthCheckResult[] = [
  { time: 120, start: '2024-06-01T10:00:00.000Z', success: true, status: 200, latency_ms: 120 },
  {
    time: 340,
    start: '2024-06-01T10:00:15.000Z',
    success: false,
    status: 500,
    latency_ms: 340,
    error: { class: 'assertion', message: 'status in 200..299: got 500' },
    assertions: [{ source: 'status', op: 'in', expected: '200..299', actual: '500', pass: false, severity: 'warning' }],
    severity: 'warning',
  },
  { time: 80, start: '2024-06-01T10:00:30.000Z', success: true, status: 200, latency_ms: 80 },
];
/** A run whose assertions partly failed, with a certificate. */
const failingRun: HealthCheckResult = {
  time: 42,
  start: '2024-06-01T10:01:00.000Z',
  success: false,
  status: 200,
  latency_ms: 42,
  error: { class: 'assertion', message: 'status == 201: got 200' },
  assertions: [
    { source: 'status', op: '==', expected: '201', actual: '200', pass: false, severity: 'error' },
    { source: 'header:x-version', op: 'exists', expected: '', actual: null, pass: false, severity: 'warning' },
    { source: 'latency_ms', op: '<', expected: '800', actual: '42', pass: true, severity: 'warning' },
  ],
  cert: { days_left: 10, not_after: '2024-06-11T10:00:00.000Z', subject: 'CN=shop.test', issuer: 'CN=Test CA' },
  severity: 'error',
};
const runners = [
  { id: 'r1', handle: 'runner-a', name: 'Runner A', description: 'In the DC', sync_status: 'ok', last_sync: null },
];

/** A server with the service, its checks, results per check and the owner team's runners. */
function healthApi({
  service = payments,
  checks = [homepage, login],
  runnersAnswer = { status: 200, body: runners } as Answer,
  fail = [] as string[],
  resultsOf = { hc1: results } as Record<string, HealthCheckResult[]>,
  answers = {} as Record<string, Answer>,
} = {}) {
  const server = { checks: [...checks], rotations: 0 };
  const calls = stubApi(me, {
    handler: (call: Call) => {
      if (fail.includes(`${call.method} ${call.path}`)) return { status: 500, body: { message: 'Boom' } };
      const answer = answers[`${call.method} ${call.path}`];
      if (answer) return answer;
      if (call.method === 'GET' && call.path === '/api/services/payments') return { status: 200, body: service };
      if (call.path === '/api/services/payments/health-checks') {
        if (call.method === 'GET') return { status: 200, body: server.checks };
        if (call.method === 'POST') {
          const body = call.body as Partial<HealthCheck>;
          const id = `hc${server.checks.length + 1}`;
          const created = makeCheck(id, {
            ...body,
            ...(body.kind === 'heartbeat' ? { ping_url: `http://acme.localhost/api/heartbeats/token-${id}` } : {}),
          });
          server.checks.push(created);
          return { status: 201, body: created };
        }
      }
      const rotate = /^\/api\/health-checks\/([^/]+)\/actions\/rotate-ping-url$/.exec(call.path);
      if (call.method === 'POST' && rotate) {
        server.rotations++;
        const check = server.checks.find((each) => each.id === rotate[1])!;
        const rotated = { ...check, ping_url: `http://acme.localhost/api/heartbeats/rotated-${server.rotations}` };
        server.checks = server.checks.map((each) => (each.id === rotated.id ? rotated : each));
        return { status: 200, body: rotated };
      }
      const patch = /^\/api\/health-checks\/([^/]+)$/.exec(call.path);
      if (call.method === 'PATCH' && patch) {
        const updated = { ...server.checks.find((check) => check.id === patch[1])!, ...(call.body as object) };
        server.checks = server.checks.map((check) => (check.id === updated.id ? updated : check));
        return { status: 200, body: updated };
      }
      const report = /^\/api\/health-checks\/([^/]+)\/reports\/health-check-results$/.exec(call.path);
      if (call.method === 'GET' && report) return { status: 200, body: resultsOf[report[1]!] ?? [] };
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
    // The kind, the newest result (passed, status, latency) and the last failure's class and message.
    expect(within(homepageCard).getByText('HTTP')).toBeTruthy();
    const latest = within(homepageCard).getByRole('region', { name: 'Latest result of Homepage' });
    expect(within(latest).getByText('Passed')).toBeTruthy();
    expect(within(latest).getByText('HTTP 200')).toBeTruthy();
    expect(within(latest).getByText('Latency 80 ms')).toBeTruthy();
    expect(within(homepageCard).getByText('status in 200..299: got 500')).toBeTruthy();
    expect(within(homepageCard).getByText(/^Last error \(Assertion\):/)).toBeTruthy();
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
          kind: 'http',
          endpoint: 'https://shop.test/checkout',
          runner: 'runner-a',
          frequency: 60,
          timeout: 1,
          allowed_failures: 0,
          importance: 'error',
          retries: 0,
          recover_after: 1,
          assertions_text: defaultAssertionsText('http'),
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
      kind: 'http',
      endpoint: 'http://ping.test',
      frequency: 15,
      timeout: 1,
      allowed_failures: 0,
      importance: 'warning',
      retries: 0,
      recover_after: 1,
      assertions_text: defaultAssertionsText('http'),
    });
  });

  it('validates on the client: field errors shown, Save disabled while anything is invalid', async () => {
    const { calls } = healthApi({ service: editable });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Healthcheck' }));
    await screen.findByRole('dialog', { name: 'Add Healthcheck' });
    type('Name', 'Checkout');
    type('Endpoint', 'shop.test');
    expect(screen.getByText('Must be an http or https URL')).toBeTruthy();
    expect(saveButton().disabled).toBe(true);
    type('Endpoint', 'https://shop.test');
    expect(saveButton().disabled).toBe(false);

    const cases: Array<[string, string, string]> = [
      ['Timeout', '16', 'Timeout must be a whole number from 1 to 15'],
      ['Timeout', '0', 'Timeout must be a whole number from 1 to 15'],
      ['Frequency', '0', 'Frequency must be a whole number from 1 to 86400'],
      ['Frequency', '', 'Frequency is required'],
      ['Allowed failures', '-1', 'Allowed failures must be a whole number from 0 to 1000'],
      ['Successes to recover', '0', 'Successes to recover must be a whole number from 1 to 10'],
      ['Successes to recover', '11', 'Successes to recover must be a whole number from 1 to 10'],
      ['Name', '  ', 'Name is required'],
    ];
    const valid: Record<string, string> = {
      Timeout: '15',
      Frequency: '1',
      'Allowed failures': '0',
      'Successes to recover': '3',
      Name: 'Checkout',
    };
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
    fireEvent.click(within(dialog).getByLabelText('Retry a network error once'));
    type('Successes to recover', '2');
    await pick('Importance', 'Critical');
    type('Name', 'Home page');
    fireEvent.click(saveButton());

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent(calls, 'PATCH').map((call) => [call.path, call.body])).toEqual([
      [
        '/api/health-checks/hc1',
        {
          name: 'Home page',
          kind: 'http',
          endpoint: 'https://example.test/hc1',
          runner: null,
          frequency: 30,
          timeout: 5,
          allowed_failures: 2,
          importance: 'critical',
          disabled: false,
          paused: true,
          request: null,
          starttls: null,
          record: null,
          grace: null,
          schedule: null,
          time_zone: null,
          retries: 1,
          recover_after: 2,
          assertions_text: defaultAssertionsText('http'),
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

describe('check kinds, assertions and Test (docs/decisions.md#checks)', () => {
  const mail = makeCheck('hc3', { name: 'Mail TLS', kind: 'tls', endpoint: 'mail.test:465', starttls: 'smtp' });
  const nightly = makeCheck('hc4', {
    name: 'Nightly',
    kind: 'heartbeat',
    endpoint: '',
    frequency: 300,
    grace: 60,
    assertions: [],
    assertions_text: '',
  });

  function stubClipboard() {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(window.navigator, 'clipboard', { configurable: true, value: { writeText } });
    return writeText;
  }

  it("shows each card's kind and why its newest result failed: error class, expected vs actual, certificate", async () => {
    healthApi({
      checks: [homepage, mail, nightly],
      resultsOf: {
        hc1: [...results, failingRun],
        hc3: [
          {
            time: 30,
            start: '2024-06-01T10:00:00.000Z',
            success: true,
            latency_ms: 30,
            cert: { days_left: 10, not_after: '2024-06-11T10:00:00.000Z', subject: 'CN=mail.test', issuer: 'CN=CA' },
          },
        ],
      },
    });
    renderApp('/services/payments/health-checks');
    const card = await screen.findByRole('article', { name: 'Homepage' });
    const latest = await within(card).findByRole('region', { name: 'Latest result of Homepage' });
    expect(within(latest).getByText('Failed (Error)')).toBeTruthy();
    expect(within(latest).getByText('Latency 42 ms')).toBeTruthy();
    expect(within(latest).getByText('Certificate: 10 days left')).toBeTruthy();
    expect(within(latest).getByText('Assertion: status == 201: got 200')).toBeTruthy();
    const failing = within(latest)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    // Only the failing ones, each with what it expected and what was seen ('missing' when nothing was).
    expect(failing).toEqual([
      'status == expected 201, actual 200 (Error)',
      'header:x-version exists expected —, actual missing (Warning)',
    ]);
    // Within its two allowed failures the check is still up, and says so.
    expect(within(card).getByText('Up')).toBeTruthy();
    expect(within(card).getByText('1 failure in a row, 2 allowed')).toBeTruthy();

    const tls = screen.getByRole('article', { name: 'Mail TLS' });
    expect(within(tls).getByText('TLS')).toBeTruthy();
    expect(within(tls).getByText('mail.test:465 (STARTTLS SMTP)')).toBeTruthy();
    expect(await within(tls).findByText('Certificate: 10 days left')).toBeTruthy();

    const heartbeat = screen.getByRole('article', { name: 'Nightly' });
    expect(within(heartbeat).getByText('Heartbeat')).toBeTruthy();
    expect(within(heartbeat).getByText('Every 5 min, 1 min grace')).toBeTruthy();
    // A viewer is not given the secret URL.
    expect(within(heartbeat).queryByLabelText('Ping URL')).toBeNull();
  });

  it("says a domain's expiry is unknown, and why, when its TLD has no RDAP service (issue 48)", async () => {
    const registration = makeCheck('hc5', { name: 'Registration', kind: 'domain', endpoint: 'shop.de' });
    healthApi({
      checks: [registration],
      resultsOf: {
        hc5: [
          {
            time: 20,
            start: '2024-06-01T10:00:00.000Z',
            success: true,
            latency_ms: 20,
            assertions: [
              {
                source: 'domain.days_left',
                op: '>=',
                expected: '30 (not judged: .de has no RDAP service)',
                actual: 'unknown',
                pass: true,
                severity: 'error',
              },
            ],
          },
        ],
      },
    });
    renderApp('/services/payments/health-checks');
    const card = await screen.findByRole('article', { name: 'Registration' });
    const latest = await within(card).findByRole('region', { name: 'Latest result of Registration' });
    expect(within(latest).getByText('Passed')).toBeTruthy();
    expect(within(latest).getByText('Domain expiry: unknown (.de has no RDAP service)')).toBeTruthy();
  });

  it("shows a heartbeat's pings, not a response-time chart: pings, a failure reported, a late look", async () => {
    const ping = (start: string, error?: HealthCheckResult['error']): HealthCheckResult => ({
      time: 0,
      start,
      success: !error,
      ...(error ? { error, severity: 'warning' as const } : {}),
    });
    healthApi({
      checks: [nightly],
      resultsOf: {
        hc4: [
          ping('2024-06-01T10:00:00.000Z'),
          ping('2024-06-01T10:05:00.000Z', { class: 'assertion', message: 'The job reported a failure (exit code 2)' }),
          ping('2024-06-01T10:12:00.000Z', { class: 'timeout', message: 'No ping for 7 min' }),
          ping('2024-06-01T10:13:00.000Z'),
        ],
      },
    });
    renderApp('/services/payments/health-checks');
    const card = await screen.findByRole('article', { name: 'Nightly' });
    expect(await within(card).findByRole('img', { name: 'Pings of Nightly, last 24 hours' })).toBeTruthy();
    expect(within(card).getByText('Last 24 hours: 3 pings (1 reporting a failure), late 1 time')).toBeTruthy();
    expect(within(card).queryByRole('img', { name: /^Response times/ })).toBeNull();
    expect(within(card).queryByText(/response time/)).toBeNull();
  });

  it('says on the card why a check made from a spec is flagged: its operation or its spec is gone', async () => {
    const link = { operation_id: 'getItem', method: 'GET', path: '/items/{id}', version: 'v2', missing: true };
    healthApi({
      checks: [
        makeCheck('hc5', { name: 'Items', spec: { ...link, page: 'items-api', gone: 'unpublished' } }),
        makeCheck('hc6', { name: 'Orders', spec: { ...link, page: null, gone: 'deleted' } }),
        makeCheck('hc7', { name: 'Stock', spec: { ...link, page: 'items-api', gone: 'operation' } }),
        makeCheck('hc8', { name: 'Prices', spec: { ...link, page: 'items-api', missing: false, gone: null } }),
      ],
      resultsOf: {},
    });
    renderApp('/services/payments/health-checks');
    const items = await screen.findByRole('article', { name: 'Items' });
    expect(within(items).getByText('Spec unpublished')).toBeTruthy();
    expect(within(items).getByText(/^The spec items-api is no longer published: its schema assertion/)).toBeTruthy();
    const orders = screen.getByRole('article', { name: 'Orders' });
    expect(within(orders).getByText('Spec deleted')).toBeTruthy();
    expect(within(orders).getByText(/^The spec page of getItem was deleted/)).toBeTruthy();
    const stock = screen.getByRole('article', { name: 'Stock' });
    expect(within(stock).getByText('Operation gone from the spec')).toBeTruthy();
    expect(within(stock).getByText(/^Version v2 of the spec items-api has no getItem/)).toBeTruthy();
    const prices = screen.getByRole('article', { name: 'Prices' });
    expect(within(prices).getByText('Spec v2')).toBeTruthy();
    expect(within(prices).queryByText(/schema assertion/)).toBeNull();
  });

  it('shows each kind its own fields, and swaps default assertions but keeps typed ones', async () => {
    healthApi({ service: editable });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Healthcheck' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Healthcheck' });
    const has = (label: string) => within(dialog).queryAllByLabelText(label).length > 0;
    const assertionsText = () => (within(dialog).getByLabelText('Assertions') as HTMLTextAreaElement).value;

    expect(dropdownText('Kind')).toBe('HTTP');
    expect(await optionsOf('Kind')).toEqual(['HTTP', 'TCP', 'TLS', 'DNS', 'Domain expiry', 'Heartbeat']);
    for (const label of ['Endpoint', 'Method', 'Request headers', 'Request body', 'Timeout', 'Successes to recover'])
      expect(has(label)).toBe(true);
    expect(has('Retry a network error once')).toBe(true);
    expect(assertionsText()).toBe(defaultAssertionsText('http'));
    expect(within(dialog).getByRole('button', { name: 'Test' })).toBeTruthy();

    await pick('Kind', 'TCP');
    expect(has('Host and port') && has('Send') && has('Runner')).toBe(true);
    expect(has('Method') || has('Endpoint')).toBe(false);
    expect(assertionsText()).toBe(defaultAssertionsText('tcp'));

    await pick('Kind', 'TLS');
    expect(dropdownText('STARTTLS')).toBe('None');
    expect(assertionsText()).toBe(defaultAssertionsText('tls'));

    await pick('Kind', 'DNS');
    expect(has('Record name')).toBe(true);
    expect(dropdownText('Record type')).toBe('A');
    expect(await optionsOf('Record type')).toEqual(['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SOA', 'CAA']);

    await pick('Kind', 'Domain expiry');
    expect(has('Domain name')).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Assertions'), { target: { value: 'domain.days_left >= 60' } });

    // What the user typed stays; its error says what does not fit the kind.
    await pick('Kind', 'DNS');
    expect(assertionsText()).toBe('domain.days_left >= 60');
    expect(within(dialog).getByText(/^Line 1: A dns check has no domain\.days_left/)).toBeTruthy();

    // A heartbeat is judged by its pings: no target, runner, timeout, assertions or Test.
    await pick('Kind', 'Heartbeat');
    for (const label of ['Period', 'Grace', 'Schedule', 'Time zone', 'Successes to recover'])
      expect(has(label)).toBe(true);
    for (const label of ['Endpoint', 'Runner', 'Timeout', 'Frequency', 'Retry a network error once', 'Assertions'])
      expect(has(label)).toBe(false);
    expect(within(dialog).queryByRole('button', { name: 'Test' })).toBeNull();
  });

  it("parses the assertions as they are typed, each error under them with its line, and lists the kind's sources", async () => {
    const { calls } = healthApi({ service: editable });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Healthcheck' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Healthcheck' });
    type('Name', 'Checkout');
    type('Endpoint', 'https://shop.test');
    expect(saveButton().disabled).toBe(false);
    const field = within(dialog).getByLabelText('Assertions');
    const hint = document.getElementById(field.getAttribute('aria-describedby')!.split(' ')[0]!)!;
    for (const { source } of sourcesFor('http')) expect(hint.textContent).toContain(source);

    fireEvent.change(field, { target: { value: 'status == 200\nlatency_ms <\nstatus == 200' } });
    const errors = within(dialog).getAllByText(/^Line \d+: /);
    expect(errors.map((error) => error.textContent!.slice(0, 7))).toEqual(['Line 2:']);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toContain('health-check-assertions-error');
    expect(saveButton().disabled).toBe(true);
    expect((within(dialog).getByRole('button', { name: 'Test' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(field, { target: { value: 'status == 200\nlatency_ms < 800 warning' } });
    expect(within(dialog).queryByText(/^Line \d+: /)).toBeNull();
    expect(saveButton().disabled).toBe(false);
    fireEvent.click(saveButton());
    await waitFor(() => expect(sent(calls, 'POST')).toHaveLength(1));
    expect(sent(calls, 'POST')[0]!.body).toMatchObject({ assertions_text: 'status == 200\nlatency_ms < 800 warning' });
  });

  it('Test runs the form as it stands (saving nothing) and shows latency, error and every actual value', async () => {
    const { calls } = healthApi({
      service: editable,
      answers: { 'POST /api/services/payments/health-checks/actions/test': { status: 200, body: failingRun } },
    });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Healthcheck' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Healthcheck' });
    type('Endpoint', 'https://shop.test/api');
    fireEvent.change(within(dialog).getByLabelText('Assertions'), {
      target: { value: 'status == 201\nheader:x-version exists warning' },
    });
    // No name yet: a test needs none, Save does.
    expect(saveButton().disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Test' }));

    const table = await within(dialog).findByRole('region', { name: 'Assertions of the test' });
    expect(sent(calls, 'POST').map((call) => [call.path, call.body])).toEqual([
      [
        '/api/services/payments/health-checks/actions/test',
        {
          name: 'Test',
          kind: 'http',
          endpoint: 'https://shop.test/api',
          frequency: 15,
          timeout: 1,
          allowed_failures: 0,
          importance: 'warning',
          retries: 0,
          recover_after: 1,
          assertions_text: 'status == 201\nheader:x-version exists warning',
        },
      ],
    ]);
    expect(within(dialog).getByText('Failed (Error)')).toBeTruthy();
    expect(within(dialog).getByText('Latency 42 ms')).toBeTruthy();
    expect(within(dialog).getByText('HTTP 200')).toBeTruthy();
    expect(within(dialog).getByText('Certificate: 10 days left')).toBeTruthy();
    expect(within(dialog).getByText('Assertion: status == 201: got 200')).toBeTruthy();
    const rows = within(table)
      .getAllByRole('row')
      .map((row) =>
        within(row)
          .queryAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows.slice(1)).toEqual([
      ['status', '==', '201', '200', 'Fail (Error)'],
      ['header:x-version', 'exists', '', 'missing', 'Fail (Warning)'],
      ['latency_ms', '<', '800', '42', 'Pass'],
    ]);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Source', 'Op', 'Expected', 'Actual', 'Result']);
  });

  it('says when tests come too fast, and shows a refused field by its field', async () => {
    const testPath = 'POST /api/services/payments/health-checks/actions/test';
    const answers: Record<string, Answer> = { [testPath]: { status: 429, body: { message: 'Too Many Requests' } } };
    const { calls } = healthApi({ service: editable, answers });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Healthcheck' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Healthcheck' });
    type('Endpoint', 'http://10.0.0.1/');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Test' }));
    expect(
      await within(dialog).findByText('Too many tests in a short time: wait a minute and test again.'),
    ).toBeTruthy();

    answers[testPath] = {
      status: 400,
      body: {
        message: 'endpoint: refused',
        errors: { endpoint: ['The address 10.0.0.1 is private: not probed from the shared runner'] },
      },
    };
    fireEvent.click(within(dialog).getByRole('button', { name: 'Test' }));
    const error = await within(dialog).findByText('The address 10.0.0.1 is private: not probed from the shared runner');
    expect(within(dialog).getByLabelText('Endpoint').getAttribute('aria-describedby')).toContain(error.id);
    expect(calls.filter((call) => call.path.endsWith('/actions/test'))).toHaveLength(2);
    type('Endpoint', 'https://shop.test');
    expect(within(dialog).queryByText(/is private/)).toBeNull();
  });

  it("shows the API's field errors of a refused save by their fields, and still toasts the spec's failure", async () => {
    healthApi({
      service: editable,
      answers: {
        'POST /api/services/payments/health-checks': {
          status: 400,
          body: {
            message: 'assertions_text: Assertion 1: not a JSONata expression',
            errors: {
              assertions_text: ['Assertion 1: not a JSONata expression'],
              'request.headers.X-Bad': ['Must be a header name'],
            },
          },
        },
      },
    });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Healthcheck' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Healthcheck' });
    type('Name', 'Api');
    type('Endpoint', 'https://shop.test');
    fireEvent.click(saveButton());
    expect(await within(dialog).findByText('Assertion 1: not a JSONata expression')).toBeTruthy();
    expect(within(dialog).getByText('Must be a header name')).toBeTruthy();
    expect(within(dialog).getByLabelText('Request headers').getAttribute('aria-invalid')).toBe('true');
    expect(await screen.findByText('Unable to create healthcheck')).toBeTruthy();
  });

  it('edits what an http check sends: method, headers one per line (checked), body', async () => {
    const api = makeCheck('hc1', {
      name: 'Api',
      request: { method: 'POST', headers: { Accept: 'application/json' }, body: '{"ping":1}' },
    });
    const { calls } = healthApi({ service: editable, checks: [api] });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Api' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Healthcheck' });
    expect(dropdownText('Method')).toBe('POST');
    expect((within(dialog).getByLabelText('Request headers') as HTMLTextAreaElement).value).toBe(
      'Accept: application/json',
    );
    expect((within(dialog).getByLabelText('Request body') as HTMLTextAreaElement).value).toBe('{"ping":1}');
    type('Request headers', 'Accept: application/json\nno colon here');
    expect(within(dialog).getByText(/^Line 2: write a header as Name: value/)).toBeTruthy();
    expect(saveButton().disabled).toBe(true);
    type('Request headers', 'Accept: application/json\n\nX-Trace: on: yes');
    await pick('Method', 'PUT');
    fireEvent.click(saveButton());
    await waitFor(() => expect(sent(calls, 'PATCH')).toHaveLength(1));
    expect(sent(calls, 'PATCH')[0]!.body).toMatchObject({
      kind: 'http',
      request: { method: 'PUT', headers: { Accept: 'application/json', 'X-Trace': 'on: yes' }, body: '{"ping":1}' },
    });
  });

  it("changes a check's kind: the new kind's fields go, the old kind's are cleared", async () => {
    const { calls } = healthApi({ service: editable });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Login' }));
    await screen.findByRole('dialog', { name: 'Edit Healthcheck' });
    await waitFor(() => expect(dropdownText('Runner')).toBe('Runner A'));
    await pick('Kind', 'TCP');
    type('Host and port', 'db.test');
    expect(screen.getByText(/^Must be host:port/)).toBeTruthy();
    type('Host and port', 'db.test:5432');
    type('Send', 'PING');
    fireEvent.click(saveButton());
    await waitFor(() => expect(sent(calls, 'PATCH')).toHaveLength(1));
    expect(sent(calls, 'PATCH')[0]!.body).toMatchObject({
      kind: 'tcp',
      endpoint: 'db.test:5432',
      runner: 'runner-a',
      request: { method: 'GET', headers: {}, body: 'PING' },
      starttls: null,
      record: null,
      grace: null,
      assertions_text: defaultAssertionsText('tcp'),
    });
  });

  it('adds a heartbeat: no target or runner; it stays open on the ping URL to copy, and Rotate URL asks first', async () => {
    const writeText = stubClipboard();
    const { calls } = healthApi({ service: editable });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Healthcheck' }));
    await screen.findByRole('dialog', { name: 'Add Healthcheck' });
    await pick('Kind', 'Heartbeat');
    type('Name', 'Nightly backup');
    type('Period', '86400');
    type('Grace', '300');
    type('Schedule', '0 3 * *');
    expect(screen.getByText('Must be a cron expression of 5 fields, e.g. 0 3 * * *')).toBeTruthy();
    type('Schedule', '0 3 * * *');
    type('Time zone', 'Mars/Olympus');
    expect(screen.getByText('Must be an IANA time zone, e.g. Europe/Berlin')).toBeTruthy();
    expect(saveButton().disabled).toBe(true);
    type('Time zone', 'Europe/Berlin');
    fireEvent.click(saveButton());

    const dialog = await screen.findByRole('dialog', { name: 'Edit Healthcheck' });
    const body = sent(calls, 'POST')[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'Nightly backup',
      kind: 'heartbeat',
      endpoint: '',
      frequency: 86400,
      grace: 300,
      schedule: '0 3 * * *',
      time_zone: 'Europe/Berlin',
    });
    expect(body).not.toHaveProperty('runner');
    expect(await screen.findByText('Service Healhcheck Added')).toBeTruthy();
    expect(within(dialog).getByText('Heartbeat added: point your job at its ping URL.')).toBeTruthy();
    const url = within(dialog).getByLabelText('Ping URL') as HTMLInputElement;
    expect(url.value).toBe('http://acme.localhost/api/heartbeats/token-hc3');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy the ping URL of Nightly backup' }));
    expect(writeText).toHaveBeenCalledWith('http://acme.localhost/api/heartbeats/token-hc3');
    expect(within(dialog).getByRole('button', { name: 'Copied the ping URL of Nightly backup' })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Rotate URL' }));
    expect(within(dialog).getByText('The old URL stops working at once.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rotate' }));
    await waitFor(() => expect(url.value).toBe('http://acme.localhost/api/heartbeats/rotated-1'));
    expect(sent(calls, 'POST').map((call) => call.path)).toContain('/api/health-checks/hc3/actions/rotate-ping-url');

    // Saved again, it is an edit now; closed, its card shows the URL to its editors.
    fireEvent.click(saveButton());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent(calls, 'PATCH')[0]!.body).toMatchObject({ kind: 'heartbeat', runner: null, grace: 300 });
    const card = await screen.findByRole('article', { name: 'Nightly backup' });
    expect(within(card).getByText('On 0 3 * * * (Europe/Berlin), 5 min grace')).toBeTruthy();
    expect((within(card).getByLabelText('Ping URL') as HTMLInputElement).value).toBe(
      'http://acme.localhost/api/heartbeats/rotated-1',
    );
  });
});

describe('offline', () => {
  it('a reload without a network shows the cards as last seen: kind, failing assertions, an old string error', async () => {
    // A result stored before errors had a class (what an older app cached): its error is plain text.
    const older = { ...results[1]!, error: 'HTTP status 500', assertions: undefined } as unknown as HealthCheckResult;
    const mail = makeCheck('hc3', { name: 'Mail TLS', kind: 'tls', endpoint: 'mail.test:465' });
    healthApi({ checks: [homepage, mail], resultsOf: { hc1: [...results, failingRun], hc3: [older] } });
    renderApp('/services/payments/health-checks');
    const card = await screen.findByRole('article', { name: 'Homepage' });
    await within(card).findByRole('list', { name: 'Failing assertions' });
    await within(await screen.findByRole('article', { name: 'Mail TLS' })).findByText('HTTP status 500');
    // Written through to Dexie: the list and both checks' results.
    await waitFor(async () => {
      const keys = (await localDb().queries.toArray()).map((row) => JSON.stringify(row.key));
      expect(keys.filter((key) => key.includes('results'))).toHaveLength(2);
    });
    cleanup();

    failNetworkFor((_method, path) => path.includes('health-check'));
    renderApp('/services/payments/health-checks');
    const again = await screen.findByRole('article', { name: 'Homepage' });
    expect(within(again).getByText('HTTP')).toBeTruthy();
    const failing = await within(again).findByRole('list', { name: 'Failing assertions' });
    expect(within(failing).getByText('201')).toBeTruthy();
    expect(within(again).getByText('Assertion: status == 201: got 200')).toBeTruthy();
    const tls = screen.getByRole('article', { name: 'Mail TLS' });
    expect(within(tls).getByText('TLS')).toBeTruthy();
    expect(await within(tls).findByText('HTTP status 500')).toBeTruthy();
  });
});

describe('health checks accessibility', () => {
  it('the screen passes axe, with failing assertions shown and a heartbeat with its ping URL', async () => {
    healthApi({
      service: editable,
      checks: [
        homepage,
        login,
        makeCheck('hc5', {
          name: 'Nightly',
          kind: 'heartbeat',
          endpoint: '',
          grace: 60,
          ping_url: 'http://acme.localhost/api/heartbeats/abc',
        }),
      ],
      resultsOf: { hc1: [...results, failingRun] },
    });
    renderApp('/services/payments/health-checks');
    await screen.findByRole('img', { name: /^Response times of Homepage/ });
    await screen.findByRole('list', { name: 'Failing assertions' });
    await screen.findAllByText('No Data Available');
    expect(screen.getByLabelText('Ping URL')).toBeTruthy();
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

  it('the dialog passes axe with a test result shown, and a heartbeat with its ping URL', async () => {
    const run: HealthCheckResult = {
      time: 42,
      start: '2024-06-01T10:01:00.000Z',
      success: false,
      status: 200,
      latency_ms: 42,
      error: { class: 'assertion', message: 'status == 201: got 200' },
      assertions: [{ source: 'status', op: '==', expected: '201', actual: null, pass: false, severity: 'error' }],
      severity: 'error',
    };
    const { calls } = healthApi({
      service: editable,
      checks: [
        homepage,
        makeCheck('hc5', {
          name: 'Nightly',
          kind: 'heartbeat',
          endpoint: '',
          grace: 60,
          ping_url: 'http://acme.localhost/api/heartbeats/abc',
        }),
      ],
      answers: { 'POST /api/services/payments/health-checks/actions/test': { status: 200, body: run } },
    });
    renderApp('/services/payments/health-checks');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Homepage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Healthcheck' });
    await waitFor(() => expect(calls.some((call) => call.path === '/api/teams/core/runners')).toBe(true));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Test' }));
    await within(dialog).findByRole('region', { name: 'Assertions of the test' });
    expect(await violations()).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Edit Nightly' }));
    const heartbeat = await screen.findByRole('dialog', { name: 'Edit Healthcheck' });
    expect((within(heartbeat).getByLabelText('Ping URL') as HTMLInputElement).value).toBe(
      'http://acme.localhost/api/heartbeats/abc',
    );
    expect(await violations()).toEqual([]);
  });
});
