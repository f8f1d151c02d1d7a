// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Service } from '../../../src/contract/catalogue.js';
import type { DependencyItem } from '../../../src/contract/dependencies.js';
import { dependencyCandidates } from '../../../src/app/dependencies/dependencies-cards.js';
import { makeService, makeUser, renderApp, resetLocalDb, stubApi, type Call } from './services-kit.js';

const me = makeUser('mia');
const item = (handle: string, health: DependencyItem['health'] = 'good'): DependencyItem => ({
  id: `id-${handle}`,
  handle,
  name: handle[0]!.toUpperCase() + handle.slice(1),
  thumbnail_url: null,
  health,
});

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

/** A server holding checkout's dependencies and dependents; `fail` names calls that answer 500. */
function dependencyApi(service: Service, { fail = [] as string[] } = {}) {
  const state = { dependencies: [item('ledger', 'critical')], dependents: [item('storefront')] };
  const calls = stubApi(me, {
    handler: (call: Call) => {
      const base = `/api/services/${service.handle}`;
      if (fail.includes(`${call.method} ${call.path}`)) return { status: 500, body: { message: 'Boom' } };
      if (call.method === 'GET' && call.path === base) return { status: 200, body: service };
      if (call.method === 'GET' && call.path === `${base}/dependencies`)
        return { status: 200, body: state.dependencies };
      if (call.method === 'GET' && call.path === `${base}/dependents`) return { status: 200, body: state.dependents };
      if (call.method === 'GET' && call.path === '/api/autocomplete/services')
        return {
          status: 200,
          body: [service, makeService('identity', { name: 'Identity' })].map(({ id, handle, name }) => ({
            id,
            handle,
            name,
            thumbnail_url: null,
          })),
        };
      if (call.method === 'POST' && call.path === `${base}/dependencies`) {
        const added = item((call.body as { service: { id: string } }).service.id);
        state.dependencies = [...state.dependencies, added];
        return { status: 201, body: added };
      }
      const removed = new RegExp(`^${base}/dependencies/([^/]+)$`).exec(call.path);
      if (call.method === 'DELETE' && removed) {
        state.dependencies = state.dependencies.filter((d) => d.handle !== removed[1]);
        return { status: 204 };
      }
      return undefined;
    },
  });
  return { calls, state };
}

const checkout = makeService('checkout', { name: 'Checkout' });
/** The card under a heading (the Remote Dependencies card says No Dependencies too). */
const card = async (name: string) =>
  within((await screen.findByRole('heading', { name })).closest('.p-card') as HTMLElement);
const editable = { ...checkout, permissions: { edit: true } };

describe('the dependency cards', () => {
  it('shows dependencies with their health and dependents, read only for a viewer', async () => {
    dependencyApi(checkout);
    renderApp('/services/checkout');
    const dependencies = await screen.findByRole('list', { name: 'Dependencies' });
    expect(within(dependencies).getByRole('link', { name: 'Ledger' }).getAttribute('href')).toBe('/services/ledger');
    expect(within(dependencies).getByText('Critical')).toBeTruthy();
    const dependents = await screen.findByRole('list', { name: 'Dependents' });
    expect(within(dependents).getByRole('link', { name: 'Storefront' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Dependency' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Ledger' })).toBeNull();
  });

  it('says No Dependencies and No Dependents when there are none, and when a load fails', async () => {
    const { state } = dependencyApi(checkout, { fail: ['GET /api/services/checkout/dependents'] });
    state.dependencies = [];
    renderApp('/services/checkout');
    expect(await (await card('Dependencies')).findByText('No Dependencies')).toBeTruthy();
    const dependents = await card('Dependents');
    expect(await dependents.findByText('No Dependents')).toBeTruthy();
    // After the one retry a 5xx gets.
    expect(await dependents.findByText('The list could not be loaded.', {}, { timeout: 4000 })).toBeTruthy();
  });

  it('lets an editor add a dependency through the debounced search, which leaves out the service itself', async () => {
    const { calls } = dependencyApi(editable);
    renderApp('/services/checkout');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Dependency' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Dependency' });
    const add = within(dialog).getByRole('button', { name: 'Add' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Service'), { target: { value: 'i' } });
    const option = await screen.findByRole('option', { name: 'Identity', hidden: true }, { timeout: 2000 });
    expect(screen.queryByRole('option', { name: 'Checkout', hidden: true })).toBeNull();
    fireEvent.click(option);
    await waitFor(() => expect(add.disabled).toBe(false));
    fireEvent.click(add);
    expect(await screen.findByText('Service dependency added')).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Dependencies' });
    await waitFor(() => expect(within(list).getByRole('link', { name: 'Identity' })).toBeTruthy());
    expect(calls.find((call) => call.method === 'POST' && call.path.endsWith('/dependencies'))?.body).toEqual({
      service: { id: 'identity' },
    });
  });

  it('says so when adding fails, and keeps the dialog open', async () => {
    dependencyApi(editable, { fail: ['POST /api/services/checkout/dependencies'] });
    renderApp('/services/checkout');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Dependency' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Dependency' });
    fireEvent.change(within(dialog).getByLabelText('Service'), { target: { value: 'id' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Identity', hidden: true }, { timeout: 2000 }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('There was an error adding your dependency')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Add Dependency' })).toBeTruthy();
  });

  it('lets an editor remove a dependency, and says when that fails', async () => {
    dependencyApi(editable);
    renderApp('/services/checkout');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Ledger' }));
    expect(await screen.findByText('Service dependency Removed')).toBeTruthy();
    expect(await (await card('Dependencies')).findByText('No Dependencies')).toBeTruthy();
    cleanup();

    dependencyApi(editable, { fail: ['DELETE /api/services/checkout/dependencies/ledger'] });
    renderApp('/services/checkout');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Ledger' }));
    expect(await screen.findByText('Failed to remove dependency')).toBeTruthy();
  });
});

describe('dependencyCandidates', () => {
  it('leaves out the current service', () => {
    const ref = (handle: string) => ({ id: handle, handle, name: handle, thumbnail_url: null });
    expect(dependencyCandidates([ref('a'), ref('b')], 'a')).toEqual([ref('b')]);
  });
});
