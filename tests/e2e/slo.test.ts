import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  apiToken,
  horizontalOverflow,
  launchChromium,
  logIn as logInAs,
  screenshot,
  startBeacon,
  waitForServiceWorker,
  waitUntilKept,
  type Beacon,
} from './harness.js';

/** Issue 28, part 1: an editor sets a service's SLO in its settings and reads its error budget on the overview. */
const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };

let beacon: Beacon;
let browser: Browser;
let ownerToken: string;

beforeAll(async () => {
  beacon = await startBeacon();
  await beacon.cli(['demo']);
  browser = await launchChromium();
  ownerToken = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
});
afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
});

const url = (path: string) => `${beacon.origin('demo')}${path}`;
const card = (page: Page, name: string) =>
  page.locator('.p-card').filter({ has: page.getByRole('heading', { name, exact: true }) });

describe('SLOs in the browser', () => {
  it('sets an SLO in the settings, shows its budget on the overview at 390 px, and again offline', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);

    // No SLO yet: the overview points an editor to the settings.
    await page.goto(url('/services/ledger'));
    await card(page, 'SLO').getByRole('link', { name: 'Set an SLO' }).click();
    await page.waitForURL(url('/services/ledger/settings'));

    const form = page.getByRole('form', { name: 'SLO' });
    await form.getByLabel('Target (%)').fill('100');
    await form.getByRole('button', { name: 'Save SLO' }).click();
    await form.getByText('Enter a percentage above 0 and below 100, e.g. 99.9').waitFor();
    expect((await apiCall(beacon, 'demo', 'GET', '/services/ledger/slo', { token: ownerToken })).status).toBe(404);

    await form.getByLabel('Target (%)').fill('99.5');
    await form.locator('#slo-window').locator('xpath=ancestor::div[contains(@class,"p-dropdown")][1]').click();
    await page.getByRole('option', { name: '7 days' }).click();
    await form.getByRole('button', { name: 'Save SLO' }).click();
    await page.getByText('SLO Saved').waitFor();
    const saved = await apiCall(beacon, 'demo', 'GET', '/services/ledger/slo', { token: ownerToken });
    expect(saved.body).toMatchObject({ target: 99.5, window_days: 7 });

    await page.goto(url('/services/ledger'));
    const slo = card(page, 'SLO');
    await slo.getByText('99.5% over 7 days').waitFor();
    await slo.getByText('Error budget').waitFor();
    await slo.getByText(/left \(/).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'slo-overview-390');

    // What was last seen opens offline.
    await waitUntilKept(page, ['service', 'ledger', 'slo', 'status']);
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await page.reload();
    await card(page, 'SLO').getByText('99.5% over 7 days').waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /last synced/ })
      .first()
      .waitFor();
    await context.setOffline(false);

    // Removed in the settings, the overview says so again.
    await page.goto(url('/services/ledger/settings'));
    await page.getByRole('form', { name: 'SLO' }).getByRole('button', { name: 'Remove SLO' }).click();
    await page.getByText('SLO Removed').waitFor();
    expect((await apiCall(beacon, 'demo', 'GET', '/services/ledger/slo', { token: ownerToken })).status).toBe(404);
    await context.close();
  });

  it('shows a new, healthy service with its whole budget on a desktop, and on its team’s Health tab', async () => {
    await apiCall(beacon, 'demo', 'POST', '/teams/payments/services', {
      token: ownerToken,
      body: { name: 'Fresh Ledger', handle: 'fresh-ledger' },
    });
    await apiCall(beacon, 'demo', 'PUT', '/services/fresh-ledger/slo', {
      token: ownerToken,
      body: { target: 99.9, window_days: 30 },
    });
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);
    await page.goto(url('/services/fresh-ledger'));
    const slo = card(page, 'SLO');
    await slo.getByText('99.9% over 30 days').waitFor();
    // 0.1 % of 30 days is 43 minutes 12 seconds, none of it spent; nothing burns.
    await slo.getByText('43m 12s left (100%)').waitFor();
    await slo.getByText('100%', { exact: true }).waitFor();
    await slo.getByText('Not burning').waitFor();
    await slo.getByText('1 hour: 0×').waitFor();
    expect(await slo.getByText(/Fast burn|Slow burn/).count()).toBe(0);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'slo-overview-desktop');

    // The team's Health tab names it beside the service's bars.
    await page.goto(url('/teams/payments/health'));
    await page
      .getByRole('article', { name: 'Fresh Ledger' })
      .getByText('SLO 99.9% over 30 days · 43m 12s left (100%)')
      .waitFor();
    await screenshot(page, 'slo-team-health');
    await context.close();
  });
});
