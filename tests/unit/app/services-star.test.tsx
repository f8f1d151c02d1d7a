// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceCard } from '../../../src/app/services/service-card.js';
import {
  failNetworkFor,
  localDb,
  makeService,
  makeUser,
  page,
  renderApp,
  resetLocalDb,
  setOnline,
  stubApi,
  type Handler,
} from './services-kit.js';

const me = makeUser('mia', { name: 'Mia' });
const payments = makeService('payments', { name: 'Payments', starred_count: 2, description: 'Takes money' });

function starButton(name = 'Payments') {
  return screen.getByRole('button', { name: `Star ${name}` });
}

function servicesApi(extra?: Handler) {
  return stubApi(me, {
    handler: (call) => {
      const answer = extra?.(call);
      if (answer) return answer;
      if (call.method === 'GET' && call.path === '/api/search/services') return page([payments]);
      if (call.path.startsWith('/api/users/mia/starred/')) return { status: 204 };
      return undefined;
    },
  });
}

beforeEach(() => setOnline(true));

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  setOnline(true);
  await resetLocalDb();
});

describe('star toggle', () => {
  it('updates the count at once and queues one outbox entry per toggle, the second the reverse', async () => {
    setOnline(false);
    const calls = servicesApi();
    renderApp('/services');

    await screen.findByText('Takes money');
    expect(starButton().textContent).toContain('2');
    expect(starButton().getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(starButton());
    // At once (the next render), with nothing sent: the app is offline.
    await waitFor(() => expect(starButton().textContent).toContain('3'));
    expect(starButton().getAttribute('aria-pressed')).toBe('true');

    const db = localDb();
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    expect(await db.outbox.toArray()).toEqual([
      expect.objectContaining({
        kind: 'star',
        operation: 'starService',
        input: { params: { username: 'mia', service: 'payments' } },
        status: 'pending',
        label: 'Star Payments',
      }),
    ]);
    // The optimistic star lives in the outbox only.
    expect(await db.entities.count()).toBe(0);

    fireEvent.click(starButton());
    await waitFor(() => expect(starButton().textContent).toContain('2'));
    expect(starButton().getAttribute('aria-pressed')).toBe('false');
    await waitFor(async () => expect(await db.outbox.count()).toBe(2));
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((entry) => [entry.operation, entry.input])).toEqual([
      ['starService', { params: { username: 'mia', service: 'payments' } }],
      ['unstarService', { params: { username: 'mia', service: 'payments' } }],
    ]);
    // Offline: nothing went to the server.
    expect(calls.filter((call) => call.path.startsWith('/api/users/mia/starred/'))).toHaveLength(0);

    // Back online: the outbox sends both, in order, with their Idempotency-Keys, and empties.
    setOnline(true);
    window.dispatchEvent(new Event('online'));
    await waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(calls.filter((call) => call.path.startsWith('/api/users/mia/starred/')).map((call) => call.method)).toEqual([
      'PUT',
      'DELETE',
    ]);
    expect(starButton().textContent).toContain('2');
  });

  it('sends the star when online, shows it in Starred Services at once and reads that list again after', async () => {
    let starred: unknown[] = [];
    const calls = stubApi(me, {
      handler: (call) => {
        if (call.method === 'GET' && call.path === '/api/users/mia/starred') return { status: 200, body: starred };
        if (call.method === 'PUT' && call.path === '/api/users/mia/starred/payments') {
          starred = [
            {
              id: payments.id,
              profile: { id: payments.id, handle: 'payments', name: 'Payments', thumbnail_url: null },
            },
          ];
          return { status: 204 };
        }
        return undefined;
      },
    });
    const starredReads = () => calls.filter((call) => call.method === 'GET' && call.path === '/api/users/mia/starred');
    renderApp('/', { aside: <ServiceCard service={payments} /> });
    expect(await screen.findByText('No Starred')).toBeTruthy();
    expect(starredReads()).toHaveLength(1);

    fireEvent.click(starButton());
    const panel = screen.getByRole('region', { name: 'Starred Services' });
    expect(await within(panel).findByRole('link', { name: 'Payments' })).toBeTruthy();
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PUT')?.path).toBe('/api/users/mia/starred/payments'),
    );
    await waitFor(async () => expect(await localDb().outbox.count()).toBe(0));
    await waitFor(() => expect(starredReads()).toHaveLength(2));
    expect(within(panel).getByRole('link', { name: 'Payments' }).getAttribute('href')).toBe('/services/payments');
  });

  it('offline (fetch rejects), still toggles locally and the write stays pending', async () => {
    const calls = servicesApi();
    failNetworkFor((method, path) => method !== 'GET' && path.startsWith('/api/users/mia/starred/'));
    renderApp('/services');

    await screen.findByText('Takes money');
    fireEvent.click(starButton());
    await waitFor(() => expect(starButton().textContent).toContain('3'));

    const db = localDb();
    // The sync tried once, got no answer, and keeps the entry first in line.
    await waitFor(async () => expect((await db.outbox.toArray())[0]?.attempts).toBe(1));
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({
      operation: 'starService',
      input: { params: { username: 'mia', service: 'payments' } },
      status: 'pending',
    });
    expect(entry?.lastError).toContain('Failed to fetch');
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(0);
    expect(starButton().textContent).toContain('3');
    expect(starButton().getAttribute('aria-pressed')).toBe('true');
  });

  it('undoes the optimistic star when the server refuses it (the entry is kept as failed)', async () => {
    const calls = stubApi(me, {
      handler: (call) => {
        if (call.method === 'GET' && call.path === '/api/search/services') return page([payments]);
        if (call.method === 'PUT') return { status: 403, body: { message: 'Forbidden' } };
        return undefined;
      },
    });
    renderApp('/services');
    await screen.findByText('Takes money');
    fireEvent.click(starButton());
    await waitFor(() => expect(starButton().textContent).toContain('3'));

    const db = localDb();
    await waitFor(async () => expect((await db.outbox.toArray())[0]?.status).toBe('failed'));
    // The services are read again and show what the server holds.
    await waitFor(() => expect(starButton().textContent).toContain('2'));
    expect(starButton().getAttribute('aria-pressed')).toBe('false');
    expect(calls.filter((call) => call.path === '/api/search/services').length).toBeGreaterThan(1);
  });

  it('shows a star still waiting in the outbox over what the server said (e.g. after a reload)', async () => {
    setOnline(false);
    servicesApi();
    const db = localDb();
    await db.outbox.add({
      key: 'k1',
      kind: 'star',
      operation: 'starService',
      input: { params: { username: 'mia', service: 'payments' } },
      view: { id: payments.id, handle: 'payments', name: 'Payments', thumbnail_url: null },
      createdAt: Date.now(),
      status: 'pending',
      attempts: 0,
      label: 'Star Payments',
    });
    renderApp('/services');
    await screen.findByText('Takes money');
    await waitFor(() => expect(starButton().textContent).toContain('3'));
    expect(starButton().getAttribute('aria-pressed')).toBe('true');
  });
});

