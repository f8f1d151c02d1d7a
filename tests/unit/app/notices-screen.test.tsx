// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Service } from '../../../src/contract/catalogue.js';
import type { Notice, NoticeCreate, NoticeUpdate } from '../../../src/contract/notices.js';
import { matchesFilter, parseNoticeFilter } from '../../../src/domain/notices.js';
import { makeService, makeUser, renderApp, resetLocalDb, stubApi, type Call } from './services-kit.js';

beforeAll(() => {
  // The spec's formats are read in local time; the expected texts below are UTC ones.
  process.env.TZ = 'UTC';
});

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

const me = makeUser('mia');
const payments = makeService('payments', { name: 'Payments', health: 'warning' });
const editable: Service = { ...payments, permissions: { edit: true } };
const ref = { id: payments.id, handle: 'payments', name: 'Payments' };

function makeNotice(id: string, overrides: Partial<Notice>): Notice {
  const history = overrides.history ?? [
    {
      message: overrides.message ?? 'Started',
      status: overrides.status ?? 'investigating',
      time: '2024-03-05T09:30:00.000Z',
    },
  ];
  return {
    id,
    type: 'incident',
    title: `Notice ${id}`,
    status: 'investigating',
    message: history.at(-1)!.message,
    health: null,
    created_at: history[0]!.time,
    updated_at: history.at(-1)!.time,
    starts_at: null,
    ends_at: null,
    postmortem: null,
    history,
    service: ref,
    ...overrides,
  };
}

const checkout = makeNotice('n1', {
  type: 'incident',
  title: 'Checkout errors',
  status: 'identified',
  history: [
    { message: 'Looking into failed payments', status: 'investigating', time: '2024-03-05T08:00:00.000Z' },
    { message: 'Found the bad deploy', status: 'identified', time: '2024-03-05T09:00:00.000Z' },
    { message: 'Rolling back', status: 'identified', time: '2024-03-05T09:30:00.000Z' },
  ],
  updated_at: '2024-03-05T09:30:00.000Z',
});
const upgrade = makeNotice('n2', {
  type: 'maintenance',
  title: 'Database upgrade',
  status: 'in_progress',
  history: [{ message: 'Upgrading to 16', status: 'in_progress', time: '2024-03-04T22:15:00.000Z' }],
});
const oldWindow = makeNotice('n3', {
  type: 'maintenance',
  title: 'Old window',
  status: 'completed',
  history: [{ message: 'Done', status: 'completed', time: '2024-02-01T10:00:00.000Z' }],
});
const outage = makeNotice('n4', {
  type: 'incident',
  title: 'Past outage',
  status: 'resolved',
  history: [{ message: 'Fixed', status: 'resolved', time: '2024-01-10T10:00:00.000Z' }],
});

