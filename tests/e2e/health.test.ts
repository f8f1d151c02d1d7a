import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  apiToken,
  type Beacon,
  choose,
  horizontalOverflow,
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
  target = createServer((request, response) => {
    if (request.url === '/api') {
      // A JSON health answer for the assertions: always 200, so `status == 201` fails with its actual value.
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ status: 'UP', version: '1.4.2' }));
      return;
    }
    response.statusCode = healthy ? 200 : 500;
    response.end(healthy ? 'ok' : 'down');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetPort = (target.address() as AddressInfo).port;
  // The local target is on loopback: the operator allows private targets (docs/decisions.md#address-guard).
  beacon = await startBeacon({ BEACON_ALLOW_PRIVATE_TARGETS: '1' });
  await beacon.cli(['demo']);
  browser = await launchChromium();
  token = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
  for (const [name, handle] of [
    ['Orders', 'orders'],
    ['Shop', 'shop'],
  ]) {
    const created = await apiCall(beacon, 'demo', 'POST', '/teams/platform/services', {
      body: { name, handle },
      token,
    });
    expect(created.status).toBe(201);
  }
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
    // The runner's word on the failure: the default assertion with the status it got.
    await card.getByText(/^Assertion: status in .*: got 500$/).waitFor();
    await card.getByText('HTTP', { exact: true }).waitFor();
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
    // No open incident: what was kept from before the resolve may show for a moment, until the notices are re-read.
    await page.getByRole('article', { name: 'Latest incident' }).waitFor({ state: 'detached' });
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

  it('tests a check with typed assertions before saving, adds tcp and heartbeat checks, and the card shows the actual value', async () => {
    const { context, page } = await newPage(browser);
    await page.setViewportSize({ width: 1366, height: 900 });
    await logIn(page, beacon, 'demo', OWNER.email, OWNER.password);
    await page.goto(url('/services/shop/health-checks'));
    await page.getByText('No HealthChecks').waitFor();

    // An http check whose assertions are typed: one of them fails against the target (it answers 200).
    await page.getByRole('button', { name: 'Add Healthcheck' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Healthcheck' });
    expect(await dialog.getByLabel('Assertions', { exact: true }).inputValue()).toMatch(/^status in 200\.\.299/);
    await dialog.getByLabel('Name', { exact: true }).fill('Shop API');
    await dialog.getByLabel('Endpoint', { exact: true }).fill(`http://127.0.0.1:${targetPort}/api`);
    await dialog.getByLabel('Frequency', { exact: true }).fill('1');
    await dialog
      .getByLabel('Assertions', { exact: true })
      .fill('status == 201\njson:$.status == "UP"\nlatency_ms < 5000 warning');
    // A line that does not parse is named under the field, and Save waits for it.
    await dialog.getByLabel('Assertions', { exact: true }).press('End');
    await dialog.getByLabel('Assertions', { exact: true }).pressSequentially('\nlatency_ms <');
    await dialog.getByText(/^Line 4: /).waitFor();
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await dialog
      .getByLabel('Assertions', { exact: true })
      .fill('status == 201\njson:$.status == "UP"\nlatency_ms < 5000 warning');
    const toTop = () => dialog.locator('.p-dialog-content').evaluate((content) => content.scrollTo(0, 0));
    await toTop();
    await screenshot(page, 'health-check-dialog-1366');
    await dialog.getByRole('button', { name: 'Test' }).click();
    const table = dialog.getByRole('region', { name: 'Assertions of the test' });
    const statusRow = table.getByRole('row').filter({ has: page.getByRole('cell', { name: 'status', exact: true }) });
    await statusRow.waitFor();
    expect(await statusRow.getByRole('cell').allTextContents()).toEqual([
      'status',
      '==',
      '201',
      '200',
      'Fail (Warning)',
    ]);
    const jsonRow = table.getByRole('row').filter({ hasText: 'json:$.status' });
    expect(await jsonRow.getByRole('cell').last().textContent()).toBe('Pass');
    await dialog.getByText(/^Latency \d+ ms$/).waitFor();
    await dialog.getByText('Assertion: status == 201: got 200').waitFor();
    // Nothing was saved by the test.
    const listed = await apiCall(beacon, 'demo', 'GET', '/services/shop/health-checks', { token });
    expect(listed.body).toEqual([]);
    await table.scrollIntoViewIfNeeded();
    await screenshot(page, 'health-check-dialog-test-1366');

    // At 390 px the dialog is a full-width sheet; nothing in it widens the page, the table scrolls inside it.
    await page.setViewportSize({ width: 390, height: 844 });
    const box = await dialog.boundingBox();
    expect(box && Math.round(box.width)).toBe(390);
    expect(await horizontalOverflow(page)).toBe(0);
    expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await toTop();
    await screenshot(page, 'health-check-dialog-390');
    await table.scrollIntoViewIfNeeded();
    await screenshot(page, 'health-check-dialog-test-390');
    await page.setViewportSize({ width: 1366, height: 900 });

    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Service Healhcheck Added').first().waitFor();
    await page.getByRole('article', { name: 'Shop API' }).waitFor();

    // A TCP check: host:port, tested (connected), saved.
    await page.getByRole('button', { name: 'Add Healthcheck' }).click();
    await choose(page, 'Kind', 'TCP');
    const tcpDialog = page.getByRole('dialog', { name: 'Add Healthcheck' });
    await tcpDialog.getByLabel('Name', { exact: true }).fill('Shop port');
    await tcpDialog.getByLabel('Host and port', { exact: true }).fill(`127.0.0.1:${targetPort}`);
    expect(await tcpDialog.getByLabel('Assertions', { exact: true }).inputValue()).toContain('connected');
    await tcpDialog.getByRole('button', { name: 'Test' }).click();
    await tcpDialog.getByText('Passed', { exact: true }).waitFor();
    const connected = tcpDialog
      .getByRole('region', { name: 'Assertions of the test' })
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'connected', exact: true }) });
    expect(await connected.getByRole('cell').allTextContents()).toEqual(['connected', '==', 'true', 'true', 'Pass']);
    await tcpDialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('article', { name: 'Shop port' }).waitFor();

    // A heartbeat: no target; once saved the dialog shows the ping URL the job needs.
    await page.getByRole('button', { name: 'Add Healthcheck' }).click();
    await choose(page, 'Kind', 'Heartbeat');
    const heartbeatDialog = page.getByRole('dialog', { name: 'Add Healthcheck' });
    expect(await heartbeatDialog.getByLabel('Endpoint', { exact: true }).count()).toBe(0);
    await heartbeatDialog.getByLabel('Name', { exact: true }).fill('Shop nightly');
    await heartbeatDialog.getByLabel('Period', { exact: true }).fill('3600');
    await heartbeatDialog.getByLabel('Grace', { exact: true }).fill('300');
    await heartbeatDialog.getByRole('button', { name: 'Save' }).click();
    const saved = page.getByRole('dialog', { name: 'Edit Healthcheck' });
    await saved.getByText('Heartbeat added: point your job at its ping URL.').waitFor();
    const pingUrl = await saved.getByLabel('Ping URL', { exact: true }).inputValue();
    expect(pingUrl).toMatch(new RegExp(`^${url('/api/heartbeats/')}[A-Za-z0-9_-]{20,}$`));
    await screenshot(page, 'health-check-heartbeat-dialog');
    // The job pings it, no login needed.
    const ping = await apiCall(beacon, 'demo', 'GET', new URL(pingUrl).pathname.replace(/^\/api/, ''));
    expect(ping).toMatchObject({ status: 200, body: { ok: true } });
    await saved.getByRole('button', { name: 'Cancel' }).click();
    const heartbeatCard = page.getByRole('article', { name: 'Shop nightly' });
    expect(await heartbeatCard.getByLabel('Ping URL', { exact: true }).inputValue()).toBe(pingUrl);
    await heartbeatCard.getByText('Every 1 h, 5 min grace').waitFor();

    // The shared runner runs the http check: its card shows the failing assertion with the value it saw.
    const card = page.getByRole('article', { name: 'Shop API' });
    const failing = card.getByRole('list', { name: 'Failing assertions' }).getByText('status ==', { exact: true });
    await expect
      .poll(
        async () => {
          await page.reload();
          return failing.waitFor({ timeout: 3000 }).then(
            () => true,
            () => false,
          );
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true);
    expect(await card.getByRole('list', { name: 'Failing assertions' }).textContent()).toContain(
      'expected 201, actual 200',
    );
    await card.getByText('Assertion: status == 201: got 200').waitFor();
    await page.getByRole('article', { name: 'Shop port' }).getByText('TCP', { exact: true }).waitFor();
    await screenshot(page, 'health-check-kinds-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await card.locator('.apexcharts-svg').waitFor();
    // The charts redraw to the new width after a resize: wait for it, then nothing may be wider than the phone.
    await expect.poll(() => horizontalOverflow(page)).toBe(0);
    expect(await card.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await screenshot(page, 'health-check-kinds-390');

    // The edit dialog at 390 px: the sheet with the kind's fields and the assertions as saved.
    await page.evaluate(() => window.scrollTo(0, 0));
    await card.getByRole('button', { name: 'Edit Shop API' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Healthcheck' });
    expect(await edit.getByLabel('Assertions', { exact: true }).inputValue()).toContain('status == 201');
    await screenshot(page, 'health-check-dialog-edit-390');
    await context.close();
  });
});
