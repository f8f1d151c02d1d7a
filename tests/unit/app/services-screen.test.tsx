// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Service } from '../../../src/contract/catalogue.js';
import { serviceTabs } from '../../../src/app/service-page.js';
import { isTabActive } from '../../../src/app/services/index.js';
import { ownerOptions } from '../../../src/app/services/owner-picker.js';
import { makeService, makeTeam, makeUser, page, renderApp, resetLocalDb, stubApi, type Call } from './services-kit.js';

const me = makeUser('mia');

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

function menuLabels() {
  const nav = screen.getByRole('navigation', { name: 'Service sections' });
  return within(nav)
    .getAllByRole('link')
    .map((link) => link.textContent);
}

/** A server holding one service; actions and updates answer the changed service. */
function serviceApi(initial: Service, { fail = [] as string[] } = {}) {
  const server = { service: initial };
  const calls = stubApi(me, {
    handler: (call: Call) => {
      const base = `/api/services/${initial.handle}`;
      if (fail.includes(`${call.method} ${call.path}`)) return { status: 500, body: { message: 'Boom' } };
      if (call.method === 'GET' && call.path === base) return { status: 200, body: server.service };
      if (call.method === 'PATCH' && call.path === base) {
        server.service = { ...server.service, ...(call.body as object) };
        return { status: 200, body: server.service };
      }
      if (call.method === 'DELETE' && call.path === base) return { status: 204 };
      if (call.method === 'POST' && call.path.startsWith(`${base}/actions/`)) {
        const body = call.body as Record<string, unknown>;
        if (call.path.endsWith('/reparent')) {
          const id = (body.owner as { id: string }).id;
          server.service = { ...server.service, owner: { id, handle: 'web', name: 'Web', thumbnail_url: null } };
        } else server.service = { ...server.service, ...body };
        return { status: 200, body: server.service };
      }
      if (call.path === `${base}/icon`) {
        server.service = { ...server.service, thumbnail_url: call.method === 'POST' ? '/assets/s1' : null };
        return { status: 200, body: server.service };
      }
      if (call.method === 'GET' && call.path === '/api/search/teams')
        return page([makeTeam('web', { id: 'team-web', name: 'Web' })]);
      if (call.method === 'GET' && call.path === '/api/search/services') return page([]);
      return undefined;
    },
  });
  return { calls, server };
}

const payments = makeService('payments', {
  name: 'Payments',
  description: 'Takes money',
  stage: 'eol',
  visibility: 'owner',
  health: 'warning',
  starred_count: 4,
});
const editable = { ...payments, permissions: { edit: true } };

async function pick(label: string, option: string) {
  fireEvent.click(screen.getByLabelText(label, { selector: 'input' }).closest('.p-dropdown')!);
  const listbox = await screen.findByRole('listbox', { hidden: true });
  fireEvent.click(within(listbox).getByRole('option', { name: option, hidden: true }));
}

function dropdownText(label: string) {
  return screen.getByLabelText(label, { selector: 'input' }).closest('.p-dropdown')!.querySelector('.p-dropdown-label')!
    .textContent;
}

