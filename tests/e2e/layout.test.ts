import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Beacon,
  horizontalOverflow,
  launchChromium,
  logIn as logInAs,
  screenshot,
  startBeacon,
  waitForServiceWorker,
  waitUntilKept,
  settled,
} from './harness.js';

/** The demo workspace's owner and a few of its records (src/server/demo/seed.ts). */
const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };
const SCREENS = [
  '/',
  '/services',
  '/services/checkout',
  '/services/checkout/health-checks',
  '/services/checkout/notices',
  '/teams/payments/members',
  '/users',
];

let beacon: Beacon;
let browser: Browser;

beforeAll(async () => {
  beacon = await startBeacon();
  await beacon.cli(['demo']);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
});

const url = (path: string) => `${beacon.origin('demo')}${path}`;

async function openAt(width: number, height: number) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);
  return { context, page, errors };
}

describe('layout on a phone and on a desktop', () => {
  it.each([
    ['phone', 390, 844],
    ['desktop', 1366, 900],
  ])('fits the %s screen with no horizontal scroll, header controls usable, axe clean', async (name, width, height) => {
    const { context, page, errors } = await openAt(width, height);
    for (const path of SCREENS) {
      await page.goto(url(path));
      await settled(page);
      expect(await horizontalOverflow(page), `${path} at ${width} px`).toBeLessThanOrEqual(0);
      await screenshot(page, `layout-${name}${path.replace(/\//g, '-')}`);
    }

    // Every header control is on screen and works.
    for (const control of ['Create', 'User menu', /^Notifications/]) {
      const button = page.getByRole('button', { name: control });
      await expect.poll(() => button.isVisible()).toBe(true);
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
    if (width < 768) {
      // The main links fold into the menu button.
      await page.getByRole('button', { name: 'Main menu' }).click();
      await page.getByRole('menuitem', { name: 'Teams' }).click();
    } else {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Teams' }).click();
    }
    await page.waitForURL(url('/teams'));
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('menuitem', { name: 'Service', exact: true }).waitFor();
    await page.keyboard.press('Escape');

    // Resizing with any header menu open throws nothing (PrimeReact's overlays need their context).
    const menus: Array<string | RegExp> = ['Create', 'User menu', /^Notifications/];
    if (width < 768) menus.push('Main menu');
    for (const menu of menus) {
      await page.getByRole('button', { name: menu }).click();
      await page.setViewportSize({ width: width < 768 ? 1024 : 390, height });
      await page.setViewportSize({ width, height });
      await page.keyboard.press('Escape');
    }
    await page.getByRole('heading', { name: 'Teams' }).first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('reloading with the network cut', () => {
  it('shows the service, team and services list last seen with their last-synced note, and says what was never seen is not available offline', async () => {
    const { context, page } = await openAt(1280, 800);
    // Each path, what it shows, and the query kept for it (the next full navigation must not cut its write short).
    const seen = [
      ['/services/checkout', page.getByRole('heading', { name: 'Checkout' }), ['service', 'checkout']],
      ['/teams/payments', page.getByRole('heading', { name: 'Payments' }), ['team', 'payments']],
      ['/services', page.getByRole('article', { name: 'Checkout' }), ['services', 'search']],
    ] as const;
    for (const [path, content, kept] of seen) {
      await page.goto(url(path));
      await content.first().waitFor();
      await waitUntilKept(page, kept, { extended: path === '/services' });
    }
    // The app is installed for offline use once its service worker is active and controls the page (a page
    // opened before the worker activated is controlled from its next load).
    await waitForServiceWorker(page);

    await context.setOffline(true);
    for (const [path, content] of seen) {
      await page.goto(url(path));
      await page.reload();
      await content.first().waitFor();
      await page
        .getByRole('status')
        .filter({ hasText: /last synced/ })
        .waitFor();
      await screenshot(page, `offline-reload${path.replace(/\//g, '-')}`);
    }
    await page.goto(url('/services/ledger'));
    await page.getByRole('heading', { name: 'Not available offline' }).waitFor();
    expect(await page.getByText('The service was not found').count()).toBe(0);
    await screenshot(page, 'offline-never-seen');
    await context.close();
  });
});
