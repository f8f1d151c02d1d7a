// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '../../../src/contract/feeds.js';
import { AppShell } from '../../../src/app/app-shell.js';
import { LocalProvider } from '../../../src/app/local/local-provider.js';
import { NOTIFICATIONS_POLL_MS } from '../../../src/app/notifications/index.js';
import { localCode } from './local-code.js';
import { deleteLocalDb } from '../../../src/local/db.js';
import { makeUser, renderSignedIn, stubApi, type Call } from './app-kit.js';

const me = makeUser('mia', { name: 'Mia' });
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function notification(id: string, overrides: Partial<Notification> = {}): Notification {
  return {
    id,
    message: `Payments: event ${id}`,
    subject: { type: 'service', handle: 'payments', name: 'Payments' },
    created_at: minutesAgo(5),
    read: false,
    ...overrides,
  };
}

interface OpenStream {
  send(text: string): void;
  signal: AbortSignal | undefined;
  headers: Record<string, string>;
}

/**
 * The notifications API: the list with its `unread` header, mark-read, and the event stream, which the test
 * writes to (`streams`, one per connection). `streamStatus` other than 200 refuses the stream.
 */
function notificationsApi(
  items: Notification[],
  unread: number,
  { streamStatus = 200 }: { streamStatus?: number } = {},
): { calls: Call[]; streams: OpenStream[]; server: { items: Notification[]; unread: number } } {
  // What the server holds; a test changes it as the server would.
  const server = { items, unread };
  const calls = stubApi(me, {
    handler: (call) => {
      if (call.method === 'GET' && call.path === '/api/users/mia/notifications')
        return { status: 200, body: server.items, headers: { unread: String(server.unread) } };
      if (call.method === 'POST' && call.path === '/api/users/mia/notifications/actions/mark-read')
        return { status: 204 };
      return undefined;
    },
  });
  const inner = globalThis.fetch;
  const streams: OpenStream[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit = {}) => {
      if (new URL(input, 'http://acme.localhost').pathname !== '/api/events/stream') return inner(input, init);
      calls.push({ method: 'GET', path: '/api/events/stream', query: new URLSearchParams(), body: undefined });
      if (streamStatus !== 200)
        return Promise.resolve(new Response(JSON.stringify({ message: 'Down' }), { status: streamStatus }));
      const encoder = new TextEncoder();
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
      streams.push({
        send: (text) => controller.enqueue(encoder.encode(text)),
        signal: init.signal ?? undefined,
        headers: init.headers as Record<string, string>,
      });
      return Promise.resolve(new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
    }),
  );
  return { calls, streams, server };
}

function renderShell(url = '/') {
  return renderSignedIn(
    url,
    <Route element={<AppShell suspended={false} />}>
      <Route path="*" element={<p>Screen</p>} />
    </Route>,
    (screens) => <LocalProvider code={localCode}>{screens}</LocalProvider>,
  );
}

const bell = () => screen.getByRole('button', { name: /^Notifications/ });
/** The open panel (jsdom has no layout: PrimeReact's positioning leaves it display: none there). */
const openPanel = () =>
  waitFor(() => {
    const panel = document.getElementById('notifications-panel');
    expect(panel?.getAttribute('role')).toBe('dialog');
    expect(panel?.getAttribute('aria-label')).toBe('Notifications');
    return panel!;
  });
const location = () => screen.getByTestId('location').textContent;

afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await deleteLocalDb('acme', 'mia');
});

