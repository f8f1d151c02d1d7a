// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Service } from '../../../src/contract/catalogue.js';
import { makeService, makeUser, renderApp, resetLocalDb, stubApi, type Call } from './services-kit.js';

const me = makeUser('mia');

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

/** A server holding one editable service; PATCH answers the changed service. */
function serviceApi(initial: Service) {
  const server = { service: initial };
  const calls = stubApi(me, {
    handler: (call: Call) => {
      const base = `/api/services/${initial.handle}`;
      if (call.method === 'GET' && call.path === base) return { status: 200, body: server.service };
      if (call.method === 'PATCH' && call.path === base) {
        server.service = { ...server.service, ...(call.body as object) };
        return { status: 200, body: server.service };
      }
      return undefined;
    },
  });
  return { calls, server };
}

const payments = makeService('payments', { name: 'Payments', permissions: { edit: true } });

describe('service links', () => {
  it('adds a link in settings (checked by the contract rule), saves it and shows it on the overview', async () => {
    const { calls } = serviceApi(payments);
    renderApp('/services/payments/settings');
    const form = await screen.findByRole('form', { name: 'Links' });
    expect(within(form).getByText('No links yet.')).toBeTruthy();

    fireEvent.click(within(form).getByRole('button', { name: 'Add Link' }));
    fireEvent.change(within(form).getByLabelText('Link name'), { target: { value: 'Runbook' } });
    fireEvent.change(within(form).getByLabelText('URL'), { target: { value: 'javascript:alert(1)' } });
    expect(within(form).getByText('Enter an http or https address')).toBeTruthy();
    expect((within(form).getByRole('button', { name: 'Save Links' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(within(form).getByLabelText('URL'), { target: { value: 'https://wiki.example.com/payments' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save Links' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
        links: [{ name: 'Runbook', url: 'https://wiki.example.com/payments' }],
      }),
    );
    await screen.findByText('Service Updated');

    fireEvent.click(screen.getByRole('link', { name: 'Overview' }));
    const links = await screen.findByRole('list', { name: 'Links' });
    const runbook = within(links).getByRole('link', { name: 'Runbook' });
    expect(runbook.getAttribute('href')).toBe('https://wiki.example.com/payments');
    expect(runbook.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('removes a link', async () => {
    const { calls } = serviceApi({ ...payments, links: [{ name: 'Runbook', url: 'https://wiki.example.com' }] });
    renderApp('/services/payments/settings');
    const form = await screen.findByRole('form', { name: 'Links' });
    fireEvent.click(within(form).getByRole('button', { name: 'Remove link Runbook' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save Links' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ links: [] }));
  });
});
