// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, page, renderUsers, resetLocalDb, stubApi, type Call } from './users-kit.js';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

const me = makeUser('mia', { name: 'Mia', role: 'member' });
const ann = makeUser('ann', { name: 'Ann', email: 'ann@acme.test' });

function tabs() {
  return screen.getAllByRole('menuitem').map((item) => item.textContent);
}

describe('profile overview', () => {
  it("shows the card with name, email and 'Not set' for an empty Bio and Profile", async () => {
    stubApi(me, { users: [ann] });
    renderUsers('/users/ann');

    expect(await screen.findByRole('heading', { level: 1, name: 'Ann' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Ann' })).toBeTruthy();
    expect(screen.getByText('ann@acme.test')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Bio' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Profile' })).toBeTruthy();
    expect(screen.getAllByText('Not set')).toHaveLength(2);
    // The public feed is not served yet: its 404 shows the empty text.
    expect(await screen.findByText('No Events')).toBeTruthy();
  });

  it('shows a set Bio and Profile link instead of the fallback', async () => {
    stubApi(me, { users: [makeUser('ann', { bio: 'Runs payments', profile: 'https://ann.example' })] });
    renderUsers('/users/ann');
    expect(await screen.findByText('Runs payments')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'https://ann.example' }).getAttribute('href')).toBe('https://ann.example');
    expect(screen.queryByText('Not set')).toBeNull();
  });

  it('shows a spinner while the user loads and 404 Not Found for an unknown user', async () => {
    stubApi(me);
    renderUsers('/users/nobody');
    expect(await screen.findByRole('progressbar', { name: 'Loading user' })).toBeTruthy();
    expect(await screen.findByText('404 Not Found')).toBeTruthy();
    expect(screen.getByText('No pages found')).toBeTruthy();
  });

  it('offers Delete User only to a super admin viewing someone else', async () => {
    stubApi(makeUser('mia', { super_admin: false, role: 'owner' }), { users: [ann] });
    renderUsers('/users/ann');
    await screen.findByText('ann@acme.test');
    expect(screen.queryByRole('button', { name: 'Delete User' })).toBeNull();
    cleanup();

    const admin = makeUser('mia', { super_admin: true, role: 'owner' });
    stubApi(admin, { users: [ann] });
    renderUsers('/users/mia');
    await screen.findByText('mia@acme.test');
    expect(screen.queryByRole('button', { name: 'Delete User' })).toBeNull();
    cleanup();

    stubApi(admin, { users: [ann] });
    renderUsers('/users/ann');
    expect(await screen.findByRole('button', { name: 'Delete User' })).toBeTruthy();
  });

  it("deletes after confirming, says 'User Deleted' and goes to /users", async () => {
    const calls = stubApi(makeUser('mia', { super_admin: true }), {
      users: [ann],
      handler: (call) => {
        if (call.method === 'DELETE' && call.path === '/api/users/ann') return { status: 204 };
        if (call.path === '/api/search/users') return page([]);
        return undefined;
      },
    });
    renderUsers('/users/ann');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete User' }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete User')).toBeTruthy();
    expect(within(dialog).getByText('Are you sure you want to delete this user?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('User Deleted')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/users'));
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });
});

describe('profile tabs', () => {
  it('shows Muted and Settings only on your own profile', async () => {
    stubApi(me, { users: [ann] });
    renderUsers('/users/ann');
    await screen.findByText('ann@acme.test');
    expect(tabs()).toEqual(['Overview', 'Teams']);
    cleanup();

    stubApi(me, { users: [ann] });
    renderUsers('/users/mia');
    await screen.findByText('mia@acme.test');
    expect(tabs()).toEqual(['Overview', 'Teams', 'Muted', 'Settings']);
  });

  it("shows the not-found view for an unknown sub-path and for another user's settings", async () => {
    stubApi(me, { users: [ann] });
    renderUsers('/users/mia/nowhere');
    expect(await screen.findByText('404 Not Found')).toBeTruthy();
    cleanup();

    stubApi(me, { users: [ann] });
    renderUsers('/users/ann/settings');
    expect(await screen.findByText('404 Not Found')).toBeTruthy();
    expect(screen.queryByLabelText('Name')).toBeNull();
  });

  it('navigates between tabs', async () => {
    stubApi(me);
    renderUsers('/users/mia');
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Teams' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/users/mia/teams'));
    expect(await screen.findByText('No Teams.')).toBeTruthy();
  });

  it("lists the user's teams with links and '-' for an empty description", async () => {
    stubApi(me, {
      users: [ann],
      handler: (call) =>
        call.path === '/api/users/ann/teams'
          ? {
              status: 200,
              body: [
                { id: 't1', handle: 'payments', name: 'Payments', description: null, thumbnail_url: null },
                { id: 't2', handle: 'core', name: 'Core', description: 'The core team', thumbnail_url: null },
              ],
            }
          : undefined,
    });
    renderUsers('/users/ann/teams');
    expect((await screen.findByRole('link', { name: 'Payments' })).getAttribute('href')).toBe('/teams/payments');
    expect(within(screen.getByRole('link', { name: 'Payments' }).closest('tr')!).getByText('-')).toBeTruthy();
    expect(screen.getByText('The core team')).toBeTruthy();
  });

  it("shows 'No Teams.' when the teams list fails", async () => {
    const calls = stubApi(me, { users: [ann] });
    renderUsers('/users/ann/teams');
    expect(await screen.findByText('No Teams.')).toBeTruthy();
    expect(calls.filter((call) => call.path === '/api/users/ann/teams')).toHaveLength(1);
  });
});