describe('the notifications bell', () => {
  it('shows the unread count as its badge and lists the notifications, unread ones marked, with their time', async () => {
    notificationsApi([notification('n2'), notification('n1', { message: 'Core: Member added', read: true })], 1);
    renderShell();
    await screen.findByRole('button', { name: 'Notifications (1 unread)' });
    expect(screen.getByTestId('notifications-badge').textContent).toBe('1');

    fireEvent.click(bell());
    const panel = await openPanel();
    const items = within(panel).getAllByRole('listitem', { hidden: true });
    expect(items.map((item) => within(item).getByRole('link', { hidden: true }).textContent)).toEqual([
      'Payments: event n2 (unread)5 minutes ago',
      'Core: Member added5 minutes ago',
    ]);
    expect(within(items[0]!).getByRole('link', { hidden: true }).getAttribute('href')).toBe('/services/payments');
    expect(items[0]!.className).toContain('beacon-bell-unread');
    expect(items[1]!.className).not.toContain('beacon-bell-unread');
  });

  it('hides the badge at 0 and says so when there are none', async () => {
    notificationsApi([], 0);
    renderShell();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy());
    expect(screen.queryByTestId('notifications-badge')).toBeNull();
    fireEvent.click(bell());
    expect(await screen.findByText('No notifications')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Mark all as read', hidden: true }).hasAttribute('disabled')).toBe(true);
  });

  it('opening a notification goes to its subject and marks that one read', async () => {
    const { calls } = notificationsApi(
      [notification('n2', { subject: { type: 'team', handle: 'core', name: 'Core' } }), notification('n1')],
      2,
    );
    renderShell();
    await screen.findByRole('button', { name: 'Notifications (2 unread)' });
    fireEvent.click(bell());
    const panel = await openPanel();
    fireEvent.click(within(panel).getAllByRole('link', { hidden: true })[0]!);
    await waitFor(() => expect(location()).toBe('/teams/core'));
    await screen.findByRole('button', { name: 'Notifications (1 unread)' });
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'POST' && call.path.includes('notifications'))).toEqual([
        expect.objectContaining({ path: '/api/users/mia/notifications/actions/mark-read', body: { ids: ['n2'] } }),
      ]),
    );
  });

  it("'Mark all as read' marks every one, the badge goes", async () => {
    // More are unread than the first page shows.
    const { calls } = notificationsApi([notification('n2'), notification('n1')], 7);
    renderShell();
    await screen.findByRole('button', { name: 'Notifications (7 unread)' });
    fireEvent.click(bell());
    fireEvent.click(await screen.findByRole('button', { name: 'Mark all as read', hidden: true }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy());
    expect(screen.queryByTestId('notifications-badge')).toBeNull();
    expect(screen.queryByText('(unread)', { exact: false })).toBeNull();
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST' && call.path.includes('notifications'))).toMatchObject({
        path: '/api/users/mia/notifications/actions/mark-read',
        body: {},
      }),
    );
  });

  it('live: a notification goes to the top and raises the badge, an unread event sets it, the app badge follows', async () => {
    const setAppBadge = vi.fn(async () => undefined);
    const clearAppBadge = vi.fn(async () => undefined);
    Object.assign(navigator, { setAppBadge, clearAppBadge });
    const { streams, server } = notificationsApi([notification('n1')], 1);
    renderShell();
    await screen.findByRole('button', { name: 'Notifications (1 unread)' });
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0]!.headers.authorization).toMatch(/^Bearer /);
    await waitFor(() => expect(setAppBadge).toHaveBeenLastCalledWith(1));

    const fresh = notification('n3', {
      message: 'Payments: Health changed from Good to Critical',
      created_at: minutesAgo(0),
    });
    act(() => {
      streams[0]!.send('retry: 5000\n\nevent: unread\ndata: {"unread":1}\n\n');
      streams[0]!.send(`id: n3\nevent: notification\ndata: ${JSON.stringify(fresh)}\n\n`);
      streams[0]!.send('event: unread\ndata: {"unread":2}\n\n');
    });
    await screen.findByRole('button', { name: 'Notifications (2 unread)' });
    await waitFor(() => expect(setAppBadge).toHaveBeenLastCalledWith(2));
    fireEvent.click(bell());
    const panel = await openPanel();
    expect(within(panel).getAllByRole('link', { hidden: true })[0]!.textContent).toContain(
      'Health changed from Good to Critical',
    );

    // Read elsewhere (another device): the count drops and the list is read again.
    server.items = [fresh, notification('n1')].map((item) => ({ ...item, read: true }));
    server.unread = 0;
    act(() => streams[0]!.send('event: unread\ndata: {"unread":0}\n\n'));
    await screen.findByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(clearAppBadge).toHaveBeenCalled());
    delete (navigator as unknown as Record<string, unknown>).setAppBadge;
    delete (navigator as unknown as Record<string, unknown>).clearAppBadge;
  });

  it('closes the stream when the shell goes (sign-out)', async () => {
    const { streams } = notificationsApi([], 0);
    const { unmount } = renderShell();
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0]!.signal?.aborted).toBe(false);
    unmount();
    expect(streams[0]!.signal?.aborted).toBe(true);
  });

  it('polls the list every 5 minutes while the stream is down', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { calls } = notificationsApi([notification('n1')], 1, { streamStatus: 503 });
    renderShell();
    await screen.findByRole('button', { name: 'Notifications (1 unread)' });
    const reads = () => calls.filter((call) => call.path === '/api/users/mia/notifications').length;
    expect(reads()).toBe(1);
    expect(NOTIFICATIONS_POLL_MS).toBe(300_000);
    act(() => void vi.advanceTimersByTime(NOTIFICATIONS_POLL_MS));
    await waitFor(() => expect(reads()).toBe(2));
  });

  it('does not poll while the stream is up', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { calls, streams } = notificationsApi([notification('n1')], 1);
    renderShell();
    await screen.findByRole('button', { name: 'Notifications (1 unread)' });
    await waitFor(() => expect(streams).toHaveLength(1));
    act(() => streams[0]!.send('retry: 5000\n\nevent: unread\ndata: {"unread":1}\n\n'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    act(() => void vi.advanceTimersByTime(2 * NOTIFICATIONS_POLL_MS));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.filter((call) => call.path === '/api/users/mia/notifications')).toHaveLength(1);
  });
});
