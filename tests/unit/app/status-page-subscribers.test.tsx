// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StatusPage, StatusSubscriber } from '../../../src/contract/status-pages.js';
import AdminScreen from '../../../src/app/admin/admin-screen.js';
import { followsText } from '../../../src/app/admin/status-page-subscribers.js';
import { LocalProvider } from '../../../src/app/local/local-provider.js';
import { BreadcrumbBar, BreadcrumbProvider } from '../../../src/app/shell/breadcrumb.js';
import { deleteLocalDb } from '../../../src/local/db.js';
import { localCode } from './local-code.js';
import { makeUser, renderSignedIn, stubApi, violations, type Answer, type Call } from './app-kit.js';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await deleteLocalDb('acme', 'mia');
});

const admin = makeUser('mia', { role: 'admin' });

function renderAdmin(url: string) {
  return renderSignedIn(url, <Route path="/admin/*" element={<AdminScreen />} />, (screens) => (
    <LocalProvider code={localCode}>
      <BreadcrumbProvider>
        <BreadcrumbBar />
        {screens}
      </BreadcrumbProvider>
    </LocalProvider>
  ));
}

const page: StatusPage = {
  handle: 'acme',
  title: 'Acme status',
  description: '',
  logo_url: null,
  access: 'public',
  has_password: false,
  custom_domain: null,
  custom_domain_status: null,
  custom_domain_token: null,
  custom_domain_record: null,
  custom_domain_checked_at: null,
  custom_domain_check_error: null,
  show_upstream: true,
  upstream_depth: 3,
  groups: [],
  url: 'http://acme.localhost/status/acme',
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z',
};

function subscriber(overrides: Partial<StatusSubscriber> & { id: string; address: string }): StatusSubscriber {
  return {
    kind: 'email',
    components: null,
    include_upstream: false,
    confirmed: true,
    created_at: '2024-03-05T12:00:00.000Z',
    ...overrides,
  };
}

const ann = subscriber({ id: 's1', address: 'ann@example.com' });
const bob = subscriber({
  id: 's2',
  address: 'bob@example.com',
  confirmed: false,
  components: ['checkout', 'identity'],
  include_upstream: true,
  created_at: '2024-04-10T12:00:00.000Z',
});
const hook = subscriber({
  id: 's3',
  kind: 'webhook',
  address: 'https://hooks.example.com/beacon/a-rather-long-path-that-has-to-wrap',
  components: ['ledger'],
});

/** A server holding one status page and its subscribers; `fail` answers a call ("METHOD /path") otherwise. */
function subscribersApi(subscribers: StatusSubscriber[], { fail = {} as Record<string, Answer> } = {}) {
  const server = new Map(subscribers.map((one) => [one.id, one]));
  const calls = stubApi(admin, {
    handler: (call: Call) => {
      const failure = fail[`${call.method} ${call.path}`];
      if (failure) return failure;
      if (call.path === '/api/status-pages/acme' && call.method === 'GET') return { status: 200, body: page };
      if (call.path === '/api/status-pages/acme/subscribers' && call.method === 'GET')
        return { status: 200, body: [...server.values()] };
      const one = /^\/api\/status-pages\/acme\/subscribers\/([^/]+)$/.exec(call.path);
      if (one && call.method === 'DELETE') {
        const id = decodeURIComponent(one[1]!);
        if (!server.delete(id)) return { status: 404, body: { message: 'Not Found' } };
        return { status: 204 };
      }
      return undefined;
    },
  });
  return { calls, server };
}

const deletes = (calls: Call[]) => calls.filter((call) => call.method === 'DELETE').map((call) => call.path);

