// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Service } from '../../../src/contract/catalogue.js';
import type { RemoteDependency, RemoteService } from '../../../src/contract/dependencies.js';
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

const me = makeUser('mia');

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

const payments = makeService('payments', { name: 'Payments' });
const editable: Service = { ...payments, permissions: { edit: true } };

const billing: RemoteDependency = {
  workspace: 'partner',
  handle: 'billing',
  name: 'Billing',
  thumbnail_url: null,
  health: 'warning',
  available: true,
};
const gone: RemoteDependency = {
  workspace: 'oldco',
  handle: 'ledger',
  name: 'Ledger',
  thumbnail_url: null,
  health: null,
  available: false,
};
/** The public services of the linked workspaces the search knows. */
const published: RemoteService[] = [
  { workspace: 'partner', handle: 'billing', name: 'Billing', thumbnail_url: null, health: 'warning' },
  { workspace: 'partner', handle: 'bills-api', name: 'Bills API', thumbnail_url: null, health: 'good' },
  { workspace: 'vendor', handle: 'bill-print', name: 'Bill Print', thumbnail_url: null, health: 'critical' },
];

const BASE = '/api/services/payments/remote-dependencies';

/** A server holding one service and its remote dependencies. */
function remoteApi(service: Service, { held = [] as RemoteDependency[], fail = {} as Record<string, Answer> } = {}) {
  const server = { held: [...held] };
  const calls = stubApi(me, {
    handler: (call: Call) => {
      const failure = fail[`${call.method} ${call.path}`];
      if (failure) return failure;
      if (call.method === 'GET' && call.path === '/api/services/payments') return { status: 200, body: service };
      if (call.method === 'GET' && call.path === BASE) return { status: 200, body: server.held };
      if (call.method === 'GET' && call.path === '/api/search-remotes/services') {
        const q = (call.query.get('q') ?? '').toLowerCase();
        return { status: 200, body: published.filter((item) => item.name.toLowerCase().includes(q)) };
      }
      if (call.method === 'POST' && call.path === BASE) {
        const body = call.body as { workspace: string; service: string };
        const found = published.find((item) => item.workspace === body.workspace && item.handle === body.service)!;
        const added: RemoteDependency = { ...found, available: true };
        server.held = [...server.held, added];
        return { status: 201, body: added };
      }
      const removed = new RegExp(`^${BASE}/([^/]+)/([^/]+)$`).exec(call.path);
      if (call.method === 'DELETE' && removed) {
        server.held = server.held.filter((item) => !(item.workspace === removed[1] && item.handle === removed[2]));
        return { status: 204 };
      }
      return undefined;
    },
  });
  return { calls, server };
}

async function remoteCard(): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { name: 'Remote Dependencies' });
  return heading.closest('.p-card') as HTMLElement;
}

