// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeService, makeTeam, makeUser, renderApp, resetLocalDb, stubApi } from './services-kit.js';

const me = makeUser('mia', { name: 'Mia' });

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

function panel(name: string) {
  return screen.getByRole('region', { name });
}

describe('home', () => {
  it('shows 3 placeholder rows in each panel while it loads', async () => {
    stubApi(me);
    // The panels' calls never answer.
    const inner = globalThis.fetch;
    vi.stubGlobal(
      'fetch',
      vi.fn((input: string, init?: RequestInit) =>
        /\/api\/users\/mia\/(teams|starred|feed)$/.test(new URL(input, 'http://acme.localhost').pathname)
          ? new Promise<Response>(() => undefined)
          : inner(input, init),
      ),
    );
    renderApp('/');
    await screen.findByRole('heading', { level: 1, name: 'Welcome, Mia' });
    for (const name of ['My Services', 'My Teams', 'Activity', 'Starred Services']) {
      const loading = within(panel(name)).getByRole('status');
      expect(loading.querySelectorAll('[data-placeholder-row]')).toHaveLength(3);
    }
  });

  it("shows 'No Services', 'No Teams', 'No Events' and 'No Starred' when empty or failing", async () => {
    stubApi(me, {
      handler: (call) =>
        call.method === 'GET' && (call.path === '/api/users/mia/teams' || call.path === '/api/users/mia/starred')
          ? { status: 200, body: [] }
          : undefined,
    });
    renderApp('/');
    // The feed is not served yet (404): it reads as empty.
    expect(await within(await screen.findByRole('region', { name: 'Activity' })).findByText('No Events')).toBeTruthy();
    expect(await within(panel('My Services')).findByText('No Services')).toBeTruthy();
    expect(within(panel('My Teams')).getByText('No Teams')).toBeTruthy();
    expect(await within(panel('Starred Services')).findByText('No Starred')).toBeTruthy();
  });

  it("lists the services of the user's teams with their status, the teams with 'Members: n', and starred services", async () => {
    const core = makeTeam('core', { name: 'Core', member_count: 3 });
    const web = makeTeam('web', { name: 'Web', member_count: 1 });
    const payments = makeService('payments', { name: 'Payments', health: 'critical' });
    stubApi(me, {
      handler: (call) => {
        if (call.method !== 'GET') return undefined;
        if (call.path === '/api/users/mia/teams') return { status: 200, body: [core, web] };
        if (call.path === '/api/teams/core/services') return { status: 200, body: [payments] };
        // A service in two teams' lists shows once.
        if (call.path === '/api/teams/web/services')
          return { status: 200, body: [payments, makeService('search', { name: 'Search' })] };
        if (call.path === '/api/users/mia/starred')
          return {
            status: 200,
            body: [{ id: 's1', profile: { id: 'svc-x', handle: 'ledger', name: 'Ledger', thumbnail_url: null } }],
          };
        return undefined;
      },
    });
    renderApp('/');

    const services = await within(await screen.findByRole('region', { name: 'My Services' })).findByRole('list');
    const items = within(services).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('link').textContent)).toEqual(['Payments', 'Search']);
    expect(items[0]!.textContent).toContain('Status: Critical');
    expect(within(items[0]!).getByRole('link').getAttribute('href')).toBe('/services/payments');

    const teams = within(panel('My Teams'));
    expect((await teams.findByRole('link', { name: 'Core' })).getAttribute('href')).toBe('/teams/core');
    expect(teams.getByText('Members: 3')).toBeTruthy();
    expect(teams.getByText('Members: 1')).toBeTruthy();

    const starred = within(panel('Starred Services'));
    expect((await starred.findByRole('link', { name: 'Ledger' })).getAttribute('href')).toBe('/services/ledger');
  });
});
