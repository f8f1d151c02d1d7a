// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { makeUser, page, renderUsers, resetLocalDb, stubApi, violations, type Call } from './users-kit.js';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

const me = makeUser('mia', { role: 'owner', super_admin: true });
const ann = makeUser('ann', { bio: 'Runs payments', last_login: '2024-01-01T00:00:00Z' });
const olga = makeUser('olga', { role: 'owner' });

function handler(call: Call) {
  if (call.path === '/api/search/users') return page([ann, olga], 45);
  if (call.path === '/api/invites')
    return page([{ id: 'i1', email: 'new@acme.test', last_sent: new Date().toISOString() }]);
  if (call.path === '/api/users/mia/teams') {
    return { status: 200, body: [{ id: 't1', handle: 'core', name: 'Core', description: null, thumbnail_url: null }] };
  }
  if (call.path === '/api/users/mia/muted') {
    return {
      status: 200,
      body: [{ profile: { id: 's1', name: 'Search', description: 'Finds' }, activity: true, notifications: false }],
    };
  }
  if (call.path === '/api/users/mia/services')
    return { status: 200, body: [{ service: { id: 's1', name: 'Search' }, muted: true }] };
  return undefined;
}

it('the users directory and its pending invites pass axe', async () => {
  stubApi(me, { users: [ann], handler });
  renderUsers('/users');
  await screen.findByRole('link', { name: 'Ann' });
  expect(await violations()).toEqual([]);

  fireEvent.click(screen.getByRole('switch', { name: 'Pending Users' }));
  await screen.findByText('new@acme.test');
  expect(await violations()).toEqual([]);
});

it.each(['/users/ann', '/users/mia/teams', '/users/mia/muted', '/users/mia/settings'])(
  'the profile at %s passes axe',
  async (url) => {
    stubApi(me, { users: [ann], handler });
    renderUsers(url);
    await screen.findAllByRole('menuitem');
    await screen.findAllByText(/Runs payments|Core|Finds|Search/);
    expect(await violations()).toEqual([]);
  },
);

it('the Delete User dialog passes axe', async () => {
  stubApi(me, { users: [ann], handler });
  renderUsers('/users/ann');
  fireEvent.click(await screen.findByRole('button', { name: 'Delete User' }));
  await screen.findByRole('dialog');
  expect(await violations()).toEqual([]);
});
