import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  apiToken,
  type Beacon,
  choose,
  launchChromium,
  logIn,
  newPage,
  screenshot,
  startBeacon,
} from './harness.js';

const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };

let beacon: Beacon;
let browser: Browser;
let token: string;
let target: Server;
let targetPort: number;
/** What the local target answers: 200 while healthy, 500 while not. */
let healthy = true;

beforeAll(async () => {
  target = createServer((_request, response) => {
    response.statusCode = healthy ? 200 : 500;
    response.end(healthy ? 'ok' : 'down');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetPort = (target.address() as AddressInfo).port;
  // The local target is on loopback: the operator allows private targets (DESIGN.md 5).
  beacon = await startBeacon({ BEACON_ALLOW_PRIVATE_TARGETS: '1' });
  await beacon.cli(['demo']);
  browser = await launchChromium();
  token = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
  const created = await apiCall(beacon, 'demo', 'POST', '/teams/platform/services', {
    body: { name: 'Orders', handle: 'orders' },
    token,
  });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
  await new Promise((resolve) => target?.close(resolve));
});

const url = (path: string) => `${beacon.origin('demo')}${path}`;

async function serviceHealth(): Promise<string> {
  const answer = await apiCall(beacon, 'demo', 'GET', '/services/orders', { token });
  return (answer.body as { health: string }).health;
}

async function waitForHealth(health: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await serviceHealth()) !== health) {
    if (Date.now() > deadline) throw new Error(`the service did not turn ${health}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('service health in the browser', () => {
  it('adds a check that fails past its allowed failures, raises the health, then an incident is opened and resolved', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, beacon, 'demo', OWNER.email, OWNER.password);

    // An empty Health Checks screen, then a check through the add modal.
    await page.goto(url('/services/orders/health-checks'));
    await page.getByText('No HealthChecks').waitFor();
    await page.getByRole('button', { name: 'Add Healthcheck' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Orders up');
    await dialog.getByLabel('Endpoint').fill(`http://127.0.0.1:${targetPort}/health`);
    await dialog.getByLabel('Frequency').fill('1');
    await dialog.getByLabel('Allowed failures').fill('1');
    await choose(page, 'Importance', 'Error');
    await screenshot(page, 'health-check-dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Service Healhcheck Added').waitFor();
    const checks = await apiCall(beacon, 'demo', 'GET', '/services/orders/health-checks', { token });
    expect(checks.body).toMatchObject([
      { name: 'Orders up', frequency: 1, allowed_failures: 1, importance: 'error', timeout: 1, runner: null },
    ]);

    // The shared runner probes it (within the 5 s reload at most); the results chart fills.
    const summary = page.getByText(/Last 24 hours: [1-9]\d* results?/);
    await expect
      .poll(
        async () => {
          await page.reload();
          return summary.waitFor({ timeout: 3000 }).then(
            () => true,
            () => false,
          );
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true);
    await screenshot(page, 'health-checks');
    expect(await serviceHealth()).toBe('good');

    // The target fails: past one allowed failure the service takes the check's importance.
    healthy = false;
    await waitForHealth('error');

    // The card says why: down, with the error the runner stored, its uptime, and failures marked on the chart.
    const aggregatesLoaded = page.waitForResponse(
      (response) => response.url().includes('/reports/health-check-aggregates') && response.ok(),
    );
    await page.reload();
    const card = page.getByRole('article', { name: 'Orders up' });
    await card.getByText('Down', { exact: true }).waitFor();
    await card.getByText(/^\d+ failures in a row, 1 allowed$/).waitFor();
    await card.getByText('HTTP status 500', { exact: true }).waitFor();
    await aggregatesLoaded;
    for (const window of ['24 h', '7 d', '30 d']) {
      const figure = card.getByText(`Uptime ${window}`).locator('xpath=following-sibling::dd');
      // Failures in every window: under 100 %, two decimals.
      await expect.poll(() => figure.textContent()).toMatch(/^\d{1,2}\.\d\d %$/);
    }
    await card.getByText(/Last 24 hours: \d+ results?, [1-9]\d* failed/).waitFor();

    // The range control reads the hourly aggregates for 7 days.
    await card.getByRole('button', { name: '7 d', exact: true }).click();
    await card.getByText(/^Last 7 days: [1-9]\d* probes?, [1-9]\d* failed in \d+ hours?/).waitFor();
    await card.getByRole('img', { name: 'Response times of Orders up, last 7 days' }).waitFor();
    expect(await card.getByRole('button', { name: '7 d', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await card.locator('.apexcharts-svg').waitFor();
    await screenshot(page, 'health-check-down');
    await page.setViewportSize({ width: 390, height: 844 });
    await card.getByRole('button', { name: '1 h', exact: true }).click();
    await card.getByText(/^Last hour: \d+ results?/).waitFor();
    await card.locator('.apexcharts-svg').waitFor();
    // The card fits its column at 390 px: nothing in it (range control, error text, chart) overflows.
    expect(await card.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await screenshot(page, 'health-check-down-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(url('/services/orders'));
    await page.getByText('Error', { exact: true }).first().waitFor();

    // An incident, opened with health critical.
    await page.goto(url('/services/orders/notices'));
    await page.getByText('No notices').waitFor();
    await page.getByRole('button', { name: 'Add Notice' }).click();
    await choose(page, 'Type', 'Incident');
    await page.getByRole('dialog').getByLabel('Title').fill('Orders failing');
    await choose(page, 'Service Health', 'Critical');
    await page.getByRole('dialog').getByLabel('Message').fill('Orders answer 500, looking into it');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByText('Service Notice Created').waitFor();
    await page.getByRole('article', { name: 'Orders failing' }).waitFor();
    await screenshot(page, 'notices');
    expect(await serviceHealth()).toBe('critical');

    // The overview shows it as the latest open incident.
    await page.goto(url('/services/orders'));
    const incident = page.getByRole('article', { name: 'Latest incident' });
    await incident.getByText('Orders failing').waitFor();
    await incident.getByText('Orders answer 500, looking into it').waitFor();

    // The target recovers; the incident is resolved with health good (the spec's rule shown first).
    healthy = true;
    await page.goto(url('/services/orders/notices'));
    await page.getByRole('article', { name: 'Orders failing' }).getByRole('button', { name: 'Update' }).click();
    await choose(page, 'Status', 'Resolved');
    await page.getByText('Service health should be "Good" if notice is resolved.').waitFor();
    await choose(page, 'Service Health', 'Good');
    await page.getByRole('dialog').getByLabel('Message').fill('Fixed by a rollback');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByText('Service Notice Updated').waitFor();
    await waitForHealth('good');
    await page.getByText('No notices').waitFor();

    // Today's bar on the overview tells the time spent in error and critical.
    await page.goto(url('/services/orders'));
    await page.getByText('Overall Health').waitFor();
    const today = page.getByRole('img', { name: /of critical/ });
    await today.waitFor();
    expect(await today.getAttribute('aria-label')).toMatch(/of error/);
    await expect(page.getByRole('article', { name: 'Latest incident' }).count()).resolves.toBe(0);
    await screenshot(page, 'service-overview-health');

    // The team's Health tab shows the service with its uptime and bars.
    await page.goto(url('/teams/platform/health'));
    await page
      .getByRole('img', { name: /of critical/ })
      .first()
      .waitFor();
    await screenshot(page, 'team-health');
    await context.close();
  });
});