describe('muted profiles', () => {
  it('shows the empty text when the muted list fails or is empty', async () => {
    stubApi(me);
    renderUsers('/users/mia/muted');
    expect(await screen.findByText("You didn't muted any notifications")).toBeTruthy();
  });

  it('changes what is muted and unmutes', async () => {
    // The server keeps what it was told: the lists are read again once a write is sent.
    let muted = [
      {
        profile: { id: 'svc-1', name: 'Payments API', description: 'Takes money' },
        activity: true,
        notifications: true,
      },
    ];
    const calls = stubApi(me, {
      handler: (call) => {
        if (call.method === 'GET' && call.path === '/api/users/mia/muted') return { status: 200, body: muted };
        if (call.path === '/api/users/mia/muted/svc-1') {
          muted =
            call.method === 'DELETE' ? [] : muted.map((item) => ({ ...item, ...(call.body as Partial<typeof item>) }));
          return { status: call.method === 'DELETE' ? 204 : 200, body: call.body };
        }
        return undefined;
      },
    });
    renderUsers('/users/mia/muted');
    expect(await screen.findByText('Payments API')).toBeTruthy();
    expect(screen.getByText('Takes money')).toBeTruthy();
    expect(
      screen.getByLabelText('Muted', { selector: 'input' }).closest('.p-dropdown')!.querySelector('.p-dropdown-label')!
        .textContent,
    ).toBe('All');

    fireEvent.click(screen.getByLabelText('Muted', { selector: 'input' }).closest('.p-dropdown')!);
    const listbox = await screen.findByRole('listbox', { hidden: true });
    expect(
      within(listbox)
        .getAllByRole('option', { hidden: true })
        .map((option) => option.textContent),
    ).toEqual(['All', 'Activities', 'Notifications']);
    fireEvent.click(within(listbox).getByRole('option', { name: 'Notifications', hidden: true }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PATCH')).toMatchObject({
        path: '/api/users/mia/muted/svc-1',
        body: { activity: false, notifications: true },
      }),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Unmute Payments API' }));
    expect(await screen.findByText("You didn't muted any notifications")).toBeTruthy();
    // Shown at once; the outbox sends it.
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/users/mia/muted/svc-1'),
    );
  });
});