/** A server holding the service and its notices; list answers follow the query the way the API does. */
function noticesApi(service: Service, initial: Notice[] = [checkout, upgrade, oldWindow, outage], fail = false) {
  const server = { service, notices: [...initial] };
  const calls = stubApi(me, {
    handler: (call: Call) => {
      const base = `/api/services/${service.handle}`;
      if (call.method === 'GET' && call.path === base) return { status: 200, body: server.service };
      if (call.method === 'GET' && call.path === `${base}/notices`) {
        if (fail) return { status: 500, body: { message: 'Boom' } };
        const filter = parseNoticeFilter({
          type: call.query.get('type') ?? undefined,
          status: call.query.get('status') ?? undefined,
        });
        if (!filter) return { status: 400, body: { message: 'Bad filter' } };
        return { status: 200, body: server.notices.filter((notice) => matchesFilter(notice, filter)) };
      }
      if (call.method === 'POST' && call.path === `${base}/notices`) {
        const body = call.body as NoticeCreate;
        const created = makeNotice(`n${server.notices.length + 1}`, {
          type: body.type,
          title: body.title,
          status: body.status,
          health: body.health ?? null,
          history: [{ message: body.message, status: body.status!, time: '2024-03-06T12:00:00.000Z' }],
        });
        server.notices = [created, ...server.notices];
        if (body.health) server.service = { ...server.service, health: body.health };
        return { status: 201, body: created };
      }
      const patch = /^\/api\/notices\/([^/]+)$/.exec(call.path);
      if (call.method === 'PATCH' && patch) {
        const body = call.body as NoticeUpdate;
        server.notices = server.notices.map((notice) =>
          notice.id === patch[1]
            ? {
                ...notice,
                status: body.status,
                message: body.message,
                history: [
                  ...notice.history,
                  { message: body.message, status: body.status, time: '2024-03-06T12:00:00.000Z' },
                ],
              }
            : notice,
        );
        if (body.health) server.service = { ...server.service, health: body.health };
        return { status: 200, body: server.notices.find((notice) => notice.id === patch[1]) };
      }
      return undefined;
    },
  });
  const listCalls = () =>
    calls.filter((call) => call.method === 'GET' && call.path === `/api/services/${service.handle}/notices`);
  return { calls, server, listCalls };
}

/** The raw URLs fetch was given (to see the commas go unescaped). */
function fetchedUrls(): string[] {
  return vi.mocked(globalThis.fetch).mock.calls.map(([input]) => String(input));
}

const query = (call: Call) => `type=${call.query.get('type')}&status=${call.query.get('status')}`;

async function pick(label: string, option: string) {
  fireEvent.click(screen.getByLabelText(label, { selector: 'input' }).closest('.p-dropdown')!);
  const listbox = await screen.findByRole('listbox', { hidden: true });
  fireEvent.click(within(listbox).getByRole('option', { name: option, hidden: true }));
  await waitFor(() => expect(screen.queryByRole('listbox', { hidden: true })).toBeNull());
}

function dropdownText(label: string) {
  return screen.getByLabelText(label, { selector: 'input' }).closest('.p-dropdown')!.querySelector('.p-dropdown-label')!
    .textContent;
}

const card = (title: string) => screen.getByRole('article', { name: title });

