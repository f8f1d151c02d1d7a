// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../../src/contract/accounts.js';
import { makeUser, page, renderUsers, resetLocalDb, stubApi, type Call } from './users-kit.js';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  await resetLocalDb();
});

const ann = makeUser('ann', { role: 'member', bio: 'Runs payments', last_login: '2024-03-05T10:00:00.000Z' });
const olga = makeUser('olga', { role: 'owner' });
const adam = makeUser('adam', { role: 'admin' });

function usersList(items: User[], total = items.length) {
  return (call: Call) => (call.method === 'GET' && call.path === '/api/search/users' ? page(items, total) : undefined);
}

/** The role cell of a row: a select for who may change it, text otherwise. */
function rowOf(name: string): HTMLElement {
  return screen.getByRole('link', { name }).closest('tr')!;
}

async function openRoleSelect(name: string) {
  const row = rowOf(name);
  fireEvent.click(row.querySelector('.p-dropdown')!);
  // jsdom lays nothing out, so the overlay stays display:none; its options are there all the same.
  return screen.findByRole('listbox', { hidden: true });
}

function searchCalls(calls: Call[]) {
  return calls.filter((call) => call.path === '/api/search/users');
}

describe('users directory', () => {
  it('lists users with the first-letter avatar, a profile link, the bio, the role and the last login', async () => {
    const viewer = makeUser('mia', { role: 'member' });
    stubApi(viewer, { handler: usersList([ann, makeUser('bob')]) });
    renderUsers('/users');

    expect(await screen.findByRole('heading', { name: 'Users' })).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'Ann' });
    expect(link.getAttribute('href')).toBe('/users/ann');
    const row = within(rowOf('Ann'));
    expect(row.getByText('Runs payments')).toBeTruthy();
    expect(row.getByText('A')).toBeTruthy();
    expect(row.getByText('03/05/2024')).toBeTruthy();
    expect(within(rowOf('Bob')).getByText('-')).toBeTruthy();
  });

  it("shows 'No Users.' for an empty list and for a failed one", async () => {
    const viewer = makeUser('mia');
    stubApi(viewer, { handler: usersList([]) });
    renderUsers('/users');
    expect(await screen.findByText('No Users.')).toBeTruthy();
    cleanup();

    stubApi(viewer, {
      handler: (call) => (call.path === '/api/search/users' ? { status: 500, body: { message: 'boom' } } : undefined),
    });
    renderUsers('/users');
    expect(await screen.findByText('No Users.', {}, { timeout: 5000 })).toBeTruthy();
  });

  it('shows the role as capitalised read-only text to a member, and no Pending Users switch', async () => {
    stubApi(makeUser('mia', { role: 'member' }), { handler: usersList([ann, adam, olga]) });
    renderUsers('/users');
    await screen.findByRole('link', { name: 'Ann' });

    expect(within(rowOf('Ann')).getByText('Member')).toBeTruthy();
    expect(within(rowOf('Adam')).getByText('Admin')).toBeTruthy();
    expect(within(rowOf('Olga')).getByText('Owner')).toBeTruthy();
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(document.querySelector('.p-dropdown')).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Pending Users' })).toBeNull();
  });

  it('gives an admin a role select without Owner on non-owner rows, and owners stay read-only', async () => {
    const calls = stubApi(makeUser('mia', { role: 'admin' }), { handler: usersList([ann, olga]) });
    renderUsers('/users');
    await screen.findByRole('link', { name: 'Ann' });

    expect(screen.getByRole('switch', { name: 'Pending Users' })).toBeTruthy();
    expect(within(rowOf('Olga')).getByText('Owner')).toBeTruthy();
    expect(rowOf('Olga').querySelector('.p-dropdown')).toBeNull();

    const listbox = await openRoleSelect('Ann');
    const options = within(listbox).getAllByRole('option', { hidden: true });
    expect(options.map((option) => option.getAttribute('aria-label'))).toEqual(['Guest', 'Member', 'Admin', 'Owner']);
    expect(within(listbox).getByRole('option', { name: 'Owner', hidden: true }).getAttribute('data-p-disabled')).toBe(
      'true',
    );
    expect(within(listbox).getByRole('option', { name: 'Admin', hidden: true }).getAttribute('data-p-disabled')).toBe(
      'false',
    );

    fireEvent.click(within(listbox).getByRole('option', { name: 'Owner', hidden: true }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.some((call) => call.path.endsWith('/change-role'))).toBe(false);
  });

  it('lets an owner pick Owner and change an owner row too', async () => {
    stubApi(makeUser('mia', { role: 'owner' }), { handler: usersList([ann, olga]) });
    renderUsers('/users');
    await screen.findByRole('link', { name: 'Ann' });

    expect(rowOf('Olga').querySelector('.p-dropdown')).not.toBeNull();
    const listbox = await openRoleSelect('Ann');
    expect(within(listbox).getByRole('option', { name: 'Owner', hidden: true }).getAttribute('data-p-disabled')).toBe(
      'false',
    );
  });

  it("changes a role through change-role, replaces the row and says 'User Role Update'", async () => {
    const calls = stubApi(makeUser('mia', { role: 'admin' }), {
      handler: (call) => {
        if (call.path === '/api/users/id-ann/actions/change-role') {
          return { status: 200, body: { ...ann, role: (call.body as { role: string }).role } };
        }
        return usersList([ann])(call);
      },
    });
    renderUsers('/users');
    await screen.findByRole('link', { name: 'Ann' });

    const listbox = await openRoleSelect('Ann');
    fireEvent.click(within(listbox).getByRole('option', { name: 'Admin', hidden: true }));

    expect(await screen.findByText('User Role Update')).toBeTruthy();
    expect(calls.find((call) => call.path.endsWith('/change-role'))).toMatchObject({
      method: 'POST',
      body: { role: 'admin' },
    });
    await waitFor(() => expect(rowOf('Ann').querySelector('.p-dropdown-label')?.textContent).toBe('Admin'));
    expect(searchCalls(calls)).toHaveLength(1);
  });

  it('pages by offset and resets the offset to 0 when the search text changes', async () => {
    const calls = stubApi(makeUser('mia'), { handler: usersList([ann], 45) });
    renderUsers('/users');
    await screen.findByRole('link', { name: 'Ann' });
    expect(searchCalls(calls)[0]!.query.get('cursor')).toBe('0');
    expect(searchCalls(calls)[0]!.query.get('limit')).toBe('20');
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect(document.querySelector('.p-paginator .p-dropdown')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(searchCalls(calls).at(-1)!.query.get('cursor')).toBe('20'));
    expect(await screen.findByText('Page 2 of 3')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'an' } });
    fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'ann' } });
    await waitFor(() => expect(searchCalls(calls).at(-1)!.query.get('q')).toBe('ann'));
    const last = searchCalls(calls).at(-1)!;
    expect(last.query.get('cursor')).toBe('0');
    // Typing is debounced: one request for the settled text, none for the intermediate one.
    expect(searchCalls(calls).some((call) => call.query.get('q') === 'an')).toBe(false);
    expect(await screen.findByText('Page 1 of 3')).toBeTruthy();
  });

  it('switches an admin to the pending invites and resends one', async () => {
    const invite = {
      id: 'inv-1',
      email: 'new@acme.test',
      last_sent: new Date(Date.now() - 3 * 86400000).toISOString(),
    };
    const resent = { ...invite, last_sent: new Date().toISOString() };
    const calls = stubApi(makeUser('mia', { role: 'owner' }), {
      handler: (call) => {
        if (call.method === 'GET' && call.path === '/api/invites') return page([invite]);
        if (call.path === '/api/invites/inv-1/actions/resend') return { status: 200, body: resent };
        return usersList([ann])(call);
      },
    });
    renderUsers('/users');
    await screen.findByRole('link', { name: 'Ann' });

    fireEvent.click(screen.getByRole('switch', { name: 'Pending Users' }));
    expect(await screen.findByText('new@acme.test')).toBeTruthy();
    expect(screen.getByText('3 days ago')).toBeTruthy();
    expect(calls.find((call) => call.path === '/api/invites')!.query.get('cursor')).toBe('0');

    fireEvent.click(screen.getByRole('button', { name: 'Actions for new@acme.test' }));
    fireEvent.click(await screen.findByText('Resend Invite'));
    expect(await screen.findByText('Invite resent')).toBeTruthy();
    expect(await screen.findByText('a few seconds ago')).toBeTruthy();
  });

  it('says so when resending fails, and shows No Invites. for an empty list', async () => {
    const invite = { id: 'inv-1', email: 'new@acme.test', last_sent: new Date().toISOString() };
    stubApi(makeUser('mia', { role: 'admin' }), {
      handler: (call) => {
        if (call.method === 'GET' && call.path === '/api/invites') return page([invite]);
        if (call.path === '/api/invites/inv-1/actions/resend') return { status: 404, body: { message: 'gone' } };
        return usersList([])(call);
      },
    });
    renderUsers('/users');
    await screen.findByText('No Users.');
    fireEvent.click(screen.getByRole('switch', { name: 'Pending Users' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for new@acme.test' }));
    fireEvent.click(await screen.findByText('Resend Invite'));
    expect(await screen.findByText('There was an error sending your invite')).toBeTruthy();
    cleanup();

    stubApi(makeUser('mia', { role: 'admin' }), {
      handler: (call) => (call.method === 'GET' && call.path === '/api/invites' ? page([]) : usersList([])(call)),
    });
    renderUsers('/users');
    fireEvent.click(await screen.findByRole('switch', { name: 'Pending Users' }));
    expect(await screen.findByText('No Invites.')).toBeTruthy();
  });
});