describe('profile settings', () => {
  function profileApi(calls: { user: ReturnType<typeof makeUser> }) {
    return (call: Call) => {
      if (call.method === 'PATCH' && call.path === '/api/users/mia') {
        calls.user = { ...calls.user, ...(call.body as object) };
        return { status: 200, body: calls.user };
      }
      if (call.method === 'GET' && call.path === '/api/users/mia') return { status: 200, body: calls.user };
      return undefined;
    };
  }

  it('shows a Save button only once a field changed, and hides it again after saving', async () => {
    const server = { user: makeUser('mia', { name: 'Mia', bio: 'Hello' }) };
    const calls = stubApi(me, { handler: profileApi(server) });
    renderUsers('/users/mia/settings');

    const name = (await screen.findByLabelText('Name')) as HTMLInputElement;
    expect(name.value).toBe('Mia');
    expect((screen.getByLabelText('Bio') as HTMLTextAreaElement).value).toBe('Hello');
    expect(screen.getByLabelText('Profile Link')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Save/ })).toBeNull();

    fireEvent.change(name, { target: { value: 'Mia Wong' } });
    expect(screen.getByRole('button', { name: 'Save Name' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save Bio' })).toBeNull();

    fireEvent.change(name, { target: { value: 'Mia' } });
    expect(screen.queryByRole('button', { name: 'Save Name' })).toBeNull();

    fireEvent.change(name, { target: { value: 'Mia Wong' } });
    const userReads = calls.filter((call) => call.method === 'GET' && call.path === '/api/users/mia').length;
    fireEvent.click(screen.getByRole('button', { name: 'Save Name' }));

    expect(await screen.findByText('Profile Updated')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')).toMatchObject({ body: { name: 'Mia Wong' } });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save Name' })).toBeNull());
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Mia Wong');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Mia Wong');
    // reloadUser: the signed-in user is read again so the header follows.
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'GET' && call.path === '/api/users/mia').length).toBeGreaterThan(
        userReads,
      ),
    );
  });

  it('clears the bio to null and keeps Save off for an empty name', async () => {
    const server = { user: makeUser('mia', { name: 'Mia', bio: 'Hello' }) };
    const calls = stubApi(me, { handler: profileApi(server) });
    renderUsers('/users/mia/settings');

    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: '  ' } });
    expect((screen.getByRole('button', { name: 'Save Name' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(screen.getByLabelText('Bio'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Bio' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PATCH')).toMatchObject({ body: { bio: null } }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save Bio' })).toBeNull());
  });

  it('uploads an image avatar as the multipart field icon and clears it', async () => {
    const server = { user: makeUser('mia') };
    const calls = stubApi(me, {
      handler: (call) => {
        if (call.method === 'POST' && call.path === '/api/users/mia/icon') {
          server.user = { ...server.user, thumbnail_url: '/assets/a1' };
          return { status: 200, body: server.user };
        }
        if (call.method === 'DELETE' && call.path === '/api/users/mia/icon') {
          server.user = { ...server.user, thumbnail_url: null };
          return { status: 200, body: server.user };
        }
        return profileApi(server)(call);
      },
    });
    renderUsers('/users/mia/settings');

    expect(await screen.findByText(/identifies you .* visible to the members of your organisation/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upload Avatar' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Clear Avatar' }) as HTMLButtonElement).disabled).toBe(true);
    const input = screen.getByLabelText('Avatar image') as HTMLInputElement;
    expect(input.accept).toBe('image/*');

    fireEvent.change(input, { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
    fireEvent.change(input, { target: { files: [new File(['png'], 'me.png', { type: 'image/png' })] } });
    expect(await screen.findByText('Profile Updated')).toBeTruthy();
    const uploads = calls.filter((call) => call.method === 'POST' && call.path === '/api/users/mia/icon');
    expect(uploads).toHaveLength(1);
    expect((uploads[0]!.body as FormData).get('icon')).toBeInstanceOf(File);

    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Clear Avatar' }) as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Clear Avatar' }));
    await waitFor(() =>
      expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/users/mia/icon')).toBe(true),
    );
  });
});

describe('watched services', () => {
  it("shows the title, subheader and 'No watched services' when the list fails", async () => {
    stubApi(me);
    renderUsers('/users/mia/settings');
    expect(await screen.findByText('Watched Services')).toBeTruthy();
    expect(screen.getByText('Mute the notification for your watched services')).toBeTruthy();
    expect(await screen.findByText('No watched services')).toBeTruthy();
  });

  it('mutes a watched service with PUT and unmutes it with DELETE', async () => {
    // The server keeps what it was told: the lists are read again once a write is sent.
    const watched = [
      { service: { id: 'svc-1', name: 'Payments API' }, muted: false },
      { service: { id: 'svc-2', name: 'Search' }, muted: true },
    ];
    const calls = stubApi(me, {
      handler: (call) => {
        if (call.method === 'GET' && call.path === '/api/users/mia/services') return { status: 200, body: watched };
        if (call.path.startsWith('/api/users/mia/muted/')) {
          const entry = watched.find((item) => call.path.endsWith(`/${item.service.id}`));
          if (entry) entry.muted = call.method !== 'DELETE';
          return { status: call.method === 'DELETE' ? 204 : 200, body: {} };
        }
        return undefined;
      },
    });
    renderUsers('/users/mia/settings');

    const payments = (await screen.findByRole('switch', { name: 'Mute Service Payments API' })) as HTMLInputElement;
    const search = screen.getByRole('switch', { name: 'Mute Service Search' }) as HTMLInputElement;
    expect(payments.checked).toBe(false);
    expect(search.checked).toBe(true);

    fireEvent.click(payments);
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
        path: '/api/users/mia/muted/svc-1',
        body: { activity: true, notifications: true },
      }),
    );
    await waitFor(() =>
      expect((screen.getByRole('switch', { name: 'Mute Service Payments API' }) as HTMLInputElement).checked).toBe(
        true,
      ),
    );

    fireEvent.click(search);
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/users/mia/muted/svc-2'),
    );
    await waitFor(() =>
      expect((screen.getByRole('switch', { name: 'Mute Service Search' }) as HTMLInputElement).checked).toBe(false),
    );
  });
});