describe('remote dependencies card', () => {
  it('shows a viewer each remote dependency with its workspace and health, or Unavailable, and no actions', async () => {
    remoteApi(payments, { held: [billing, gone] });
    renderApp('/services/payments');
    const card = await remoteCard();
    const list = await within(card).findByRole('list', { name: 'Remote dependencies' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first!).getByText('Billing')).toBeTruthy();
    expect(within(first!).getByText('partner')).toBeTruthy();
    expect(within(first!).getByText('Warning')).toBeTruthy();
    expect(within(second!).getByText('Ledger')).toBeTruthy();
    expect(within(second!).getByText('oldco')).toBeTruthy();
    expect(within(second!).getByText('Unavailable')).toBeTruthy();
    // No view, star, add or remove for a viewer; nothing links to the remote service.
    expect(within(card).queryAllByRole('button')).toEqual([]);
    expect(within(card).queryAllByRole('link')).toEqual([]);
  });

  it("reads 'No Dependencies' when there are none, and says so when the list could not be loaded", async () => {
    remoteApi(editable);
    renderApp('/services/payments');
    let card = await remoteCard();
    expect(await within(card).findByText('No Dependencies')).toBeTruthy();
    expect(within(card).queryByText('The list could not be loaded.')).toBeNull();
    cleanup();
    await resetLocalDb();

    remoteApi(editable, { fail: { [`GET ${BASE}`]: { status: 403, body: { message: 'Forbidden' } } } });
    renderApp('/services/payments');
    card = await remoteCard();
    expect(await within(card).findByText('The list could not be loaded.')).toBeTruthy();
    expect(within(card).getByText('No Dependencies')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Add Remote Dependency' })).toBeTruthy();
  });

  it('lets an editor add a remote service found by a debounced search, already added ones left out', async () => {
    const { calls } = remoteApi(editable, { held: [billing] });
    renderApp('/services/payments');
    const card = await remoteCard();
    await within(card).findByRole('list', { name: 'Remote dependencies' });
    fireEvent.click(within(card).getByRole('button', { name: 'Add Remote Dependency' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Remote Dependency' });
    const add = within(dialog).getByRole('button', { name: 'Add' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);

    const input = within(dialog).getByLabelText('Remote service');
    fireEvent.change(input, { target: { value: 'b' } });
    fireEvent.change(input, { target: { value: 'bil' } });
    // Typed text is not a remote service.
    expect(add.disabled).toBe(true);
    const option = await screen.findByRole('option', { name: /Bill Print/, hidden: true }, { timeout: 2000 });
    const searches = calls.filter((call) => call.path === '/api/search-remotes/services');
    expect(searches.map((call) => call.query.get('q'))).toEqual(['bil']);
    // Billing is a dependency already.
    expect(screen.getAllByRole('option', { hidden: true }).map((item) => item.textContent)).toEqual([
      expect.stringContaining('Bills API'),
      expect.stringContaining('Bill Print'),
    ]);
    expect(within(option).getByText('Critical')).toBeTruthy();
    expect(await violations()).toEqual([]);
    fireEvent.click(option);
    await waitFor(() => expect(add.disabled).toBe(false));
    fireEvent.click(add);

    expect(await screen.findByText('Service Dependency Added')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'POST' && call.path === BASE)?.body).toEqual({
      workspace: 'vendor',
      service: 'bill-print',
    });
    const list = within(card).getByRole('list', { name: 'Remote dependencies' });
    expect(await within(list).findByText('Bill Print')).toBeTruthy();
    expect(within(list).getByText('vendor')).toBeTruthy();
  });

  it('keeps the dialog open and toasts the failure when an add is refused', async () => {
    remoteApi(editable, { fail: { [`POST ${BASE}`]: { status: 409, body: { message: 'Already there' } } } });
    renderApp('/services/payments');
    const card = await remoteCard();
    fireEvent.click(await within(card).findByRole('button', { name: 'Add Remote Dependency' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Remote Dependency' });
    fireEvent.change(within(dialog).getByLabelText('Remote service'), { target: { value: 'bills' } });
    fireEvent.click(await screen.findByRole('option', { name: /Bills API/, hidden: true }, { timeout: 2000 }));
    const add = within(dialog).getByRole('button', { name: 'Add' }) as HTMLButtonElement;
    await waitFor(() => expect(add.disabled).toBe(false));
    fireEvent.click(add);
    const toast = await screen.findByText('Failed to add remote dependency');
    expect(toast.closest('.beacon-snackbar')?.className).toContain('beacon-snackbar-error');
    expect(screen.getByRole('dialog', { name: 'Add Remote Dependency' })).toBeTruthy();
  });

  it('lets an editor remove a remote dependency, unavailable ones too; a failed remove says so', async () => {
    const { calls } = remoteApi(editable, {
      held: [billing, gone],
      fail: { [`DELETE ${BASE}/partner/billing`]: { status: 500, body: { message: 'Boom' } } },
    });
    renderApp('/services/payments');
    const card = await remoteCard();
    const list = await within(card).findByRole('list', { name: 'Remote dependencies' });
    fireEvent.click(within(list).getByRole('button', { name: 'Remove Ledger' }));
    expect(await screen.findByText('Service Dependency Removed')).toBeTruthy();
    await waitFor(() => expect(within(card).queryByText('Ledger')).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE' && call.path === `${BASE}/oldco/ledger`)).toBe(true);

    fireEvent.click(within(card).getByRole('button', { name: 'Remove Billing' }));
    const toast = await screen.findByText('Failed to remove dependency');
    expect(toast.closest('.beacon-snackbar')?.className).toContain('beacon-snackbar-error');
    expect(within(card).getByText('Billing')).toBeTruthy();
  });

  it('offline, shows the remote dependencies seen last on this device', async () => {
    remoteApi(payments, { held: [billing] });
    renderApp('/services/payments');
    await within(await remoteCard()).findByText('Billing');
    const stored = async () =>
      (await localDb().queries.toArray()).filter((row) => row.key.includes('remote-dependencies')).length;
    await waitFor(async () => expect(await stored()).toBe(1));
    cleanup();
    vi.unstubAllGlobals();

    remoteApi(payments, { held: [] });
    failNetworkFor((method, path) => method === 'GET' && path === BASE);
    renderApp('/services/payments');
    const card = await remoteCard();
    expect(await within(card).findByText('Billing')).toBeTruthy();
    expect(within(card).getByText('Warning')).toBeTruthy();
    expect(within(card).queryByText('The list could not be loaded.')).toBeNull();
  });
});
