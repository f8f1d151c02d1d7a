// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTeam, makeUser, page, renderTeams, stubApi, type Call } from './teams-kit.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me = makeUser('mia');
const members = ['ann', 'bob', 'cid', 'dan', 'eve'].map((handle) => ({
  id: `id-${handle}`,
  name: handle.toUpperCase(),
  thumbnail_url: null,
}));
const core = makeTeam('core', { description: 'Runs the core', members, member_count: 7 });
const ops = makeTeam('ops', { description: '  ', members: members.slice(0, 1), member_count: 1 });

function searchCalls(calls: Call[]) {
  return calls.filter((call) => call.path === '/api/search/teams');
}

function rowOf(name: string): HTMLElement {
  return screen.getByRole('link', { name }).closest('tr')!;
}

describe('teams list', () => {
  it('lists teams with avatar, a link, the description or a dash, and at most 4 member avatars', async () => {
    stubApi(me, { handler: (call) => (call.path === '/api/search/teams' ? page([core, ops]) : undefined) });
    renderTeams('/teams');

    expect(await screen.findByRole('heading', { name: 'Teams' })).toBeTruthy();
    expect((await screen.findByRole('link', { name: 'Core' })).getAttribute('href')).toBe('/teams/core');
    const coreRow = within(rowOf('Core'));
    expect(coreRow.getByText('Runs the core')).toBeTruthy();
    const group = coreRow.getByRole('group', { name: '7 members' });
    expect(group.querySelectorAll('.p-avatar')).toHaveLength(4);
    expect(within(group).getByText('+3')).toBeTruthy();
    expect(within(rowOf('Ops')).getByText('-')).toBeTruthy();
    expect(within(rowOf('Ops')).getByRole('group', { name: '1 member' }).querySelectorAll('.p-avatar')).toHaveLength(1);
  });

  it("shows a spinner while loading and 'No Teams.' when empty or failed", async () => {
    stubApi(me, { handler: (call) => (call.path === '/api/search/teams' ? page([]) : undefined) });
    renderTeams('/teams');
    expect(await screen.findByRole('progressbar', { name: 'Loading teams' })).toBeTruthy();
    expect(await screen.findByText('No Teams.')).toBeTruthy();
    cleanup();

    stubApi(me, { handler: (call) => (call.path === '/api/search/teams' ? { status: 403, body: {} } : undefined) });
    renderTeams('/teams');
    expect(await screen.findByText('No Teams.')).toBeTruthy();
  });

  it('pages by 20 from offset 0 and a search starts again from offset 0', async () => {
    const calls = stubApi(me, {
      handler: (call) => (call.path === '/api/search/teams' ? page([core], 45) : undefined),
    });
    renderTeams('/teams');
    await screen.findByRole('link', { name: 'Core' });
    expect(searchCalls(calls)[0]!.query.get('cursor')).toBe('0');
    expect(searchCalls(calls)[0]!.query.get('limit')).toBe('20');

    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(searchCalls(calls).at(-1)!.query.get('cursor')).toBe('40'));

    fireEvent.change(screen.getByLabelText('Search teams'), { target: { value: 'co' } });
    await waitFor(() => expect(searchCalls(calls).at(-1)!.query.get('q')).toBe('co'));
    expect(searchCalls(calls).at(-1)!.query.get('cursor')).toBe('0');
    expect(await screen.findByText('Page 1 of 3')).toBeTruthy();
  });
});
