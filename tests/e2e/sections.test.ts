import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Beacon,
  horizontalOverflow,
  launchChromium,
  logIn as logInAs,
  screenshot,
  SCREENSHOT_DIR,
  startBeacon,
} from './harness.js';

/**
 * The sections of the service, team and profile screens (issue 25): a side menu or a row of tabs on a desktop,
 * one compact control on a phone so that the screen's content starts in the first screenful.
 */
const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

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

async function openAt(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);
  return { context, page, errors };
}

/** Waits for `content` and checks that all of it is in the first screenful, as the page first shows. */
async function inFirstScreen(page: Page, content: Locator, what: string): Promise<void> {
  await content.waitFor();
  expect(await page.evaluate(() => window.scrollY), what).toBe(0);
  const box = (await content.boundingBox())!;
  const { height } = page.viewportSize()!;
  expect(box.y, `${what}: top`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${what}: bottom`).toBeLessThanOrEqual(height);
}

/** The screens with sections, what each starts with, and a section to switch to with what that shows. */
function screens(page: Page) {
  return [
    {
      name: 'service',
      path: '/services/checkout',
      nav: 'Service sections',
      first: 'Overview',
      content: page.getByRole('heading', { level: 1, name: 'Checkout' }),
      to: 'Health Checks',
      toPath: '/services/checkout/health-checks',
      shows: page.getByRole('button', { name: 'Add Healthcheck' }),
    },
    {
      name: 'team',
      path: '/teams/payments',
      nav: 'Team sections',
      first: 'Overview',
      content: page.getByRole('heading', { level: 2, name: 'Description' }),
      to: 'Members',
      toPath: '/teams/payments/members',
      shows: page.getByRole('table', { name: 'Members' }),
    },
    {
      name: 'profile',
      path: '/users/demo-owner',
      nav: 'Profile sections',
      first: 'Overview',
      content: page.getByRole('heading', { level: 2, name: 'Dana Demo' }),
      to: 'Teams',
      toPath: '/users/demo-owner/teams',
      shows: page.getByRole('table', { name: 'Teams' }),
    },
  ];
}

describe('sections on a phone (390 x 844)', () => {
  it('start the service, team and profile screens with their content; the compact control switches sections', async () => {
    const { context, page, errors } = await openAt(PHONE);
    for (const screen of screens(page)) {
      await page.goto(url(screen.path));
      const nav = page.getByRole('navigation', { name: screen.nav });
      const control = nav.getByRole('button', { name: `${screen.nav}: ${screen.first}` });
      await inFirstScreen(page, screen.content, `${screen.name} content`);
      await inFirstScreen(page, control, `${screen.name} sections control`);
      expect(await control.getAttribute('aria-expanded')).toBe('false');
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      // The first screenful as a phone shows it (the shots below are of the whole page).
      await page.screenshot({ path: join(SCREENSHOT_DIR, `sections-phone-${screen.name}-first-screen.png`) });
      await screenshot(page, `sections-phone-${screen.name}`);

      // Open, the list shows every section over the content, the current one marked.
      await control.click();
      expect(await control.getAttribute('aria-expanded')).toBe('true');
      const current = nav.getByRole('link', { name: screen.first, exact: true });
      await current.waitFor();
      expect(await current.getAttribute('aria-current')).toBe('page');
      await screenshot(page, `sections-phone-${screen.name}-open`);

      await nav.getByRole('link', { name: screen.to, exact: true }).click();
      await page.waitForURL(url(screen.toPath));
      const moved = nav.getByRole('button', { name: `${screen.nav}: ${screen.to}` });
      await moved.waitFor();
      expect(await moved.getAttribute('aria-expanded')).toBe('false');
      await inFirstScreen(page, screen.shows, `${screen.name} ${screen.to}`);
      await screenshot(page, `sections-phone-${screen.name}-${screen.to.toLowerCase().replace(/\s+/g, '-')}`);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a section deep in the list as the current one, and works from the keyboard', async () => {
    const { context, page, errors } = await openAt(PHONE);
    await page.goto(url('/services/checkout/settings'));
    const nav = page.getByRole('navigation', { name: 'Service sections' });
    const control = nav.getByRole('button', { name: 'Service sections: Settings' });
    await inFirstScreen(page, control, 'the Settings section named in the control');
    await inFirstScreen(page, page.getByRole('heading', { level: 1, name: 'Settings' }), 'the settings');

    // Arrow down opens the list on the current section; arrows move, Enter follows, the focus is back on the control.
    await control.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Settings');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Health Checks');
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/services/checkout/health-checks'));
    const moved = nav.getByRole('button', { name: 'Service sections: Health Checks' });
    await expect.poll(() => moved.evaluate((element) => element === document.activeElement)).toBe(true);

    // Escape closes the list without moving.
    await page.keyboard.press('ArrowDown');
    await nav.getByRole('link', { name: 'Notices' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => moved.getAttribute('aria-expanded')).toBe('false');
    expect(page.url()).toBe(url('/services/checkout/health-checks'));

    // A team admin's Settings, the last team section.
    await page.goto(url('/teams/payments/settings'));
    await inFirstScreen(
      page,
      page.getByRole('button', { name: 'Team sections: Settings' }),
      'the team Settings section named',
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('sections on a desktop (1366 x 900)', () => {
  it('keep the service side menu and the team and profile tabs', async () => {
    const { context, page, errors } = await openAt(DESKTOP);
    const [service, team, profile] = screens(page);

    await page.goto(url(service!.path));
    const side = page.getByRole('navigation', { name: 'Service sections' });
    await service!.content.waitFor();
    expect(await side.getByRole('link').count()).toBe(14);
    expect(await side.getByRole('button').count()).toBe(0);
    expect(await side.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe('page');
    // Beside the content, not above it.
    const menuBox = (await side.boundingBox())!;
    const contentBox = (await service!.content.boundingBox())!;
    expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(contentBox.x);
    await screenshot(page, 'sections-desktop-service');
    await side.getByRole('link', { name: service!.to }).click();
    await page.waitForURL(url(service!.toPath));
    await service!.shows.waitFor();
    expect(await side.getByRole('link', { name: service!.to }).getAttribute('aria-current')).toBe('page');

    for (const screen of [team!, profile!]) {
      await page.goto(url(screen.path));
      await screen.content.waitFor();
      const tabs = page.getByRole('menubar', { name: screen.nav });
      await tabs.waitFor();
      expect(await page.getByRole('button', { name: new RegExp(`^${screen.nav}`) }).count()).toBe(0);
      await screenshot(page, `sections-desktop-${screen.name}`);
      await tabs.getByRole('menuitem', { name: screen.to }).click();
      await page.waitForURL(url(screen.toPath));
      await screen.shows.waitFor();
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('moves between the side menu and the compact control when the window is resized', async () => {
    const { context, page, errors } = await openAt(DESKTOP);
    await page.goto(url('/services/checkout/notices'));
    const nav = page.getByRole('navigation', { name: 'Service sections' });
    await nav.getByRole('link', { name: 'Notices' }).waitFor();
    await page.setViewportSize(PHONE);
    await nav.getByRole('button', { name: 'Service sections: Notices' }).waitFor();
    await page.setViewportSize(DESKTOP);
    await nav.getByRole('link', { name: 'Notices' }).waitFor();
    expect(await nav.getByRole('button').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
