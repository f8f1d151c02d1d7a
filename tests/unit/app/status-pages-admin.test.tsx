// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProfileRef } from '../../../src/contract/catalogue.js';
import type { StatusPage } from '../../../src/contract/status-pages.js';
import AdminScreen from '../../../src/app/admin/admin-screen.js';
import { DOMAIN_VERIFIED } from '../../../src/app/admin/status-page-domain.js';
import { LocalProvider } from '../../../src/app/local/local-provider.js';
import { BreadcrumbBar, BreadcrumbProvider } from '../../../src/app/shell/breadcrumb.js';
import { deleteLocalDb } from '../../../src/local/db.js';
import { localCode } from './local-code.js';
import { makeService, makeUser, renderSignedIn, stubApi, violations, type Answer, type Call } from './app-kit.js';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await deleteLocalDb('acme', 'mia');
});

const admin = makeUser('mia', { role: 'admin' });

function renderAdmin(url: string) {
  return renderSignedIn(url, <Route path="/admin/*" element={<AdminScreen />} />, (screens) => (
    <LocalProvider code={localCode}>
      <BreadcrumbProvider>
        <BreadcrumbBar />
        {screens}
      </BreadcrumbProvider>
    </LocalProvider>
  ));
}

function statusPage(overrides: Partial<StatusPage> = {}): StatusPage {
  const handle = overrides.handle ?? 'acme';
  return {
    handle,
    title: 'Acme status',
    description: 'How Acme is doing',
    logo_url: null,
    access: 'public',
    has_password: false,
    custom_domain: null,
    custom_domain_status: null,
    custom_domain_token: null,
    custom_domain_record: null,
    custom_domain_checked_at: null,
    custom_domain_check_error: null,
    show_upstream: true,
    upstream_depth: 3,
    groups: [
      { name: 'Core', services: ['checkout', 'identity'] },
      { name: 'Edge', services: ['ledger'] },
    ],
    url: `http://acme.localhost/status/${handle}`,
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const services = ['checkout', 'identity', 'ledger'].map((handle) => makeService(handle));
const ref = (handle: string): ProfileRef => {
  const service = services.find((one) => one.handle === handle)!;
  return { id: service.id, handle: service.handle, name: service.name, thumbnail_url: null };
};

/** A server holding status pages and three services; `fail` answers a call ("METHOD /path") otherwise. */
function statusPagesApi(pages: StatusPage[] = [], { fail = {} as Record<string, Answer> } = {}) {
  const server = new Map(pages.map((page) => [page.handle, page]));
  const calls = stubApi(admin, {
    handler: (call: Call) => {
      const failure = fail[`${call.method} ${call.path}`];
      if (failure) return failure;
      if (call.path === '/api/status-pages' && call.method === 'GET')
        return { status: 200, body: [...server.values()] };
      if (call.path === '/api/status-pages' && call.method === 'POST') {
        const { password, ...body } = call.body as Partial<StatusPage> & { handle: string; password?: string };
        const created = statusPage({ ...body, has_password: Boolean(password) });
        server.set(created.handle, created);
        return { status: 201, body: created };
      }
      if (/^\/api\/status-pages\/[^/]+\/subscribers$/.test(call.path) && call.method === 'GET')
        return { status: 200, body: [] };
      const one = /^\/api\/status-pages\/([^/]+)$/.exec(call.path);
      if (one) {
        const found = server.get(decodeURIComponent(one[1]!));
        if (!found) return { status: 404, body: { message: 'Not Found' } };
        if (call.method === 'GET') return { status: 200, body: found };
        if (call.method === 'PATCH') {
          const { password, ...body } = call.body as Partial<StatusPage> & { password?: string };
          const next = { ...found, ...body, has_password: found.has_password || Boolean(password) };
          server.set(found.handle, next);
          return { status: 200, body: next };
        }
        if (call.method === 'DELETE') {
          server.delete(found.handle);
          return { status: 204 };
        }
      }
      const service = /^\/api\/services\/([^/]+)$/.exec(call.path);
      if (service && call.method === 'GET') {
        const found = services.find((one) => one.handle === decodeURIComponent(service[1]!));
        return found ? { status: 200, body: found } : { status: 404, body: { message: 'Not Found' } };
      }
      if (call.path === '/api/autocomplete/services') {
        const q = (call.query.get('q') ?? '').toLowerCase();
        return {
          status: 200,
          body: services.filter((one) => one.name.toLowerCase().includes(q)).map((one) => ref(one.handle)),
        };
      }
      return undefined;
    },
  });
  return { calls, server };
}

const writes = (calls: Call[], method: string) =>
  calls.filter((call) => call.method === method && call.path.startsWith('/api/status-pages'));
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });

