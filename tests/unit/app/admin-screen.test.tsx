// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../../src/contract/accounts.js';
import AdminScreen from '../../../src/app/admin/admin-screen.js';
import { LocalProvider } from '../../../src/app/local/local-provider.js';
import { BreadcrumbBar, BreadcrumbProvider } from '../../../src/app/shell/breadcrumb.js';
import { localCode } from './local-code.js';
import { deleteLocalDb } from '../../../src/local/db.js';
import { makeUser, renderSignedIn, stubApi, violations, type Answer, type Call } from './app-kit.js';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await deleteLocalDb('acme', 'mia');
});

const admin = makeUser('mia', { role: 'admin' });

/** Renders /admin/* the way the shell does: the query client, the breadcrumb bar and the snackbars. */
function renderAdmin(url = '/admin') {
  return renderSignedIn(url, <Route path="/admin/*" element={<AdminScreen />} />, (screens) => (
    <LocalProvider code={localCode}>
      <BreadcrumbProvider>
        <BreadcrumbBar />
        {screens}
      </BreadcrumbProvider>
    </LocalProvider>
  ));
}

/** A server holding the linked workspaces; `known` are the domains a link may name. */
function remotesApi(
  viewer: User,
  { linked = [] as string[], known = ['partner', 'vendor'], fail = {} as Record<string, Answer> } = {},
) {
  const server = { linked: [...linked] };
  const calls = stubApi(viewer, {
    handler: (call: Call) => {
      const failure = fail[`${call.method} ${call.path}`];
      if (failure) return failure;
      if (call.method === 'GET' && call.path === '/api/remotes') return { status: 200, body: server.linked };
      if (call.method === 'GET' && call.path === '/api/slack/settings') {
        return { status: 200, body: { configured: false, install_url: null, connect_url: null } };
      }
      if (call.method === 'GET' && call.path === '/api/slack-workspaces') return { status: 200, body: [] };
      if (call.method === 'GET' && call.path === '/api/sso-providers') return { status: 200, body: [] };
      if (call.method === 'POST' && call.path === '/api/remotes') {
        const { remote } = call.body as { remote: string };
        if (!known.includes(remote)) return { status: 404, body: { message: 'The remote workspace was not found' } };
        if (server.linked.includes(remote)) return { status: 409, body: { message: 'Already linked' } };
        server.linked = [...server.linked, remote].sort();
        return { status: 201, body: server.linked };
      }
      const unlink = /^\/api\/remotes\/([^/]+)$/.exec(call.path);
      if (call.method === 'DELETE' && unlink) {
        server.linked = server.linked.filter((remote) => remote !== decodeURIComponent(unlink[1]!));
        return { status: 204 };
      }
      return undefined;
    },
  });
  return { calls, server };
}

const remoteCalls = (calls: Call[]) => calls.filter((call) => call.path.startsWith('/api/remotes'));

function remotesCard(): HTMLElement {
  return screen.getByRole('heading', { name: 'Remote Workspaces' }).closest('.p-card') as HTMLElement;
}