describe('service screen frame', () => {
  it("shows a spinner, then 'The service was not found' for a missing service", async () => {
    const { calls } = serviceApi(payments);
    renderApp('/services/nothing');
    expect(await screen.findByRole('progressbar', { name: 'Loading service' })).toBeTruthy();
    expect(await screen.findByText('The service was not found')).toBeTruthy();
    expect(calls.filter((call) => call.path === '/api/services/nothing')).toHaveLength(1);
  });

  it('shows the breadcrumb, no Settings for a viewer, and the overview fields', async () => {
    serviceApi(payments);
    renderApp('/services/payments');

    const crumbs = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Payments' }).getAttribute('href')).toBe('/services/payments');
    expect(menuLabels()).toEqual([
      'Overview',
      'Health Checks',
      'Notices',
      'Announcements',
      'Release Notes',
      'API Docs',
      'Open API Specs',
      'Service Graph',
      'Scorecards',
    ]);
    const overview = screen.getByRole('link', { name: 'Overview' });
    expect(overview.getAttribute('aria-current')).toBe('page');

    expect(screen.getByRole('link', { name: 'Core' }).getAttribute('href')).toBe('/teams/core');
    expect(screen.getByText('Owner team')).toBeTruthy();
    expect(screen.getByText('End of Life')).toBeTruthy();
    expect(screen.getByText('Warning')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Star Payments' }).textContent).toContain('4');
  });

  it('gives editors Settings, and shows not-found for unknown sections and for viewers at settings', async () => {
    serviceApi(editable);
    renderApp('/services/payments/settings');
    expect(await screen.findByLabelText('Name')).toBeTruthy();
    expect(menuLabels()).toEqual([
      'Overview',
      'Health Checks',
      'Notices',
      'Announcements',
      'Release Notes',
      'API Docs',
      'Open API Specs',
      'Service Graph',
      'Scorecards',
      'Drafts Announcements',
      'Drafts Release Notes',
      'Drafts API Docs',
      'Drafts Open API Specs',
      'Settings',
    ]);
    expect(screen.getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBeNull();
    cleanup();

    serviceApi(editable);
    renderApp('/services/payments/nowhere');
    expect(await screen.findByText('404 Not Found')).toBeTruthy();
    expect(screen.getByText('No pages found')).toBeTruthy();
    cleanup();

    serviceApi(payments);
    renderApp('/services/payments/settings');
    expect(await screen.findByText('404 Not Found')).toBeTruthy();
    expect(screen.queryByLabelText('Name')).toBeNull();
  });

  it('hides tabs whose display flag is false and matches exact and child paths', () => {
    const tabs = serviceTabs({ permissions: { edit: true } });
    const overview = tabs.find((tab) => tab.label === 'Overview');
    const settings = tabs.find((tab) => tab.label === 'Settings');
    expect(
      serviceTabs({ permissions: { edit: false } })
        .filter((tab) => tab.display)
        .map((tab) => tab.label),
    ).toEqual([
      'Overview',
      'Health Checks',
      'Notices',
      'Announcements',
      'Release Notes',
      'API Docs',
      'Open API Specs',
      'Service Graph',
      'Scorecards',
    ]);
    expect(isTabActive(overview!, '')).toBe(true);
    expect(isTabActive(overview!, 'settings')).toBe(false);
    expect(isTabActive(settings!, 'settings/')).toBe(true);
    expect(isTabActive(settings!, 'settings/channels')).toBe(true);
    expect(isTabActive(settings!, 'settingsx')).toBe(false);
  });
});

describe('service settings', () => {
  it('shows Save only once a field changed, saves it and hides Save again', async () => {
    const { calls } = serviceApi(editable);
    renderApp('/services/payments/settings');

    const name = (await screen.findByLabelText('Name')) as HTMLInputElement;
    const description = screen.getByLabelText('Description') as HTMLTextAreaElement;
    expect(name.value).toBe('Payments');
    expect(description.value).toBe('Takes money');
    expect(description.rows).toBe(3);
    expect(screen.queryByRole('button', { name: /^Save/ })).toBeNull();

    fireEvent.change(description, { target: { value: 'Takes and gives money' } });
    expect(screen.getByRole('button', { name: 'Save Description' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save Name' })).toBeNull();
    fireEvent.change(description, { target: { value: 'Takes money' } });
    expect(screen.queryByRole('button', { name: 'Save Description' })).toBeNull();

    fireEvent.change(name, { target: { value: '  ' } });
    expect((screen.getByRole('button', { name: 'Save Name' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(name, { target: { value: 'Payments API' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Name' }));

    expect(await screen.findByText('Service Updated')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')).toMatchObject({
      path: '/api/services/payments',
      body: { name: 'Payments API' },
    });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save Name' })).toBeNull());
    // The service is replaced: the breadcrumb follows.
    await waitFor(() => {
      const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
      expect(within(crumbs).getByRole('link', { name: 'Payments API' })).toBeTruthy();
    });
  });

  it('shows what a catalogue source decides as text with where to change it, and keeps health and visibility', async () => {
    const managed = {
      ...editable,
      managed_by: { source: 'repo', source_id: 's1', path: 'catalog-info.yaml', line: 7, settings: [] },
    };
    serviceApi(managed);
    renderApp('/services/payments/settings');
    expect(await screen.findByText('catalog-info.yaml:7')).toBeTruthy();
    expect(screen.getByText('Managed in repo')).toBeTruthy();
    expect(screen.queryByLabelText('Name')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Service' })).toBeNull();
    expect(screen.getByText(/remove it from/)).toBeTruthy();
    // The stage is the file's: shown as text; health stays the UI's.
    expect(document.getElementById('service-stage')).toBeNull();
    expect(screen.getByText('Stage')).toBeTruthy();
    const dropdown = (label: string) => document.getElementById(label)!.closest('.p-dropdown')!;
    expect(dropdown('service-health').classList.contains('p-disabled')).toBe(false);
  });

  it('changes visibility, stage, health and owner through their actions, each with its toast', async () => {
    const { calls } = serviceApi(editable);
    renderApp('/services/payments/settings');
    await screen.findByLabelText('Name');
    const posts = () => calls.filter((call) => call.method === 'POST' && call.path.includes('/actions/'));

    await pick('Visibility', 'Public');
    expect(await screen.findByText('Service Visibility Updated')).toBeTruthy();
    await waitFor(() => expect(dropdownText('Visibility')).toBe('Public'));

    await pick('Stage', 'Live');
    expect(await screen.findByText('Service Stage Updated')).toBeTruthy();
    await pick('Health Status', 'Critical');
    expect(await screen.findByText('Service Health Updated')).toBeTruthy();

    // At most 3 snackbars show at once: dismiss them before the fourth.
    for (const button of screen.getAllByRole('button', { name: 'Dismiss' })) fireEvent.click(button);
    // The current owner (Core) is listed although the workspace search returned only Web.
    await waitFor(() => expect(dropdownText('Owner')).toBe('Core'));
    await pick('Owner', 'Web');
    expect(await screen.findByText('Service Owner Updated')).toBeTruthy();
    await waitFor(() => expect(dropdownText('Owner')).toBe('Web'));

    expect(posts().map((call) => [call.path, call.body])).toEqual([
      ['/api/services/payments/actions/change-visibility', { visibility: 'public' }],
      ['/api/services/payments/actions/change-stage', { stage: 'live' }],
      ['/api/services/payments/actions/change-health', { health: 'critical' }],
      ['/api/services/payments/actions/reparent', { owner: { id: 'team-web' } }],
    ]);
    expect(calls.find((call) => call.path === '/api/search/teams')?.query.get('limit')).toBe('20');
  });

  it('leaves the service unchanged when an update fails', async () => {
    const { calls } = serviceApi(editable, { fail: ['POST /api/services/payments/actions/change-stage'] });
    renderApp('/services/payments/settings');
    await screen.findByLabelText('Name');
    expect(dropdownText('Stage')).toBe('End of Life');

    await pick('Stage', 'Live');
    await waitFor(() =>
      expect(calls.some((call) => call.path === '/api/services/payments/actions/change-stage')).toBe(true),
    );
    await waitFor(() =>
      expect(
        screen.getByLabelText('Stage', { selector: 'input' }).closest('.p-dropdown')!.classList.contains('p-disabled'),
      ).toBe(false),
    );
    expect(dropdownText('Stage')).toBe('End of Life');
    expect(screen.queryByText('Service Stage Updated')).toBeNull();
  });

  it('uploads and clears the photo', async () => {
    const { calls } = serviceApi(editable);
    renderApp('/services/payments/settings');
    await screen.findByLabelText('Name');
    expect((screen.getByRole('button', { name: 'Clear Photo' }) as HTMLButtonElement).disabled).toBe(true);

    const input = screen.getByLabelText('Service photo image') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['png'], 'logo.png', { type: 'image/png' })] } });
    expect(await screen.findByText('Service Updated')).toBeTruthy();
    const upload = calls.find((call) => call.method === 'POST' && call.path === '/api/services/payments/icon');
    expect((upload!.body as FormData).get('icon')).toBeInstanceOf(File);

    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Clear Photo' }) as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Clear Photo' }));
    await waitFor(() =>
      expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/services/payments/icon')).toBe(true),
    );
  });

  it("deletes after confirming, says 'Service Delete' and returns to /services", async () => {
    const { calls } = serviceApi(editable);
    renderApp('/services/payments/settings');
    await screen.findByLabelText('Name');

    fireEvent.click(screen.getByRole('button', { name: 'Delete Service' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete this service?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Service Delete')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/services'));
    expect(calls.filter((call) => call.method === 'DELETE' && call.path === '/api/services/payments')).toHaveLength(1);
  });

  it('searches the owner, debounced, through the teams autocomplete once the workspace has more than 20 teams', async () => {
    const web = { id: 'team-web', handle: 'web', name: 'Web', thumbnail_url: null };
    const calls = stubApi(me, {
      handler: (call: Call) => {
        const base = '/api/services/payments';
        if (call.method === 'GET' && call.path === base) return { status: 200, body: editable };
        if (call.method === 'GET' && call.path === '/api/search/teams')
          return page([makeTeam('core', { id: 'team-core', name: 'Core' })], 30);
        if (call.method === 'GET' && call.path === '/api/autocomplete/teams') return { status: 200, body: [web] };
        if (call.method === 'POST' && call.path === `${base}/actions/reparent`)
          return { status: 200, body: { ...editable, owner: web } };
        return undefined;
      },
    });
    renderApp('/services/payments/settings');
    const owner = await screen.findByLabelText('Owner');
    await waitFor(() => expect((owner as HTMLInputElement).value).toBe('Core'));
    fireEvent.change(owner, { target: { value: 'w' } });
    fireEvent.change(owner, { target: { value: 'we' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Web', hidden: true }, { timeout: 2000 }));
    expect(await screen.findByText('Service Owner Updated')).toBeTruthy();
    expect(calls.filter((call) => call.path === '/api/autocomplete/teams').map((call) => call.query.get('q'))).toEqual([
      'we',
    ]);
    expect(calls.find((call) => call.path.endsWith('/reparent'))?.body).toEqual({ owner: { id: 'team-web' } });
  });

  it('lists every team once and adds the current owner when missing', () => {
    const core = { id: 'team-core', name: 'Core' };
    const web = { id: 'team-web', name: 'Web' };
    expect(ownerOptions([web], core).map((option) => option.label)).toEqual(['Core', 'Web']);
    expect(ownerOptions([core, web], core).map((option) => option.label)).toEqual(['Core', 'Web']);
  });
});
