import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  apiCall,
  apiInviteAndJoin,
  apiToken,
  axeViolations,
  describeViolation,
  launchChromium,
  logIn,
  screenshot,
  startBeacon,
  waitForServiceWorker,
  type Beacon,
} from './harness.js';

/** A is the demo owner, who changes health; B (Bea) is a member of the team owning the services. */
const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };
const BEA = { email: 'bea@demo.test', password: 'Str0ng-pass', handle: 'bea' };
const TEAM = 'alerts-team';

let beacon: Beacon;
let browser: Browser;
let ownerToken: string;
let beaToken: string;
const serviceIds: Record<string, string> = {};

beforeAll(async () => {
  beacon = await startBeacon();
  await beacon.cli(['demo']);
  browser = await launchChromium();
  ownerToken = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
  beaToken = await apiInviteAndJoin(beacon, 'demo', ownerToken, 'Bea Watcher', BEA.handle);
  const team = await apiCall(beacon, 'demo', 'POST', '/teams', {
    body: { name: 'Alerts Team', handle: TEAM },
    token: ownerToken,
  });
  expect(team.status).toBe(201);
  for (const [name, handle] of [
    ['Tallybook', 'tallybook'],
    ['Feebox', 'feebox'],
    ['Vaultline', 'vaultline'],
  ]) {
    const service = await apiCall(beacon, 'demo', 'POST', `/teams/${TEAM}/services`, {
      body: { name, handle },
      token: ownerToken,
    });
    expect(service.status).toBe(201);
    serviceIds[handle!] = (service.body as { id: string }).id;
  }
  const member = await apiCall(beacon, 'demo', 'POST', `/teams/${TEAM}/members`, {
    body: { user: { id: BEA.handle } },
    token: ownerToken,
  });
  expect(member.status).toBeLessThan(300);
  // Bea starts with nothing unread (joining the team told her so).
  await markAllRead();
});
afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
});

const url = (path: string) => `${beacon.origin('demo')}${path}`;

async function markAllRead(): Promise<void> {
  const read = await apiCall(beacon, 'demo', 'POST', `/users/${BEA.handle}/notifications/actions/mark-read`, {
    body: {},
    token: beaToken,
  });
  expect(read.status).toBe(204);
}

/** A (the owner) sets a service's health. */
async function changeHealth(service: string, health: string): Promise<void> {
  const changed = await apiCall(beacon, 'demo', 'POST', `/services/${service}/actions/change-health`, {
    body: { health },
    token: ownerToken,
  });
  expect(changed.status).toBe(200);
}

interface Notification {
  id: string;
  message: string;
  read: boolean;
}

async function beasNotifications(): Promise<Notification[]> {
  const list = await apiCall(beacon, 'demo', 'GET', `/users/${BEA.handle}/notifications?limit=100`, {
    token: beaToken,
  });
  return list.body as Notification[];
}

async function beasMutes(): Promise<Array<{ profile: { handle: string }; notifications: boolean }>> {
  return (await apiCall(beacon, 'demo', 'GET', `/users/${BEA.handle}/muted`, { token: beaToken })).body as Array<{
    profile: { handle: string };
    notifications: boolean;
  }>;
}

/**
 * Opens the app as Bea at `width`, spying on the Badging API, and resolves once the event stream answered (the
 * app is live). `streams` collects every answer of the stream.
 */
async function openAsBea(width = 1280): Promise<{ context: BrowserContext; page: Page; streams: Response[] }> {
  const context = await browser.newContext({ viewport: { width, height: width < 768 ? 844 : 800 } });
  await context.addInitScript(() => {
    const calls: Array<number | null> = [];
    Object.assign(window, { __badges: calls });
    Object.assign(navigator, {
      setAppBadge: async (count?: number) => void calls.push(count ?? 0),
      clearAppBadge: async () => void calls.push(null),
    });
  });
  const page = await context.newPage();
  const streams: Response[] = [];
  context.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/events/stream') streams.push(response);
  });
  await logIn(page, beacon, 'demo', BEA.email, BEA.password);
  await expect.poll(() => streams.length, { timeout: 15_000 }).toBeGreaterThan(0);
  return { context, page, streams };
}

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const badges = (page: Page) => page.evaluate(() => (window as unknown as { __badges: Array<number | null> }).__badges);

