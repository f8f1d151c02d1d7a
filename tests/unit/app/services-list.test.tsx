// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeService, makeUser, page, renderApp, resetLocalDb, stubApi } from './services-kit.js';

const me = makeUser('mia');

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

describe('services list', () => {
  it("shows a spinner, then 'No services found' for an empty list", async () => {
    stubApi(me, { handler: (call) => (call.path === '/api/search/services' ? page([]) : undefined) });
    renderApp('/services');
    expect(await screen.findByRole('progressbar', { name: 'Loading services' })).toBeTruthy();
    expect(await screen.findByText('No services found')).toBeTruthy();
  });

  it('shows the cards three per row, 36 a page, and a new search starts again at offset 0', async () => {
    const services = Array.from({ length: 36 }, (_, i) => makeService(`svc-${i}`, { name: `Service ${i}` }));
    const calls = stubApi(me, {
      handler: (call) => (call.path === '/api/search/services' ? page(services, 80) : undefined),
    });
    const searches = () => calls.filter((call) => call.path === '/api/search/services').map((call) => call.query);
    renderApp('/services');

    expect(await screen.findByRole('article', { name: 'Service 0' })).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(36);
    expect(screen.getByRole('article', { name: 'Service 0' }).closest('li')!.className).toContain('md:col-4');
    expect(searches()[0]!.get('cursor')).toBe('0');
    expect(searches()[0]!.get('limit')).toBe('36');

    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(searches().at(-1)!.get('cursor')).toBe('36'));

    fireEvent.change(screen.getByLabelText('Search services'), { target: { value: ' pay ' } });
    await waitFor(() => expect(searches().at(-1)!.get('q')).toBe('pay'));
    expect(searches().at(-1)!.get('cursor')).toBe('0');
    expect(searches().at(-1)!.get('limit')).toBe('36');
  });
});