describe('sign-in', () => {
  it('reads the starred list once a token is there, on any screen (spec section 4)', async () => {
    const calls = servicesApi();
    renderApp('/services');
    await screen.findByText('Takes money');
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'GET' && call.path === '/api/users/mia/starred')).toHaveLength(1),
    );
  });
});

describe('service card', () => {
  it("shows avatar, name, a 'Status: ' line, the clamped description and both buttons", async () => {
    servicesApi();
    renderApp('/extra', { extra: <ServiceCard service={{ ...payments, health: 'warning' }} /> });
    const card = await screen.findByRole('article', { name: 'Payments' });
    expect(within(card).getByText('Status:')).toBeTruthy();
    expect(within(card).getByText('Warning')).toBeTruthy();
    expect(within(card).getByText('Takes money').className).toContain('beacon-clamp-2');
    expect(within(card).getByRole('button', { name: 'View Service' })).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Star Payments' })).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: 'View Service' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/services/payments'));
  });

  it('hides either button on request', async () => {
    servicesApi();
    renderApp('/extra', {
      extra: (
        <>
          <ServiceCard service={payments} hideView />
          <ServiceCard service={makeService('search', { name: 'Search' })} hideStar />
        </>
      ),
    });
    const first = await screen.findByRole('article', { name: 'Payments' });
    expect(within(first).queryByRole('button', { name: 'View Service' })).toBeNull();
    expect(within(first).getByRole('button', { name: 'Star Payments' })).toBeTruthy();
    const second = screen.getByRole('article', { name: 'Search' });
    expect(within(second).getByRole('button', { name: 'View Service' })).toBeTruthy();
    expect(within(second).queryByRole('button', { name: 'Star Search' })).toBeNull();
  });
});