describe('status page subscribers', () => {
  it('says what a subscriber follows', () => {
    expect(followsText({ components: null, include_upstream: false })).toBe('Whole page');
    expect(followsText({ components: ['checkout', 'identity'], include_upstream: false })).toBe('checkout, identity');
    expect(followsText({ components: ['checkout', 'identity'], include_upstream: true })).toBe(
      'checkout, identity and what they depend on',
    );
    expect(followsText({ components: ['ledger'], include_upstream: true })).toBe('ledger and what it depends on');
  });

  it('lists the subscribers with their kind, what they follow, their confirmation and date', async () => {
    subscribersApi([ann, bob, hook]);
    renderAdmin('/admin/status-pages/acme');
    expect(await screen.findByRole('heading', { name: 'Subscribers (3)', level: 2 })).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Subscribers' });
    const [first, second, third] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement, HTMLElement];

    expect(within(first).getByText('ann@example.com')).toBeTruthy();
    expect(within(first).getByText('Email')).toBeTruthy();
    expect(within(first).getByText('Whole page')).toBeTruthy();
    expect(within(first).getByText('Mar 5, 2024').getAttribute('dateTime')).toBe('2024-03-05T12:00:00.000Z');
    expect(within(first).queryByText('Waiting for confirmation')).toBeNull();

    expect(within(second).getByText('bob@example.com')).toBeTruthy();
    expect(within(second).getByText('checkout, identity and what they depend on')).toBeTruthy();
    expect(within(second).getByText('Waiting for confirmation')).toBeTruthy();
    expect(within(second).getByText('Apr 10, 2024')).toBeTruthy();

    expect(within(third).getByText(hook.address)).toBeTruthy();
    expect(within(third).getByText('Webhook')).toBeTruthy();
    expect(within(third).getByText('ledger')).toBeTruthy();
    expect(within(third).getByRole('button', { name: `Remove ${hook.address}` })).toBeTruthy();
    expect(await violations()).toEqual([]);
  });

  it('says how visitors subscribe when there is no subscriber', async () => {
    subscribersApi([]);
    renderAdmin('/admin/status-pages/acme');
    expect(
      await screen.findByText(
        'No one has subscribed yet. Visitors subscribe from the page itself, by email or webhook.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Subscribers (0)', level: 2 })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Subscribers' })).toBeNull();
  });

  it('says when the subscribers could not be loaded', async () => {
    subscribersApi([], {
      fail: { 'GET /api/status-pages/acme/subscribers': { status: 403, body: { message: 'No' } } },
    });
    renderAdmin('/admin/status-pages/acme');
    expect((await screen.findByText('Subscribers could not be loaded')).getAttribute('role')).toBe('alert');
    expect(screen.getByRole('heading', { name: 'Subscribers', level: 2 })).toBeTruthy();
  });

  it('is not shown on a new page', async () => {
    const { calls } = subscribersApi([ann]);
    renderAdmin('/admin/status-pages/new');
    await screen.findByRole('heading', { name: 'New status page', level: 1 });
    expect(screen.queryByRole('heading', { name: /^Subscribers/ })).toBeNull();
    expect(calls.some((call) => call.path.endsWith('/subscribers'))).toBe(false);
  });

  it('removes a subscriber only after the confirmation, and the row goes', async () => {
    const { calls, server } = subscribersApi([ann, bob]);
    renderAdmin('/admin/status-pages/acme');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove ann@example.com' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove subscriber' });
    expect(within(dialog).getByText(/Are you sure you want to remove the subscriber ann@example.com\?/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deletes(calls)).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Remove ann@example.com' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove subscriber' });
    expect(await violations()).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Subscriber was removed')).toBeTruthy();
    expect(deletes(calls)).toEqual(['/api/status-pages/acme/subscribers/s1']);
    expect(server.has('s1')).toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(screen.queryByText('ann@example.com')).toBeNull());
    expect(screen.getByRole('heading', { name: 'Subscribers (1)', level: 2 })).toBeTruthy();
    // Focus goes to the next row's Remove.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove bob@example.com' })),
    );
  });

  it('keeps the dialog open after a failed remove', async () => {
    const { server } = subscribersApi([ann], {
      fail: { 'DELETE /api/status-pages/acme/subscribers/s1': { status: 500, body: { message: 'Broken' } } },
    });
    renderAdmin('/admin/status-pages/acme');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove ann@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove subscriber' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('There was an error while removing the subscriber')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Remove subscriber' })).toBeTruthy();
    expect(screen.getByText('ann@example.com')).toBeTruthy();
    expect(server.has('s1')).toBe(true);
  });
});