describe('notices screen', () => {
  it('loads open incidents and maintenance first, with unescaped commas, and shows each card', async () => {
    const { listCalls } = noticesApi(payments);
    renderApp('/services/payments/notices');
    expect(await screen.findByRole('progressbar', { name: 'Loading notices' })).toBeTruthy();
    await screen.findByRole('article', { name: 'Checkout errors' });

    expect(listCalls().map(query)).toEqual(['type=incident,maintenance&status=open']);
    expect(fetchedUrls()).toContain('/api/services/payments/notices?type=incident,maintenance&status=open');
    expect(screen.getAllByRole('article').map((article) => article.getAttribute('aria-label'))).toEqual([
      'Checkout errors',
      'Database upgrade',
    ]);

    const incident = within(card('Checkout errors'));
    expect(incident.getByRole('heading', { name: 'Checkout errors' })).toBeTruthy();
    expect(incident.getByText('Incident')).toBeTruthy();
    expect(incident.getByText('Identified')).toBeTruthy();
    expect(incident.getByText('Mar 5, 2024')).toBeTruthy();
    expect(incident.getByText('Rolling back')).toBeTruthy();
    expect(incident.getByText('Mar 5, 09:30 am')).toBeTruthy();
    expect(incident.getByText('And more 2 updates')).toBeTruthy();
    expect(incident.getByRole('button', { name: 'View Details' })).toBeTruthy();

    const maintenance = within(card('Database upgrade'));
    expect(maintenance.getByText('Maintenance')).toBeTruthy();
    expect(maintenance.getByText('In progress')).toBeTruthy();
    expect(maintenance.getByText('Mar 4, 10:15 pm')).toBeTruthy();
    expect(maintenance.queryByText(/And more/)).toBeNull();

    // Three per row at medium width: 4 of 12 columns.
    expect(card('Checkout errors').closest('.col-12')!.className).toContain('md:col-4');
    // A viewer gets neither Add Notice nor Update.
    expect(screen.queryByRole('button', { name: 'Add Notice' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
  });

  it('sends the filter of each tab and of the Open switch', async () => {
    const { listCalls } = noticesApi(payments);
    renderApp('/services/payments/notices');
    await screen.findByRole('article', { name: 'Checkout errors' });

    expect(screen.getByRole('group', { name: 'Notice types' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'All' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('switch', { name: 'Open' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Maintenance' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Maintenance' }).getAttribute('aria-pressed')).toBe('true'),
    );
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
    expect(card('Database upgrade')).toBeTruthy();
    expect(listCalls().map(query).at(-1)).toBe('type=maintenance&status=open');

    fireEvent.click(screen.getByRole('switch', { name: 'Open' }));
    await screen.findByRole('article', { name: 'Old window' });
    expect(listCalls().map(query).at(-1)).toBe('type=maintenance&status=closed');
    expect(screen.getAllByRole('article')).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Incidents' }));
    await screen.findByRole('article', { name: 'Past outage' });
    expect(listCalls().map(query).at(-1)).toBe('type=incident&status=closed');

    fireEvent.click(screen.getByRole('button', { name: 'All' }));
    await screen.findByRole('article', { name: 'Old window' });
    expect(listCalls().map(query).at(-1)).toBe('type=incident,maintenance&status=closed');

    fireEvent.click(screen.getByRole('switch', { name: 'Open' }));
    await screen.findByRole('article', { name: 'Checkout errors' });
    expect(listCalls().map(query).at(-1)).toBe('type=incident,maintenance&status=open');
  });

  it("shows 'No notices' when there are none and when the load fails", async () => {
    noticesApi(payments, []);
    renderApp('/services/payments/notices');
    expect(await screen.findByText('No notices')).toBeTruthy();
    cleanup();
    vi.unstubAllGlobals();
    await resetLocalDb();

    noticesApi(payments, [checkout], true);
    renderApp('/services/payments/notices');
    // A server error is retried once before the list is given up.
    expect(await screen.findByText('No notices', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByRole('article')).toBeNull();
  });

  it('shows the whole history newest first in the view modal', async () => {
    noticesApi(payments);
    renderApp('/services/payments/notices');
    fireEvent.click(
      within(await screen.findByRole('article', { name: 'Checkout errors' })).getByRole('button', {
        name: 'View Details',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Checkout errors' });
    expect(within(dialog).getByText('Incident')).toBeTruthy();
    const entries = within(within(dialog).getByRole('list', { name: 'History' })).getAllByRole('listitem');
    expect(entries.map((entry) => entry.textContent)).toEqual([
      'IdentifiedMar 5, 09:30 amRolling back',
      'IdentifiedMar 5, 09:00 amFound the bad deploy',
      'InvestigatingMar 5, 08:00 amLooking into failed payments',
    ]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('notice modal', () => {
  it('gives editors Add Notice and Update on every card', async () => {
    noticesApi(editable);
    renderApp('/services/payments/notices');
    await screen.findByRole('article', { name: 'Checkout errors' });
    expect(screen.getByRole('button', { name: 'Add Notice' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Update' })).toHaveLength(2);
  });

  it('creates a notice: type change resets the status, the health rule blocks Save, then it toasts and refreshes', async () => {
    const { calls, listCalls } = noticesApi(editable);
    renderApp('/services/payments/notices');
    await screen.findByRole('article', { name: 'Checkout errors' });
    fireEvent.click(screen.getByRole('button', { name: 'Add Notice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Notice' });
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;

    // Defaults: an incident, investigating, the service's current health.
    expect(dropdownText('Type')).toBe('Incident');
    expect(dropdownText('Status')).toBe('Investigating');
    expect(dropdownText('Service Health')).toBe('Warning');
    expect(save.disabled).toBe(true);

    // The new type lacks the status: it resets to the type's default.
    await pick('Type', 'Maintenance');
    expect(dropdownText('Status')).toBe('Scheduled');
    await pick('Status', 'Completed');
    await pick('Type', 'Incident');
    expect(dropdownText('Status')).toBe('Investigating');
    await pick('Type', 'Maintenance');

    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Cache flush' } });
    fireEvent.change(within(dialog).getByLabelText('Message'), { target: { value: 'Flushing the cache' } });
    expect(save.disabled).toBe(false);

    await pick('Status', 'Completed');
    expect(within(dialog).getByText('Service health should be "Good" if notice is resolved.')).toBeTruthy();
    expect(save.disabled).toBe(true);
    await pick('Service Health', 'Good');
    expect(within(dialog).queryByText('Service health should be "Good" if notice is resolved.')).toBeNull();
    await pick('Status', 'In progress');
    await pick('Service Health', 'Maintenance');
    expect(save.disabled).toBe(false);

    const servicesBefore = calls.filter(
      (call) => call.method === 'GET' && call.path === '/api/services/payments',
    ).length;
    const listsBefore = listCalls().length;
    fireEvent.click(save);

    expect(await screen.findByText('Service Notice Created')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'POST' && call.path.endsWith('/notices'))).toMatchObject({
      path: '/api/services/payments/notices',
      body: {
        service: { id: 'payments' },
        type: 'maintenance',
        title: 'Cache flush',
        status: 'in_progress',
        message: 'Flushing the cache',
        health: 'maintenance',
      },
    });
    // The list refreshes with the current filter, and the service is read again for its new health.
    await screen.findByRole('article', { name: 'Cache flush' });
    expect(listCalls().slice(listsBefore).map(query)).toContain('type=incident,maintenance&status=open');
    await waitFor(() =>
      expect(
        calls.filter((call) => call.method === 'GET' && call.path === '/api/services/payments').length,
      ).toBeGreaterThan(servicesBefore),
    );
  });

  it('shows required errors once a field is left empty', async () => {
    noticesApi(editable);
    renderApp('/services/payments/notices');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Notice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Notice' });
    fireEvent.blur(within(dialog).getByLabelText('Title'));
    expect(within(dialog).getByText('This field is required')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('updates status, message and health only, with type and title read-only', async () => {
    const { calls } = noticesApi(editable);
    renderApp('/services/payments/notices');
    fireEvent.click(
      within(await screen.findByRole('article', { name: 'Checkout errors' })).getByRole('button', { name: 'Update' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Update Notice' });
    expect(within(dialog).getByText('Checkout errors')).toBeTruthy();
    expect(within(dialog).getByText('Incident')).toBeTruthy();
    expect(within(dialog).queryByLabelText('Title')).toBeNull();
    expect(within(dialog).queryByLabelText('Type', { selector: 'input' })).toBeNull();
    expect(dropdownText('Status')).toBe('Identified');

    await pick('Status', 'Resolved');
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    fireEvent.change(within(dialog).getByLabelText('Message'), { target: { value: 'All good again' } });
    expect(within(dialog).getByText('Service health should be "Good" if notice is resolved.')).toBeTruthy();
    expect(save.disabled).toBe(true);
    await pick('Service Health', 'Good');
    expect(save.disabled).toBe(false);
    fireEvent.click(save);

    expect(await screen.findByText('Service Notice Updated')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'PATCH')).toMatchObject({
      path: '/api/notices/n1',
      body: { status: 'resolved', message: 'All good again', health: 'good' },
    });
    expect(Object.keys(calls.find((call) => call.method === 'PATCH')!.body as object).sort()).toEqual([
      'health',
      'message',
      'status',
    ]);
    // Resolved now: it leaves the open list.
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Checkout errors' })).toBeNull());
  });
});
