// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeService, makeTeam, makeUser, renderApp, resetLocalDb, stubApi, type Call } from './services-kit.js';

const me = makeUser('mia');
const core = makeTeam('core', { name: 'Core' });
const web = makeTeam('web', { name: 'Web' });

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

function createApi(taken: string[] = []) {
  return stubApi(me, {
    handler: (call: Call) => {
      if (call.method === 'GET' && call.path === '/api/users/mia/teams') return { status: 200, body: [core, web] };
      if (call.method === 'GET' && call.path === '/api/teams/core') return { status: 200, body: core };
      const service = /^\/api\/services\/([^/]+)$/.exec(call.path);
      if (call.method === 'GET' && service) {
        return taken.includes(service[1]!)
          ? { status: 200, body: makeService(service[1]!) }
          : { status: 404, body: { message: 'Not Found' } };
      }
      const create = /^\/api\/teams\/([^/]+)\/services$/.exec(call.path);
      if (call.method === 'POST' && create) {
        const body = call.body as { name: string; handle: string };
        return { status: 201, body: makeService(body.handle, { name: body.name, permissions: { edit: true } }) };
      }
      return undefined;
    },
  });
}

function createButton() {
  return screen.getByRole('button', { name: 'Create Service' }) as HTMLButtonElement;
}

async function chooseOwner(name: string) {
  const dropdown = screen.getByLabelText('Owner', { selector: 'input' }).closest('.p-dropdown')!;
  // Enabled once the user's teams are in.
  await waitFor(() => expect(dropdown.classList.contains('p-disabled')).toBe(false));
  fireEvent.click(dropdown);
  const listbox = await screen.findByRole('listbox', { hidden: true });
  fireEvent.click(within(listbox).getByRole('option', { name, hidden: true }));
}

