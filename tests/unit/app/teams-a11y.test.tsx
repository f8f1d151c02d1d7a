// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import {
  makeMember,
  makeService,
  makeTeam,
  makeUser,
  page,
  renderTeams,
  stubApi,
  violations,
  type Call,
} from './teams-kit.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me = makeUser('mia');
const ann = makeUser('ann', { description: 'Payments lead' });
const core = makeTeam('core', {
  description: 'Runs the core',
  is_admin: true,
  is_member: true,
  members: [{ id: ann.id, name: 'Ann', thumbnail_url: null }],
  member_count: 1,
});

function handler(call: Call) {
  if (call.method !== 'GET') return undefined;
  if (call.path === '/api/search/teams') return page([core, makeTeam('ops')], 45);
  if (call.path === '/api/teams/core') return { status: 200, body: core };
  if (call.path === '/api/teams/core/members') return page([makeMember(ann, 'admin'), makeMember(me)]);
  if (call.path === '/api/teams/core/services') return page([makeService('search')]);
  if (call.path === '/api/teams/core/teams') return page([makeTeam('api')]);
  return undefined;
}

it('the teams list passes axe', async () => {
  stubApi(me, { handler });
  renderTeams('/teams');
  await screen.findByRole('link', { name: 'Core' });
  expect(await violations()).toEqual([]);
});

it('the create team form passes axe, with the handle check shown', async () => {
  stubApi(me, { handler });
  renderTeams('/teams/new');
  fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Payments' } });
  fireEvent.blur(screen.getByLabelText('Handle'));
  await screen.findByText('Service handle is available');
  expect(await violations()).toEqual([]);
});

it.each(['/teams/core', '/teams/core/health', '/teams/core/services', '/teams/core/members', '/teams/core/settings'])(
  'the team at %s passes axe',
  async (url) => {
    stubApi(me, { handler });
    renderTeams(url);
    await screen.findAllByRole('menuitem');
    await screen.findByRole('heading', { level: 1, name: 'Core' });
    // Let the tab's own lists arrive.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await violations()).toEqual([]);
  },
);

it('the Add Member dialog passes axe', async () => {
  stubApi(me, { handler });
  renderTeams('/teams/core/members');
  fireEvent.click(await screen.findByRole('button', { name: 'Add Member' }));
  await screen.findByRole('dialog', { name: 'Add Member' });
  expect(await violations()).toEqual([]);
});