describe('admin screen', () => {
  it('shows a member, and a guest, the not-found view and reads nothing', async () => {
    for (const role of ['member', 'guest'] as const) {
      const { calls } = remotesApi(makeUser('mia', { role }));
      renderAdmin();
      expect(await screen.findByText('404 Not Found')).toBeTruthy();
      expect(screen.getByText('No pages found')).toBeTruthy();
      expect(screen.queryByText('Remote Workspaces')).toBeNull();
      expect(remoteCalls(calls)).toEqual([]);
      cleanup();
      vi.unstubAllGlobals();
    }
  });

  it('shows an admin the breadcrumb and the cards, with their empty states', async () => {
    remotesApi(admin);
    renderAdmin();
    expect(await screen.findByText('No remote workspaces linked')).toBeTruthy();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByText('Admin')).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      'Slack Workspaces',
      'SSO Providers',
      'Remote Workspaces',
      'Export Workspace Pages',
      'Status pages',
      'Scorecards',
      'Alert channels',
      'Catalogue as code',
    ]);
    expect(screen.getByRole('link', { name: 'Manage the catalogue as code' }).getAttribute('href')).toBe(
      '/admin/catalog',
    );
    expect(screen.getByRole('link', { name: 'New scorecard' }).getAttribute('href')).toBe('/admin/scorecards/new');
    expect(await screen.findByText('No Slack accounts configured for this account')).toBeTruthy();
    expect(await screen.findByText('Slack is not configured on this server.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Add to Slack' })).toBeNull();
    expect(await screen.findByText('No Providers exist for this account')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add Provider' }).getAttribute('href')).toBe('/admin/sso-providers/new');
    const exportPages = screen.getByRole('button', { name: 'Export Pages' }) as HTMLButtonElement;
    expect(exportPages.disabled).toBe(false);
    // A blocked download window is said so (the export itself is an e2e test).
    vi.stubGlobal('open', () => null);
    fireEvent.click(exportPages);
    expect(await screen.findByText('Please disable your Pop-up blocker and try again.')).toBeTruthy();
    expect(await violations()).toEqual([]);
  });

  it('shows the owner of the workspace the linked workspaces; an unknown admin path is not found', async () => {
    remotesApi(makeUser('mia', { role: 'owner' }), { linked: ['partner', 'vendor'] });
    renderAdmin();
    const list = await screen.findByRole('list', { name: 'Remote workspaces' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('partner'), expect.stringContaining('vendor')]);
    expect(within(list).getByRole('button', { name: 'Unlink vendor' })).toBeTruthy();
    cleanup();

    remotesApi(admin);
    renderAdmin('/admin/nowhere');
    expect(await screen.findByText('404 Not Found')).toBeTruthy();
  });

  it('links a workspace: the ID is required (checked on change), then the list reloads with a toast', async () => {
    const { calls } = remotesApi(admin);
    renderAdmin();
    await screen.findByText('No remote workspaces linked');
    fireEvent.click(screen.getByRole('button', { name: 'Add Remote Workspace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Remote Workspace' });
    const add = within(dialog).getByRole('button', { name: 'Add' }) as HTMLButtonElement;
    const input = within(dialog).getByLabelText('Remote workspace ID');
    // Untouched: no error yet, but Add waits for a valid ID.
    expect(add.disabled).toBe(true);
    expect(within(dialog).queryByText('Remote workspace ID is required')).toBeNull();
    fireEvent.change(input, { target: { value: 'partner' } });
    expect(add.disabled).toBe(false);
    fireEvent.change(input, { target: { value: '   ' } });
    expect(add.disabled).toBe(true);
    expect(within(dialog).getByText('Remote workspace ID is required')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(input, { target: { value: 'partner' } });
    expect(await violations()).toEqual([]);

    const before = calls.filter((call) => call.method === 'GET' && call.path === '/api/remotes').length;
    fireEvent.click(add);
    expect(await screen.findByText('Remote workspace was linked')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const list = await within(remotesCard()).findByRole('list', { name: 'Remote workspaces' });
    expect(within(list).getByText('partner')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST' && call.path === '/api/remotes')?.body).toEqual({
      remote: 'partner',
    });
    // Spec: after a link the list reloads.
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'GET' && call.path === '/api/remotes').length).toBe(before + 1),
    );
  });

  it('keeps the dialog open with the reason when a link is refused, and toasts the failure', async () => {
    remotesApi(admin);
    renderAdmin();
    await screen.findByText('No remote workspaces linked');
    fireEvent.click(screen.getByRole('button', { name: 'Add Remote Workspace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Remote Workspace' });
    fireEvent.change(within(dialog).getByLabelText('Remote workspace ID'), { target: { value: 'nobody' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    const toast = await screen.findByText('Failed to link workspace');
    expect(toast.closest('.beacon-snackbar')?.className).toContain('beacon-snackbar-error');
    expect(within(dialog).getByText('The remote workspace was not found')).toBeTruthy();
    expect(screen.getByText('No remote workspaces linked')).toBeTruthy();
    // Cancel closes it; nothing was linked.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('unlinks a workspace and reloads the list; a failed unlink says so', async () => {
    const { calls } = remotesApi(admin, {
      linked: ['partner', 'vendor'],
      fail: { 'DELETE /api/remotes/vendor': { status: 500, body: { message: 'Boom' } } },
    });
    renderAdmin();
    const list = await screen.findByRole('list', { name: 'Remote workspaces' });
    fireEvent.click(within(list).getByRole('button', { name: 'Unlink partner' }));
    expect(await screen.findByText('Remote workspace was unlinked')).toBeTruthy();
    await waitFor(() => expect(within(remotesCard()).queryByText('partner')).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/remotes/partner')).toBe(true);

    fireEvent.click(within(remotesCard()).getByRole('button', { name: 'Unlink vendor' }));
    const toast = await screen.findByText('Failed to unlink workspace');
    expect(toast.closest('.beacon-snackbar')?.className).toContain('beacon-snackbar-error');
    expect(within(remotesCard()).getByText('vendor')).toBeTruthy();
  });

  it('says the list could not be loaded when the server refuses it', async () => {
    remotesApi(admin, { fail: { 'GET /api/remotes': { status: 403, body: { message: 'Forbidden' } } } });
    renderAdmin();
    expect(await screen.findByText('Remote workspaces could not be loaded')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add Remote Workspace' })).toBeTruthy();
  });
});