/** Adds a service to the group through the dialog's debounced search. */
async function addService(groupTitle: string, search: string, name: string) {
  fireEvent.click(screen.getByRole('button', { name: `Add service to ${groupTitle}` }));
  const dialog = await screen.findByRole('dialog', { name: `Add service to ${groupTitle}` });
  fireEvent.change(within(dialog).getByLabelText('Service'), { target: { value: search } });
  fireEvent.click(await screen.findByRole('option', { name, hidden: true }, { timeout: 2000 }));
  const add = within(dialog).getByRole('button', { name: 'Add' }) as HTMLButtonElement;
  await waitFor(() => expect(add.disabled).toBe(false));
  fireEvent.click(add);
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

describe('status pages admin', () => {
  it('links the screen from the admin overview', async () => {
    statusPagesApi();
    renderAdmin('/admin');
    const link = await screen.findByRole('link', { name: 'Manage status pages' });
    expect(link.getAttribute('href')).toBe('/admin/status-pages');
    expect(screen.getByRole('heading', { name: 'Status pages', level: 2 })).toBeTruthy();
  });

  it('lists the pages with their handle, access, services and a link to open each', async () => {
    statusPagesApi([
      statusPage(),
      statusPage({
        handle: 'partners',
        title: 'Partners',
        access: 'password',
        has_password: true,
        groups: [{ name: '', services: ['ledger'] }],
        custom_domain: 'status.partner.test',
        custom_domain_status: 'pending',
      }),
    ]);
    renderAdmin('/admin/status-pages');
    const list = await screen.findByRole('list', { name: 'Status pages' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [acme, partners] = items as [HTMLElement, HTMLElement];
    expect(within(acme).getByRole('link', { name: 'Acme status' }).getAttribute('href')).toBe(
      '/admin/status-pages/acme',
    );
    expect(within(acme).getByText('Anyone')).toBeTruthy();
    expect(within(acme).getByText('3 services')).toBeTruthy();
    const open = within(acme).getByRole('link', { name: /^Open page Acme status/ });
    expect(open.getAttribute('href')).toBe('http://acme.localhost/status/acme');
    expect(open.getAttribute('target')).toBe('_blank');
    expect(within(partners).getByText('partners')).toBeTruthy();
    expect(within(partners).getByText('Anyone with the password')).toBeTruthy();
    expect(within(partners).getByText('1 service')).toBeTruthy();
    expect(within(partners).getByText('status.partner.test')).toBeTruthy();
    expect(within(partners).getByText('Pending')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add status page' }).getAttribute('href')).toBe('/admin/status-pages/new');
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByText('Status pages')).toBeTruthy();
    expect(await violations()).toEqual([]);
  });

  it('says what a status page is when there is none', async () => {
    statusPagesApi();
    renderAdmin('/admin/status-pages');
    expect(await screen.findByText('No status pages yet')).toBeTruthy();
    expect(screen.getByText(/A status page shows your customers how your services are doing/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add status page' })).toBeTruthy();
  });

  it('creates a page with groups: the handle follows the title, and the body holds the groups in order', async () => {
    const { calls } = statusPagesApi();
    renderAdmin('/admin/status-pages/new');
    expect(await screen.findByRole('heading', { name: 'New status page', level: 1 })).toBeTruthy();
    type('Title', 'Acme Cloud Status');
    expect(input('Handle').value).toBe('acme-cloud-status');
    expect(input('Handle').disabled).toBe(false);
    type('Description', 'Our services, live');
    type('Custom domain', 'Status.Example.com');
    // The default depth, and the upstream view on.
    expect(input('Upstream depth').value).toBe('3');
    expect(input('Show problems upstream').checked).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Add group' }));
    // A new group's name takes the focus.
    await waitFor(() => expect(document.activeElement).toBe(screen.getAllByLabelText('Group name')[0]));
    fireEvent.change(screen.getAllByLabelText('Group name')[0]!, { target: { value: 'Core' } });
    await addService('group Core', 'check', 'Checkout');
    await addService('group Core', 'iden', 'Identity');
    // What is on the page already is not offered again.
    fireEvent.click(screen.getByRole('button', { name: 'Add service to group Core' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add service to group Core' });
    fireEvent.change(within(dialog).getByLabelText('Service'), { target: { value: 'e' } });
    expect(await screen.findByRole('option', { name: 'Ledger', hidden: true }, { timeout: 2000 })).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Checkout', hidden: true })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Add group' }));
    fireEvent.change(screen.getAllByLabelText('Group name')[1]!, { target: { value: 'Edge' } });
    await addService('group Edge', 'led', 'Ledger');

    // Identity first within Core; then Edge before Core. The top's up buttons cannot be used.
    const core = screen.getByRole('list', { name: 'Services in group Core' });
    expect((within(core).getByRole('button', { name: 'Move Checkout up' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(core).getByRole('button', { name: 'Move Identity up' }));
    expect(
      within(core)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Identity'), expect.stringContaining('Checkout')]);
    // Focus stays with the moved row (its up button is now disabled, so its down button).
    await waitFor(() =>
      expect(document.activeElement).toBe(within(core).getByRole('button', { name: 'Move Identity down' })),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Move group Edge up' }));
    // Each change is announced.
    expect(screen.getByText('Moved group Edge to position 1 of 2').getAttribute('role')).toBe('status');
    expect(screen.getAllByLabelText('Group name').map((field) => (field as HTMLInputElement).value)).toEqual([
      'Edge',
      'Core',
    ]);
    expect(await violations()).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Create status page' }));
    expect(await screen.findByText('Status page was created')).toBeTruthy();
    expect(writes(calls, 'POST').map((call) => call.body)).toEqual([
      {
        handle: 'acme-cloud-status',
        title: 'Acme Cloud Status',
        description: 'Our services, live',
        logo_url: null,
        access: 'public',
        custom_domain: 'status.example.com',
        show_upstream: true,
        upstream_depth: 3,
        groups: [
          { name: 'Edge', services: ['ledger'] },
          { name: 'Core', services: ['identity', 'checkout'] },
        ],
      },
    ]);
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/admin/status-pages/acme-cloud-status'),
    );
    await waitFor(() => expect(input('Handle').disabled).toBe(true));
  });

  it('keeps the handle fixed on edit and sends none; groups can be renamed and services removed', async () => {
    const { calls } = statusPagesApi([statusPage()]);
    renderAdmin('/admin/status-pages/acme');
    const title = (await screen.findByLabelText('Title')) as HTMLInputElement;
    expect(title.value).toBe('Acme status');
    expect(input('Handle').value).toBe('acme');
    expect(input('Handle').disabled).toBe(true);
    expect(screen.getByText('The handle is fixed once the page exists.')).toBeTruthy();
    type('Title', 'Acme Platform');
    expect(input('Handle').value).toBe('acme');
    // Services show by name once their records load.
    const core = screen.getByRole('list', { name: 'Services in group Core' });
    expect(await within(core).findByText('Identity')).toBeTruthy();
    fireEvent.click(within(core).getByRole('button', { name: 'Remove Checkout' }));
    fireEvent.change(screen.getAllByLabelText('Group name')[1]!, { target: { value: 'Network edge' } });
    type('Upstream depth', '5');

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Status page was updated')).toBeTruthy();
    const [patch] = writes(calls, 'PATCH');
    expect(patch?.path).toBe('/api/status-pages/acme');
    expect(patch?.body).not.toHaveProperty('handle');
    expect(patch?.body).toMatchObject({
      title: 'Acme Platform',
      upstream_depth: 5,
      groups: [
        { name: 'Core', services: ['identity'] },
        { name: 'Network edge', services: ['ledger'] },
      ],
    });
  });

  it('shows the password field only for password access; on edit an empty one keeps the password', async () => {
    const { calls } = statusPagesApi([statusPage({ handle: 'vip', access: 'password', has_password: true })]);
    renderAdmin('/admin/status-pages/new');
    await screen.findByLabelText('Title');
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.getByRole('group', { name: 'Who may read it' })).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Anyone with the password'));
    expect(screen.getByLabelText('Password')).toBeTruthy();
    type('Title', 'Private');
    fireEvent.click(screen.getByRole('button', { name: 'Create status page' }));
    // Required on a new page: nothing is sent and the field says why.
    expect(await screen.findByText('Set the password visitors will type')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
    type('Password', 'short');
    expect(screen.getByText('At least 8 characters')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Members of this workspace'));
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(writes(calls, 'POST')).toEqual([]);
    cleanup();

    renderAdmin('/admin/status-pages/vip');
    const password = (await screen.findByLabelText('Password')) as HTMLInputElement;
    expect(password.value).toBe('');
    expect(password.type).toBe('password');
    expect(
      screen.getByText('A password is set. Leave this empty to keep it, or type a new one to replace it.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Status page was updated')).toBeTruthy();
    const [patch] = writes(calls, 'PATCH');
    expect(patch?.body).toMatchObject({ access: 'password' });
    expect(patch?.body).not.toHaveProperty('password');
  });

  it("shows a 400's field errors by their fields, and a 409 as the handle already in use", async () => {
    statusPagesApi([], {
      fail: {
        'POST /api/status-pages': {
          status: 400,
          body: {
            message: 'Invalid body: logo_url: Invalid URL',
            errors: { logo_url: ['Must be an image URL'], 'groups.0.name': ['Too long'] },
          },
        },
      },
    });
    renderAdmin('/admin/status-pages/new');
    await screen.findByLabelText('Title');
    type('Title', 'Acme');
    type('Logo URL', 'https://acme.test/logo.txt');
    fireEvent.click(screen.getByRole('button', { name: 'Add group' }));
    fireEvent.change(screen.getAllByLabelText('Group name')[0]!, { target: { value: 'Core' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create status page' }));
    expect(await screen.findByText('Must be an image URL')).toBeTruthy();
    expect(input('Logo URL').getAttribute('aria-invalid')).toBe('true');
    expect(input('Logo URL').getAttribute('aria-describedby')).toContain('status-page-logo-url-error');
    expect(document.getElementById('status-page-logo-url-error')?.textContent).toBe('Must be an image URL');
    expect(screen.getByText('Too long')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('The status page was not saved');
    // A field's error goes once it is changed.
    type('Logo URL', 'https://acme.test/logo.svg');
    expect(screen.queryByText('Must be an image URL')).toBeNull();
    cleanup();
    vi.unstubAllGlobals();

    statusPagesApi([], {
      fail: { 'POST /api/status-pages': { status: 409, body: { message: 'Taken', errors: { handle: ['Taken'] } } } },
    });
    renderAdmin('/admin/status-pages/new');
    await screen.findByLabelText('Title');
    type('Title', 'Acme');
    fireEvent.click(screen.getByRole('button', { name: 'Create status page' }));
    expect(await screen.findByText('This handle is already used by another status page')).toBeTruthy();
  });

  it('shows a 409 on edit as the custom domain in use', async () => {
    statusPagesApi([statusPage()], {
      fail: { 'PATCH /api/status-pages/acme': { status: 409, body: { message: 'The domain is in use' } } },
    });
    renderAdmin('/admin/status-pages/acme');
    await screen.findByLabelText('Custom domain');
    type('Custom domain', 'status.example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This domain is already used by another status page')).toBeTruthy();
    expect(input('Custom domain').getAttribute('aria-invalid')).toBe('true');
  });

  it('shows a pending domain with its TXT record; Check now verifies it and keeps the edits in the form', async () => {
    const record = { type: 'TXT' as const, name: '_beacon-challenge.status.example.com', value: 'tok-4711' };
    const pending = statusPage({
      custom_domain: 'status.example.com',
      custom_domain_status: 'pending',
      custom_domain_token: record.value,
      custom_domain_record: record,
    });
    const verified: StatusPage = {
      ...pending,
      custom_domain_status: 'verified',
      custom_domain_checked_at: new Date().toISOString(),
      url: 'http://status.example.com',
      updated_at: '2024-02-01T00:00:00.000Z',
    };
    const { calls } = statusPagesApi([pending], {
      fail: { 'POST /api/status-pages/acme/actions/verify-domain': { status: 200, body: verified } },
    });
    renderAdmin('/admin/status-pages/acme');
    const card = await screen.findByRole('region', { name: 'Custom domain' });
    expect(within(card).getByText('Pending')).toBeTruthy();
    expect(within(card).getByText(/serves nothing until it proves it is yours/)).toBeTruthy();
    const facts = within(card).getByLabelText('DNS record');
    expect(within(facts).getByText('TXT')).toBeTruthy();
    expect(within(facts).getByText(record.name)).toBeTruthy();
    expect(within(facts).getByText(record.value)).toBeTruthy();
    expect(await violations()).toEqual([]);

    type('Title', 'Edited title');
    fireEvent.click(within(card).getByRole('button', { name: 'Check the DNS record of status.example.com now' }));
    expect(await screen.findByText(DOMAIN_VERIFIED)).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Custom domain' })).getByText('Verified')).toBeTruthy();
    expect(screen.getByText(/Last checked/)).toBeTruthy();
    expect(input('Title').value).toBe('Edited title');
    expect(writes(calls, 'POST').map((call) => call.path)).toEqual(['/api/status-pages/acme/actions/verify-domain']);
  });

  it('says why a check was refused, and shows no domain card without a domain', async () => {
    const pending = statusPage({
      custom_domain: 'status.example.com',
      custom_domain_status: 'pending',
      custom_domain_token: 'tok',
      custom_domain_record: { type: 'TXT', name: '_beacon-challenge.status.example.com', value: 'tok' },
    });
    const taken = {
      message: 'Another status page uses this domain',
      errors: { custom_domain: ['Another status page uses this domain'] },
    };
    statusPagesApi([pending, statusPage({ handle: 'plain' })], {
      fail: { 'POST /api/status-pages/acme/actions/verify-domain': { status: 409, body: taken } },
    });
    renderAdmin('/admin/status-pages/acme');
    fireEvent.click(await screen.findByRole('button', { name: /^Check the DNS record/ }));
    expect((await screen.findByRole('alert')).textContent).toBe('Another status page uses this domain');
    expect(within(screen.getByRole('region', { name: 'Custom domain' })).getByText('Pending')).toBeTruthy();

    cleanup();
    renderAdmin('/admin/status-pages/plain');
    await screen.findByLabelText('Custom domain');
    expect(screen.queryByRole('region', { name: 'Custom domain' })).toBeNull();
  });

  it('deletes a page only after the confirmation', async () => {
    const { calls, server } = statusPagesApi([statusPage()]);
    renderAdmin('/admin/status-pages/acme');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete status page' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete status page' });
    expect(within(dialog).getByText('Are you sure you want to delete the status page Acme status?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(writes(calls, 'DELETE')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Delete status page' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete status page' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Status page was deleted')).toBeTruthy();
    expect(writes(calls, 'DELETE').map((call) => call.path)).toEqual(['/api/status-pages/acme']);
    expect(server.size).toBe(0);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/admin/status-pages'));
    expect(await screen.findByText('No status pages yet')).toBeTruthy();
  });

  it('shows a page that does not exist as not found', async () => {
    statusPagesApi();
    renderAdmin('/admin/status-pages/missing');
    expect(await screen.findByText('Status page not found')).toBeTruthy();
  });
});
