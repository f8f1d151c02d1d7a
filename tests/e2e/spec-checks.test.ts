import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthCheck } from '../../src/contract/health.js';
import { freePort } from '../support/processes.js';
import { until } from '../support/until.js';
import {
  apiCall,
  apiToken,
  horizontalOverflow,
  launchChromium,
  logIn,
  screenshot,
  startBeacon,
  waitForServiceWorker,
  waitUntilKept,
  type Beacon,
} from './harness.js';

/**
 * Issue 30 in the browser, as a newcomer meets it: `beacon demo` with its target served publishes the Orders API
 * spec on Checkout and makes a check from each operation it proposes; one operation answers off spec, so "API
 * drift" shows on the overview and the Open API Specs tab (at 390 px, and offline). An editor proposes checks from
 * the published spec and creates the one picked.
 */
const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };

let beacon: Beacon;
let browser: Browser;
let token: string;

beforeAll(async () => {
  beacon = await startBeacon({
    BEACON_ALLOW_PRIVATE_TARGETS: '1',
    BEACON_DEMO_TARGET_PORT: String(await freePort()),
  });
  await beacon.cli(['demo']);
  browser = await launchChromium();
  token = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
});
afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
});

const url = (path: string) => `${beacon.origin('demo')}${path}`;
const driftCard = (page: Page) =>
  page.locator('.p-card').filter({ has: page.getByRole('heading', { name: 'API drift', exact: true }) });

describe('specs that check themselves', () => {
  it('shows the drift the demo’s checks find, on the overview and the specs tab, at 390 px and offline', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await logIn(page, beacon, 'demo', OWNER.email, OWNER.password);
    // The runner probes the demo target as soon as it holds the checks, then every 15 s.
    await until(async () => {
      const drift = await apiCall(beacon, 'demo', 'GET', '/services/checkout/drift', { token });
      return (drift.body as unknown[]).length > 0;
    }, 45_000);
    await page.goto(url('/services/checkout'));
    const card = driftCard(page);
    await card.getByText('GET /orders/{orderId}').waitFor();
    await card.getByText(/Status 200 · at \/total · must be number \(type\): got "42.50"/).waitFor();
    await card.getByText(/spec 1\.4\.0/).waitFor();
    expect(await card.getByText('GET /orders', { exact: true }).count()).toBe(0);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'api-drift-overview-390');

    await page.goto(url('/services/checkout/open-api-specs'));
    await driftCard(page).getByText('GET /orders/{orderId}').waitFor();
    await page.getByRole('link', { name: '1.4.0' }).waitFor();

    // What was last seen opens offline.
    await page.goto(url('/services/checkout'));
    await driftCard(page).getByText('GET /orders/{orderId}').waitFor();
    await waitUntilKept(page, ['service', 'checkout', 'drift']);
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await page.reload();
    await driftCard(page).getByText('GET /orders/{orderId}').waitFor();
    await context.setOffline(false);
    await context.close();
  }, 120_000);

  it('proposes checks from the published spec and creates only the one picked', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await logIn(page, beacon, 'demo', OWNER.email, OWNER.password);
    const before = await apiCall(beacon, 'demo', 'GET', '/services/checkout/health-checks', { token });
    const specChecks = (checks: HealthCheck[]) => checks.filter((check) => check.spec !== null);
    expect(specChecks(before.body as HealthCheck[])).toHaveLength(3);

    await page.goto(url('/services/checkout/open-api-specs'));
    await page.getByRole('link', { name: '1.4.0' }).click();
    await page.getByRole('button', { name: 'Propose checks from 1.4.0' }).click();
    const dialog = page.getByRole('dialog', { name: 'Propose checks from 1.4.0' });
    const operations = dialog.getByRole('list', { name: 'Operations' });
    await operations.getByText('Only GET and HEAD operations are probed').waitFor();
    await operations.getByText(/checked by One order/).waitFor();
    // Nothing is picked at first: nothing to create.
    await expect(dialog.getByRole('button', { name: 'Create 0 checks' }).isDisabled()).resolves.toBe(true);
    await expect(dialog.getByRole('checkbox', { name: /POST \/orders/ }).isDisabled()).resolves.toBe(true);
    await dialog.getByRole('checkbox', { name: /GET \/status/ }).check();
    await screenshot(page, 'propose-checks-dialog');
    await dialog.getByRole('button', { name: 'Create 1 check' }).click();
    await page.getByText('1 check created').waitFor();

    const after = await apiCall(beacon, 'demo', 'GET', '/services/checkout/health-checks', { token });
    const created = specChecks(after.body as HealthCheck[]);
    expect(created).toHaveLength(4);
    expect(created.filter((check) => check.spec!.operation_id === 'getStatus')).toHaveLength(2);
    await page.goto(url('/services/checkout/health-checks'));
    await page.getByText('Spec 1.4.0').first().waitFor();
    await context.close();
  }, 120_000);
});
