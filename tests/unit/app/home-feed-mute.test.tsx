// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FeedEvent } from '../../../src/contract/feeds.js';
import { localDb, makeUser, renderApp, resetLocalDb, setOnline, stubApi } from './services-kit.js';

const me = makeUser('mia', { name: 'Mia' });

function event(id: string, profile: 'payments' | 'core', title: string): FeedEvent {
  return {
    id,
    title,
    created_at: new Date(Date.now() - 60_000).toISOString(),
    agent_name: 'User max',
    profile:
      profile === 'payments'
        ? { id: 'svc-payments', type: 'service', handle: 'payments', name: 'Payments', thumbnail_url: null }
        : { id: 'team-core', type: 'team', handle: 'core', name: 'Core', thumbnail_url: null },
  };
}

const EVENTS = [
  event('e3', 'payments', 'Health changed from Good to Critical'),
  event('e2', 'core', 'Member added'),
  event('e1', 'payments', 'Service created'),
];

/** The server: the feed leaves out muted profiles; PUT mutes. */
function feedApi() {
  const muted = new Set<string>();
  const calls = stubApi(me, {
    handler: (call) => {
      if (call.method === 'GET' && call.path === '/api/users/mia/feed')
        return { status: 200, body: EVENTS.filter((e) => !muted.has(e.profile.id)) };
      if (call.method === 'GET' && (call.path === '/api/users/mia/teams' || call.path === '/api/users/mia/starred'))
        return { status: 200, body: [] };
      const mute = /^\/api\/users\/mia\/muted\/(.+)$/.exec(call.path);
      if (call.method === 'PUT' && mute) {
        muted.add(mute[1]!);
        const profile = { id: mute[1], type: 'service', handle: 'payments', name: 'Payments', description: null };
        return { status: 200, body: { profile, activity: true, notifications: true } };
      }
      return undefined;
    },
  });
  return { calls, puts: () => calls.filter((call) => call.method === 'PUT') };
}

const activity = () => within(screen.getByRole('region', { name: 'Activity' }));
const titles = () =>
  within(activity().getByRole('list', { name: 'Activity feed' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

async function muteFrom(title: string) {
  fireEvent.click(await activity().findByRole('button', { name: `Actions for Payments: ${title}` }));
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Mute', hidden: true }));
}

beforeEach(() => setOnline(true));

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  setOnline(true);
  await resetLocalDb();
});

describe("home's Activity feed", () => {
  it("shows each event with its profile, agent, time, title and 'View {type}' link", async () => {
    feedApi();
    renderApp('/');
    await screen.findByRole('region', { name: 'Activity' });
    await activity().findByText('Health changed from Good to Critical');
    const [first] = activity().getAllByRole('listitem');
    expect(first!.textContent).toContain('Payments');
    expect(first!.textContent).toContain('User max');
    expect(first!.textContent).toContain('a minute ago');
    expect(within(first!).getByRole('link', { name: 'View Service' }).getAttribute('href')).toBe('/services/payments');
    expect(activity().getByRole('link', { name: 'View Team' }).getAttribute('href')).toBe('/teams/core');
  });

  it("'Mute' in an event's menu hides the profile's events at once and mutes it through the outbox", async () => {
    const { puts } = feedApi();
    renderApp('/');
    await screen.findByRole('region', { name: 'Activity' });
    await activity().findByText('Service created');
    await muteFrom('Service created');
    await waitFor(() => expect(titles()).toEqual([expect.stringContaining('Member added')]));
    await waitFor(() =>
      expect(puts()).toEqual([
        expect.objectContaining({
          path: '/api/users/mia/muted/svc-payments',
          body: { activity: true, notifications: true },
        }),
      ]),
    );
    await waitFor(async () => expect(await localDb().outbox.count()).toBe(0));
    // Read again once sent: the server leaves it out too.
    expect(titles()).toEqual([expect.stringContaining('Member added')]);
  });

  it('offline, the mute waits in the outbox with the events hidden, and is sent once back online', async () => {
    setOnline(false);
    const { puts } = feedApi();
    renderApp('/');
    await screen.findByRole('region', { name: 'Activity' });
    await activity().findByText('Health changed from Good to Critical');
    await muteFrom('Health changed from Good to Critical');
    await waitFor(() => expect(titles()).toEqual([expect.stringContaining('Member added')]));
    const db = localDb();
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    expect(await db.outbox.toArray()).toEqual([
      expect.objectContaining({
        kind: 'mute',
        input: { params: { username: 'mia', profile: 'svc-payments' }, body: { activity: true, notifications: true } },
        status: 'pending',
        label: 'Mute Payments',
      }),
    ]);
    expect(puts()).toHaveLength(0);

    setOnline(true);
    window.dispatchEvent(new Event('online'));
    await waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(puts()).toHaveLength(1);
    expect(titles()).toEqual([expect.stringContaining('Member added')]);
  });
});
