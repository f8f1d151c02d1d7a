// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { Notice } from '../../../src/contract/notices.js';
import { makeService, makeUser, renderApp, resetLocalDb, stubApi, violations, type Call } from './services-kit.js';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

const me = makeUser('mia');
const payments = makeService('payments', { name: 'Payments', permissions: { edit: true } });
const notice: Notice = {
  id: 'n1',
  type: 'incident',
  title: 'Checkout errors',
  status: 'identified',
  message: 'Rolling back',
  health: 'error',
  created_at: '2024-03-05T08:00:00.000Z',
  updated_at: '2024-03-05T09:30:00.000Z',
  starts_at: null,
  ends_at: null,
  postmortem: null,
  history: [
    { message: 'Looking', status: 'investigating', time: '2024-03-05T08:00:00.000Z' },
    { message: 'Rolling back', status: 'identified', time: '2024-03-05T09:30:00.000Z' },
  ],
  service: { id: payments.id, handle: 'payments', name: 'Payments' },
};

function handler(call: Call) {
  if (call.method !== 'GET') return undefined;
  if (call.path === '/api/services/payments') return { status: 200, body: payments };
  if (call.path === '/api/services/payments/notices') return { status: 200, body: [notice] };
  return undefined;
}

async function ready() {
  stubApi(me, { handler });
  renderApp('/services/payments/notices');
  await screen.findByRole('article', { name: 'Checkout errors' });
  await new Promise((resolve) => setTimeout(resolve, 150));
}

it('the notices screen passes axe', async () => {
  await ready();
  expect(await violations()).toEqual([]);
});

it('the notice modals pass axe', async () => {
  await ready();
  fireEvent.click(screen.getByRole('button', { name: 'Add Notice' }));
  const add = await screen.findByRole('dialog', { name: 'Add Notice' });
  expect(await violations()).toEqual([]);
  fireEvent.click(within(add).getByRole('button', { name: 'Cancel' }));

  fireEvent.click(
    within(screen.getByRole('article', { name: 'Checkout errors' })).getByRole('button', { name: 'Update' }),
  );
  await screen.findByRole('dialog', { name: 'Update Notice' });
  expect(await violations()).toEqual([]);
});

it('the overview with the latest incident and the view modal pass axe', async () => {
  stubApi(me, { handler });
  renderApp('/services/payments');
  await screen.findByRole('article', { name: 'Latest incident' });
  expect(await violations()).toEqual([]);
  cleanup();

  await ready();
  fireEvent.click(screen.getByRole('button', { name: 'View Details' }));
  await screen.findByRole('dialog', { name: 'Checkout errors' });
  expect(await violations()).toEqual([]);
});
