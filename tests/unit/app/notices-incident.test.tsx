// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Notice } from '../../../src/contract/notices.js';
import { makeService, makeUser, renderApp, resetLocalDb, stubApi, type Call } from './services-kit.js';

beforeAll(() => {
  // The expected times below are UTC ones.
  process.env.TZ = 'UTC';
});

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

const me = makeUser('mia');
const payments = makeService('payments', { name: 'Payments' });

function incident(id: string, title: string, history: Notice['history']): Notice {
  return {
    id,
    type: 'incident',
    title,
    status: history.at(-1)!.status,
    message: history.at(-1)!.message,
    health: 'error',
    created_at: history[0]!.time,
    updated_at: history.at(-1)!.time,
    starts_at: null,
    ends_at: null,
    postmortem: null,
    history,
    service: { id: payments.id, handle: 'payments', name: 'Payments' },
  };
}

const newest = incident('n2', 'Checkout down', [
  { message: 'Payments fail at checkout', status: 'investigating', time: '2024-01-05T15:04:00.000Z' },
  { message: 'Rolling back the deploy', status: 'identified', time: '2024-01-05T16:30:00.000Z' },
]);
const older = incident('n1', 'Slow search', [
  { message: 'Search is slow', status: 'monitoring', time: '2024-01-03T08:00:00.000Z' },
]);

function overviewApi(answer: () => { status: number; body?: unknown } | 'hang') {
  const calls = stubApi(me, {
    handler: (call: Call) => {
      if (call.method === 'GET' && call.path === '/api/services/payments') return { status: 200, body: payments };
      return undefined;
    },
  });
  const inner = globalThis.fetch;
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit = {}) => {
      if (new URL(input, 'http://acme.localhost').pathname === '/api/services/payments/notices') {
        calls.push({
          method: init.method ?? 'GET',
          path: '/api/services/payments/notices',
          query: new URL(input, 'http://acme.localhost').searchParams,
          body: undefined,
        });
        const result = answer();
        if (result === 'hang') return new Promise<Response>(() => {});
        return Promise.resolve(
          new Response(JSON.stringify(result.body ?? null), {
            status: result.status,
            headers: { 'content-type': 'application/json' },
          }),
        );
      }
      return inner(input, init);
    }),
  );
  return calls;
}

const noticeCalls = (calls: Call[]) => calls.filter((call) => call.path === '/api/services/payments/notices');

describe('latest incident card', () => {
  it('asks for open incidents and shows the newest: title, first message and its time', async () => {
    const calls = overviewApi(() => ({ status: 200, body: [newest, older] }));
    renderApp('/services/payments');
    const card = await screen.findByRole('article', { name: 'Latest incident' });
    expect(within(card).getByRole('heading', { name: 'Checkout down' })).toBeTruthy();
    expect(within(card).getByText('Payments fail at checkout')).toBeTruthy();
    expect(within(card).getByText('Jan 5, 03:04 pm')).toBeTruthy();
    expect(within(card).queryByText('Rolling back the deploy')).toBeNull();
    expect(screen.queryByText('Slow search')).toBeNull();
    expect(noticeCalls(calls).map((call) => `${call.query.get('type')}&${call.query.get('status')}`)).toEqual([
      'incident&open',
    ]);
  });

  it('renders nothing while pending', async () => {
    const calls = overviewApi(() => 'hang');
    renderApp('/services/payments');
    await screen.findByRole('heading', { name: 'Payments', level: 1 });
    await waitFor(() => expect(noticeCalls(calls)).toHaveLength(1));
    expect(screen.queryByRole('article', { name: 'Latest incident' })).toBeNull();
    expect(screen.queryByRole('progressbar', { name: 'Loading notices' })).toBeNull();
  });

  it('renders nothing without open incidents or when the load fails', async () => {
    let calls = overviewApi(() => ({ status: 200, body: [] }));
    renderApp('/services/payments');
    await screen.findByRole('heading', { name: 'Payments', level: 1 });
    await waitFor(() => expect(noticeCalls(calls)).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('article', { name: 'Latest incident' })).toBeNull();
    cleanup();
    vi.unstubAllGlobals();
    await resetLocalDb();

    calls = overviewApi(() => ({ status: 403, body: { message: 'Forbidden' } }));
    renderApp('/services/payments');
    await screen.findByRole('heading', { name: 'Payments', level: 1 });
    await waitFor(() => expect(noticeCalls(calls)).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('article', { name: 'Latest incident' })).toBeNull();
  });
});
