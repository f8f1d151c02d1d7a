// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Team } from '../../../src/contract/catalogue.js';
import { makeMember, makeTeam, makeUser, page, renderTeams, stubApi, type Answer, type Call } from './teams-kit.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me = makeUser('mia');
const ann = makeUser('ann', { name: 'Ann', description: 'Payments lead' });
const bob = makeUser('bob', { name: 'Bob' });
const members = [makeMember(ann, 'admin'), makeMember(me, 'member')];

function membersApi(team: Team, extra?: (call: Call) => Answer | undefined) {
  return (call: Call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    if (call.method === 'GET' && call.path === '/api/teams/core') return { status: 200, body: team };
    if (call.method === 'GET' && call.path === '/api/teams/core/members') return page(members);
    return undefined;
  };
}

const memberListCalls = (calls: Call[]) =>
  calls.filter((call) => call.method === 'GET' && call.path === '/api/teams/core/members');

function rowOf(name: string): HTMLElement {
  return screen.getByRole('link', { name }).closest('tr')!;
}

describe('team members', () => {
  it('lists members for everyone; no Add Member, role select or actions for a non-admin', async () => {
    const calls = stubApi(me, { handler: membersApi(makeTeam('core')) });
    renderTeams('/teams/core/members');
    const link = await screen.findByRole('link', { name: 'Ann' });
    expect(link.getAttribute('href')).toBe('/users/ann');
    const row = within(rowOf('Ann'));
    expect(row.getByText('Admin')).toBeTruthy();
    expect(row.getByText('Payments lead')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Member' })).toBeNull();
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Actions for/ })).toBeNull();
    expect(screen.queryByText('Actions')).toBeNull();
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('Members')).toBeTruthy();
    const first = memberListCalls(calls)[0]!;
    expect([first.query.get('cursor'), first.query.get('limit')]).toEqual(['0', '20']);
  });

  it("shows 'No Members' for an empty list", async () => {
    stubApi(me, {
      handler: membersApi(makeTeam('core'), (call) => (call.path === '/api/teams/core/members' ? page([]) : undefined)),
    });
    renderTeams('/teams/core/members');
    expect(await screen.findByText('No Members')).toBeTruthy();
  });

  it('lets an admin change a role at once through the inline select', async () => {
    const calls = stubApi(me, {
      handler: membersApi(makeTeam('core', { is_admin: true }), (call) =>
        call.method === 'PATCH' && call.path === '/api/teams/core/members/id-mia'
          ? { status: 200, body: makeMember(me, 'admin') }
          : undefined,
      ),
    });
    renderTeams('/teams/core/members');
    await screen.findByRole('link', { name: 'Mia' });
    fireEvent.click(rowOf('Mia').querySelector('.p-dropdown')!);
    const listbox = await screen.findByRole('listbox', { hidden: true });
    fireEvent.click(within(listbox).getByRole('option', { name: 'Admin', hidden: true }));

    expect(await screen.findByText('Team Member Role Update')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')!.body).toEqual({ role: 'admin' });
  });

  it("removes a member from the row menu, says 'Team Member Removed' and reloads the list", async () => {
    const calls = stubApi(me, {
      handler: membersApi(makeTeam('core', { is_admin: true }), (call) =>
        call.method === 'DELETE' && call.path === '/api/teams/core/members/ann' ? { status: 204 } : undefined,
      ),
    });
    renderTeams('/teams/core/members');
    await screen.findByRole('link', { name: 'Ann' });
    const before = memberListCalls(calls).length;
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Ann' }));
    fireEvent.click(await screen.findByText('Remove Member'));

    expect(await screen.findByText('Team Member Removed')).toBeTruthy();
    await waitFor(() => expect(memberListCalls(calls).length).toBeGreaterThan(before));
  });

  it('adds a member: Add is disabled until a user is chosen from the debounced autocomplete', async () => {
    const calls = stubApi(me, {
      handler: membersApi(makeTeam('core', { is_admin: true }), (call) => {
        if (call.path === '/api/autocomplete/users') {
          return { status: 200, body: [{ id: bob.id, handle: 'bob', name: 'Bob', thumbnail_url: null }] };
        }
        if (call.method === 'POST' && call.path === '/api/teams/core/members') {
          return { status: 201, body: makeMember(bob) };
        }
        return undefined;
      }),
    });
    renderTeams('/teams/core/members');
    await screen.findByRole('link', { name: 'Ann' });
    fireEvent.click(screen.getByRole('button', { name: 'Add Member' }));

    const dialog = await screen.findByRole('dialog', { name: 'Add Member' });
    const add = within(dialog).getByRole('button', { name: 'Add' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    const input = within(dialog).getByLabelText('Find user');
    fireEvent.change(input, { target: { value: 'b' } });
    fireEvent.change(input, { target: { value: 'bo' } });
    // Typed text is not a user.
    expect(add.disabled).toBe(true);
    expect(calls.some((call) => call.path === '/api/autocomplete/users')).toBe(false);

    // jsdom lays nothing out, so the overlay stays display:none; its options are there all the same.
    const option = await screen.findByRole('option', { name: 'Bob', hidden: true }, { timeout: 2000 });
    // Debounced: one lookup for the settled text.
    const lookups = calls.filter((call) => call.path === '/api/autocomplete/users');
    expect(lookups.map((call) => call.query.get('q'))).toEqual(['bo']);
    const before = memberListCalls(calls).length;
    fireEvent.click(option);
    await waitFor(() => expect(add.disabled).toBe(false));
    fireEvent.click(add);

    expect(await screen.findByText('Team Member Added')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST' && call.path === '/api/teams/core/members')!.body).toEqual({
      user: { id: bob.id },
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Member' })).toBeNull());
    await waitFor(() => expect(memberListCalls(calls).length).toBeGreaterThan(before));
  });

  it('closes the Add Member dialog with Cancel', async () => {
    stubApi(me, { handler: membersApi(makeTeam('core', { is_admin: true })) });
    renderTeams('/teams/core/members');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Member' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Member' })).toBeNull());
  });
});