describe('notifications in the browser', () => {
  beforeEach(markAllRead);

  it("A's health change raises B's badge live; B opens it, lands on the service, and it is read", async () => {
    const { context, page } = await openAsBea();
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();

    const activity = page.getByRole('list', { name: 'Activity feed' });
    await activity.getByText('Team created').waitFor();

    const started = Date.now();
    await changeHealth('tallybook', 'critical');
    await page.getByRole('button', { name: 'Notifications (1 unread)' }).waitFor({ timeout: 10_000 });
    const latency = Date.now() - started;
    // Issue 14: a new notification reaches an open app within 2 s.
    expect(latency).toBeLessThan(2000);
    expect(await page.getByTestId('notifications-badge').textContent()).toBe('1');
    await expect.poll(() => badges(page)).toContain(1);
    // The home Activity feed takes the news too, without a reload.
    await activity.getByText('Health changed from Good to Critical').waitFor();

    await bell(page).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const item = panel.getByRole('link', { name: /Tallybook: Health changed from Good to Critical/ });
    await item.waitFor();
    await expect.poll(() => item.textContent()).toMatch(/\(unread\).*(seconds|minute) ago/);
    expect((await axeViolations(page, '#notifications-panel')).map(describeViolation)).toEqual([]);
    await screenshot(page, 'notifications-bell-desktop');

    await item.click();
    await page.waitForURL(url('/services/tallybook'));
    await page.getByRole('heading', { name: 'Tallybook' }).first().waitFor();
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    await expect.poll(async () => (await beasNotifications()).filter((n) => !n.read).length).toBe(0);
    await expect.poll(() => badges(page).then((calls) => calls.at(-1))).toBeNull();
    await context.close();
  });

  it('two tabs share one stream (the leader relays), and both badges rise', async () => {
    const { context, page, streams } = await openAsBea();
    const second = await context.newPage();
    await second.goto(url('/services'));
    await second.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    await changeHealth('vaultline', 'warning');
    for (const tab of [page, second]) {
      await tab.getByRole('button', { name: 'Notifications (1 unread)' }).waitFor({ timeout: 10_000 });
    }
    // The second tab heard it over BroadcastChannel: one stream for the two tabs.
    expect(streams).toHaveLength(1);

    // The leader goes: the other tab takes the stream over, resuming after the last notification it heard.
    const [heard] = await beasNotifications();
    await page.close();
    await expect.poll(() => streams.length, { timeout: 15_000 }).toBe(2);
    expect(await streams[1]!.request().headerValue('last-event-id')).toBe(heard!.id);
    await changeHealth('vaultline', 'good');
    await second.getByRole('button', { name: 'Notifications (2 unread)' }).waitFor({ timeout: 10_000 });
    await context.close();
  });

  it("muted for notifications ('Mute Service'), A's next change of that service raises no badge", async () => {
    const { context, page } = await openAsBea();
    await page.goto(url(`/users/${BEA.handle}/settings`));
    const tallybook = page.getByRole('switch', { name: 'Mute Service Tallybook' });
    await tallybook.click();
    await expect.poll(() => tallybook.isChecked()).toBe(true);
    await expect
      .poll(async () => (await beasMutes()).find((mute) => mute.profile.handle === 'tallybook')?.notifications)
      .toBe(true);

    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    await changeHealth('tallybook', 'good');
    // A change Bea still hears, made after: once it arrives, the muted one would have arrived before it.
    await changeHealth('feebox', 'warning');
    await page.getByRole('button', { name: 'Notifications (1 unread)' }).waitFor({ timeout: 10_000 });
    await bell(page).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await panel.getByRole('link', { name: /Feebox: Health changed/ }).waitFor();
    expect(await panel.getByRole('link', { name: /Tallybook: Health changed from Critical to Good/ }).count()).toBe(0);
    expect((await beasNotifications()).filter((n) => n.message.startsWith('Tallybook') && !n.read)).toEqual([]);
    await context.close();
  });

  it('a mute made offline is sent once back online, and what changed meanwhile shows', async () => {
    const { context, page, streams } = await openAsBea();
    const puts: string[] = [];
    context.on('requestfinished', (request) => {
      if (request.method() === 'PUT' && request.url().includes(`/api/users/${BEA.handle}/muted/`))
        puts.push(request.url());
    });
    await page.goto(url(`/users/${BEA.handle}/settings`));
    const feebox = page.getByRole('switch', { name: 'Mute Service Feebox' });
    await feebox.waitFor();
    await waitForServiceWorker(page);
    // The stream is never served by the service worker, and nothing of /api is in Cache Storage.
    const live = streams.at(-1)!;
    expect(live.fromServiceWorker()).toBe(false);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys())
        for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      return urls;
    });
    expect(cached.filter((cachedUrl) => cachedUrl.includes('/api/'))).toEqual([]);

    await context.setOffline(true);
    await feebox.click();
    await page.getByText('1 pending').waitFor();
    await expect.poll(() => feebox.isChecked()).toBe(true);
    // Meanwhile A changes a service Bea hears about.
    await changeHealth('vaultline', 'error');
    expect((await beasMutes()).some((mute) => mute.profile.handle === 'feebox')).toBe(false);
    await screenshot(page, 'notifications-offline-mute');
    await context.setOffline(false);
    await page.getByText('1 pending').waitFor({ state: 'detached', timeout: 20_000 });
    await expect
      .poll(async () => (await beasMutes()).filter((mute) => mute.profile.handle === 'feebox'))
      .toHaveLength(1);
    expect(puts).toEqual([expect.stringContaining(`/muted/${serviceIds.feebox}`)]);
    // The change made meanwhile shows. (Chromium's offline emulation fails new requests but leaves an open
    // stream be; the reconnection itself is the unit tests' and the hand-over test's.)
    await page.getByRole('button', { name: 'Notifications (1 unread)' }).waitFor({ timeout: 20_000 });
    await context.close();
  });

  it('the open panel fits a 390 px phone', async () => {
    await changeHealth('vaultline', 'critical');
    const { context, page } = await openAsBea(390);
    await page.getByRole('button', { name: 'Notifications (1 unread)' }).waitFor();
    await bell(page).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await panel.getByRole('link', { name: /Vaultline: Health changed from Error to Critical/ }).waitFor();
    const box = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'notifications-bell-390');
    await panel.getByRole('button', { name: 'Mark all as read' }).click();
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    await expect.poll(async () => (await beasNotifications()).filter((n) => !n.read).length).toBe(0);
    await context.close();
  });

  it('the team and profile Overview feeds show the real events', async () => {
    const { context, page } = await openAsBea();
    await page.goto(url(`/teams/${TEAM}`));
    const teamFeed = page.getByRole('list', { name: 'Public feed' });
    await teamFeed.getByText('Team created').waitFor();
    await teamFeed.getByText('Health changed from Good to Critical').first().waitFor();
    expect(await teamFeed.getByRole('link', { name: 'View Service' }).first().getAttribute('href')).toMatch(
      /^\/services\//,
    );
    await page.goto(url('/users/demo-owner'));
    const profileFeed = page.getByRole('list', { name: 'Public feed' });
    await profileFeed.getByText('Service created').first().waitFor();
    await context.close();
  });

  it("Mute in an Activity item's menu hides the profile's events at once and mutes it on the server", async () => {
    const { context, page } = await openAsBea();
    const activity = page.getByRole('list', { name: 'Activity feed' });
    await activity.getByText('Team created').waitFor();
    await page.getByRole('button', { name: 'Actions for Alerts Team: Team created' }).click();
    await page.getByRole('menuitem', { name: 'Mute' }).click();
    await activity.getByText('Team created').waitFor({ state: 'detached' });
    expect(await activity.getByRole('link', { name: 'View Team' }).count()).toBe(0);
    await expect
      .poll(async () => (await beasMutes()).find((mute) => mute.profile.handle === TEAM))
      .toMatchObject({ notifications: true });
    // Read again from the server: still left out.
    await page.reload();
    await activity.getByRole('link', { name: 'View Service' }).first().waitFor();
    expect(await activity.getByText('Team created').count()).toBe(0);
    await context.close();
  });
});
