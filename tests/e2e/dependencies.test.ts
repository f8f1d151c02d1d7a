import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  apiToken,
  launchChromium,
  logIn as logInAs,
  newPage,
  screenshot,
  startBeacon,
  waitForServiceWorker,
  type Beacon,
} from './harness.js';

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
const logIn = (page: Page) => logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);
/** The overview card under a heading. */
const card = (page: Page, name: string) =>
  page.locator('.p-card').filter({ has: page.getByRole('heading', { name, exact: true }) });

describe('dependencies in the browser', () => {
  it('adds a dependency from the overview, sees it among the dependents of its target, then removes it', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page);
    await page.goto(url('/services/search'));
    const dependencies = card(page, 'Dependencies');
    await dependencies.getByRole('link', { name: 'Message Bus' }).waitFor();

    await dependencies.getByRole('button', { name: 'Add Dependency' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Dependency' });
    await dialog.getByLabel('Service').pressSequentially('iden');
    await page.getByRole('option', { name: /Identity/ }).click();
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Service dependency added').waitFor();
    await dependencies.getByRole('link', { name: 'Identity' }).waitFor();
    await screenshot(page, 'dependencies-added');
    const listed = await apiCall(beacon, 'demo', 'GET', '/services/search/dependencies', { token: ownerToken });
    expect((listed.body as Array<{ handle: string }>).map((d) => d.handle).sort()).toEqual(['identity', 'message-bus']);

    await dependencies.getByRole('link', { name: 'Identity' }).click();
    await page.waitForURL(url('/services/identity'));
    await card(page, 'Dependents').getByRole('link', { name: 'Search' }).waitFor();

    await page.goto(url('/services/search'));
    await dependencies.getByRole('button', { name: 'Remove Identity' }).click();
    await page.getByText('Service dependency Removed').waitFor();
    await dependencies.getByRole('link', { name: 'Identity' }).waitFor({ state: 'detached' });
    await context.close();
  });

  it('leaves the service itself out of the dependency search', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page);
    await page.goto(url('/services/ledger'));
    await card(page, 'Dependencies').getByRole('button', { name: 'Add Dependency' }).click();
    await page.getByRole('dialog', { name: 'Add Dependency' }).getByLabel('Service').pressSequentially('le');
    await page.getByRole('option', { name: /Legacy Billing/ }).waitFor();
    expect(await page.getByRole('option', { name: /Ledger/ }).count()).toBe(0);
    await context.close();
  });

  it('shows the dependencies and dependents last seen when reloaded with the network cut', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page);
    await page.goto(url('/services/checkout'));
    await card(page, 'Dependencies').getByRole('link', { name: 'Ledger' }).waitFor();
    await card(page, 'Dependents').getByRole('link', { name: 'API Gateway' }).waitFor();
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await page.reload();
    await page.getByText('Offline').first().waitFor();
    await card(page, 'Dependencies').getByRole('link', { name: 'Ledger' }).waitFor();
    await card(page, 'Dependents').getByRole('link', { name: 'API Gateway' }).waitFor();
    await screenshot(page, 'dependencies-offline');
    await context.close();
  });
});
