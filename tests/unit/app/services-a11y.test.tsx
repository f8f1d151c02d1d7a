// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import {
  makeService,
  makeTeam,
  makeUser,
  page,
  renderApp,
  resetLocalDb,
  stubApi,
  violations,
  type Call,
} from './services-kit.js';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

const me = makeUser('mia', { name: 'Mia' });
const core = makeTeam('core', { name: 'Core', member_count: 2 });
const payments = makeService('payments', {
  name: 'Payments',
  description: 'Takes money',
  permissions: { edit: true },
  starred_count: 1,
});

function handler(call: Call) {
  if (call.method !== 'GET') return undefined;
  if (call.path === '/api/search/services') return page([payments, makeService('search', { name: 'Search' })], 40);
  if (call.path === '/api/services/payments') return { status: 200, body: payments };
  if (call.path === '/api/users/mia/teams') return { status: 200, body: [core] };
  if (call.path === '/api/teams/core/services') return { status: 200, body: [payments] };
  if (call.path === '/api/search/teams') return page([core]);
  if (call.path === '/api/users/mia/starred')
    return {
      status: 200,
      body: [{ id: 's1', profile: { id: payments.id, handle: 'payments', name: 'Payments', thumbnail_url: null } }],
    };
  return undefined;
}

it.each([
  ['/services', 'article'],
  ['/services/payments', 'Service sections'],
  ['/services/payments/settings', 'Service sections'],
  ['/services/new', 'Select a team'],
  ['/', 'Starred Services'],
])('%s passes axe', async (url, ready) => {
  stubApi(me, { handler });
  renderApp(url);
  if (ready === 'article') await screen.findAllByRole('article');
  else if (ready === 'Service sections') await screen.findByRole('navigation', { name: ready });
  else await screen.findAllByText(ready);
  // Panels and selects filled.
  await new Promise((resolve) => setTimeout(resolve, 150));
  expect(await violations()).toEqual([]);
});

it('the guided tour passes axe', async () => {
  stubApi(me, { handler });
  renderApp('/');
  fireEvent.click(await screen.findByRole('button', { name: 'Help' }));
  await screen.findByRole('dialog');
  expect(await violations()).toEqual([]);
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  expect(await violations()).toEqual([]);
});

it('the delete confirmation passes axe', async () => {
  stubApi(me, { handler });
  renderApp('/services/payments/settings');
  fireEvent.click(await screen.findByRole('button', { name: 'Delete Service' }));
  await screen.findByRole('dialog');
  expect(await violations()).toEqual([]);
});