describe('create service', () => {
  it('keeps Create Service disabled until name, handle and owner are valid, then creates and opens it', async () => {
    const calls = createApi();
    renderApp('/services/new');

    const name = await screen.findByLabelText('Name');
    expect(screen.getByLabelText('Handle')).toBeTruthy();
    expect(screen.getByLabelText('Owner', { selector: 'input' })).toBeTruthy();
    expect(createButton().disabled).toBe(true);

    fireEvent.change(name, { target: { value: 'Payments API' } });
    expect((screen.getByLabelText('Handle') as HTMLInputElement).value).toBe('payments-api');
    // No owner yet.
    expect(createButton().disabled).toBe(true);

    // Leaving the name checks the handle filled from it: a 404 means available.
    fireEvent.blur(name);
    expect(await screen.findByText('Service handle is available')).toBeTruthy();
    expect(calls.some((call) => call.method === 'GET' && call.path === '/api/services/payments-api')).toBe(true);

    await chooseOwner('Web');
    await waitFor(() => expect(createButton().disabled).toBe(false));

    fireEvent.change(screen.getByLabelText('Handle'), { target: { value: 'Bad Handle!' } });
    expect((screen.getByLabelText('Handle') as HTMLInputElement).value).toBe('badhandle');
    fireEvent.change(screen.getByLabelText('Handle'), { target: { value: 'x' } });
    expect(createButton().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Handle'), { target: { value: 'payments-api' } });
    await waitFor(() => expect(createButton().disabled).toBe(false));

    fireEvent.click(createButton());
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/services/payments-api'));
    expect(calls.find((call) => call.method === 'POST' && call.path !== '/api/token')).toMatchObject({
      path: '/api/teams/web/services',
      body: { name: 'Payments API', handle: 'payments-api' },
    });
  });

  it('says a taken handle is taken and keeps the button disabled', async () => {
    createApi(['payments']);
    renderApp('/services/new');
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Payments' } });
    await chooseOwner('Core');
    fireEvent.blur(screen.getByLabelText('Handle'));
    expect(await screen.findByText('Service handle is already taken')).toBeTruthy();
    expect(createButton().disabled).toBe(true);
  });

  it('hides the owner select when the route names the team and creates the service in it', async () => {
    const calls = createApi();
    renderApp('/teams/core/services/new');

    const name = await screen.findByLabelText('Name');
    expect(screen.queryByLabelText('Owner', { selector: 'input' })).toBeNull();
    expect(screen.queryByText('Owner')).toBeNull();
    expect(createButton().disabled).toBe(true);

    fireEvent.change(name, { target: { value: 'Search' } });
    expect(createButton().disabled).toBe(false);
    // The team's breadcrumb.
    expect((await screen.findByRole('link', { name: 'Core' })).getAttribute('href')).toBe('/teams/core');

    fireEvent.click(createButton());
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/services/search'));
    expect(calls.find((call) => call.method === 'POST' && call.path !== '/api/token')).toMatchObject({
      path: '/api/teams/core/services',
      body: { name: 'Search', handle: 'search' },
    });
    expect(calls.some((call) => call.path === '/api/users/mia/teams')).toBe(false);
  });

  it("shows a refused create's field errors next to the fields and its message below, without a toast", async () => {
    stubApi(me, {
      handler: (call: Call) => {
        if (call.method === 'GET' && call.path === '/api/teams/core') return { status: 200, body: core };
        if (call.method === 'GET' && call.path.startsWith('/api/services/')) return { status: 404, body: {} };
        if (call.method === 'POST' && call.path === '/api/teams/core/services')
          return {
            status: 403,
            body: { message: 'Only team members may create services', errors: { handle: ['Not yours'] } },
          };
        return undefined;
      },
    });
    renderApp('/teams/core/services/new');
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Search' } });
    fireEvent.click(createButton());
    expect(await screen.findByText('Not yours')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Only team members may create services');
    expect(document.querySelector('.beacon-snackbar')).toBeNull();
  });
});

describe('the owner field', () => {
  function teamsApi(teams: ReturnType<typeof makeTeam>[]) {
    return stubApi(me, {
      handler: (call: Call) => {
        if (call.method === 'GET' && call.path === '/api/users/mia/teams') return { status: 200, body: teams };
        if (call.method === 'GET' && call.path.startsWith('/api/services/')) return { status: 404, body: {} };
        if (call.method === 'POST' && call.path.endsWith('/services')) {
          const body = call.body as { name: string; handle: string };
          return { status: 201, body: makeService(body.handle, { name: body.name }) };
        }
        return undefined;
      },
    });
  }

  it('offers only the teams the user may create services for', async () => {
    teamsApi([core, makeTeam('ops', { name: 'Ops', is_admin: false, can_create_services: false }), web]);
    renderApp('/services/new');
    const dropdown = (await screen.findByLabelText('Owner', { selector: 'input' })).closest('.p-dropdown')!;
    await waitFor(() => expect(dropdown.classList.contains('p-disabled')).toBe(false));
    fireEvent.click(dropdown);
    const listbox = await screen.findByRole('listbox', { hidden: true });
    expect(
      within(listbox)
        .getAllByRole('option', { hidden: true })
        .map((o) => o.textContent),
    ).toEqual(['Core', 'Web']);
  });

  it('searches the teams, debounced, once there are more than 20, and creates in the team picked', async () => {
    const teams = Array.from({ length: 25 }, (_, i) => makeTeam(`team-${i}`, { name: `Team ${i}` }));
    const calls = teamsApi(teams);
    renderApp('/services/new');
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Vault' } });
    const owner = await screen.findByLabelText('Owner');
    fireEvent.change(owner, { target: { value: 'team 2' } });
    // 'Team 2' and 'Team 20' to 'Team 24', after the 500 ms debounce (jsdom keeps the overlay hidden).
    const option = await screen.findByRole('option', { name: 'Team 21', hidden: true }, { timeout: 2000 });
    const expected = ['Team 2', 'Team 20', 'Team 21', 'Team 22', 'Team 23', 'Team 24'];
    for (const name of expected) expect(screen.getByRole('option', { name, hidden: true })).toBeTruthy();
    expect(screen.getAllByRole('option', { hidden: true })).toHaveLength(expected.length);
    fireEvent.click(option);
    await waitFor(() => expect(createButton().disabled).toBe(false));
    fireEvent.click(createButton());
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/services/vault'));
    expect(calls.find((call) => call.method === 'POST' && call.path !== '/api/token')?.path).toBe(
      '/api/teams/team-21/services',
    );
  });
});
