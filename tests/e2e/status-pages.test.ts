import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsStandIn } from '../support/dns-stand-in.js';
import {
  apiCall,
  apiToken,
  type Beacon,
  horizontalOverflow,
  launchChromium,
  logIn,
  screenshot,
  SCREENSHOT_DIR,
  seriousViolations,
  startBeacon,
} from './harness.js';

/**
 * Issue 27: an admin makes a status page in the app; a visitor reads it with no login, with JavaScript on or
 * off, on a phone and a desktop, and reaches every day of the bars by keyboard.
 */
const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

let beacon: Beacon;
let browser: Browser;
let token: string;
/** The resolver custom-domain proofs ask. */
const dns = new DnsStandIn();

beforeAll(async () => {
  beacon = await startBeacon({ BEACON_DNS_RESOLVERS: await dns.start() });
  await beacon.cli(['demo']);
  browser = await launchChromium();
  token = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
});
afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
  await dns.close();
});

const url = (path: string) => `${beacon.origin('demo')}${path}`;

describe('status pages', () => {
  it('an admin adds a page with a group of services in the app', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await logIn(page, beacon, 'demo', OWNER.email, OWNER.password);
    await page.goto(url('/admin/status-pages'));
    await page.getByRole('link', { name: 'Add status page' }).first().click();
    await page.getByLabel('Title').fill('Demo status');
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByLabel('Group name').fill('Shop');
    await page.getByRole('button', { name: /Add service to/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Service').pressSequentially('check');
    await page.getByRole('option', { name: /Checkout/ }).click();
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Create status page' }).click();
    await page.waitForURL(/\/admin\/status-pages\/demo-status$/);
    const saved = await apiCall(beacon, 'demo', 'GET', '/status-pages/demo-status', { token });
    expect(saved.body).toMatchObject({ title: 'Demo status', groups: [{ name: 'Shop', services: ['checkout'] }] });
    await screenshot(page, 'status-pages-admin');
    await context.close();
  });

  it('reads the page with no login, complete with JavaScript off, at 390 px and 1366 px', async () => {
    const added = await apiCall(beacon, 'demo', 'PATCH', '/status-pages/demo-status', {
      token,
      body: {
        groups: [
          { name: 'Shop', services: ['checkout', 'search'] },
          { name: 'Platform', services: ['api-gateway', 'identity'] },
        ],
      },
    });
    expect(added.status).toBe(200);
    for (const [viewport, name] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      // The first answer alone: no script runs.
      const off = await browser.newContext({ viewport, javaScriptEnabled: false });
      const bare = await off.newPage();
      const answer = await bare.goto(url('/status/demo-status'));
      expect(answer?.status()).toBe(200);
      await bare.getByRole('heading', { name: 'Demo status', level: 1 }).waitFor();
      await bare.getByRole('heading', { name: 'Checkout' }).waitFor({ timeout: 10_000 });
      await bare.getByRole('heading', { name: 'Platform' }).waitFor({ timeout: 10_000 });
      // axe needs scripts: this photograph is only to look at (the same page with scripts is checked below).
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await bare.screenshot({ path: join(SCREENSHOT_DIR, `status-page-${name}-no-js.png`), fullPage: true });
      await off.close();
      const on = await browser.newContext({ viewport });
      const page = await on.newPage();
      await page.goto(url('/status/demo-status'));
      await page.getByRole('heading', { name: 'Checkout' }).waitFor();
      expect(await horizontalOverflow(page), name).toBeLessThanOrEqual(0);
      await screenshot(page, `status-page-${name}`);
      await on.close();
    }
  });

  it('shows a change of health within 5 s, without a reload', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(url('/status/demo-status'));
    const identity = page.locator('#c-identity');
    await identity.getByText('Operational', { exact: true }).waitFor();
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    const changed = await apiCall(beacon, 'demo', 'POST', '/services/identity/actions/change-health', {
      token,
      body: { health: 'critical' },
    });
    expect(changed.status).toBe(200);
    await identity.getByText('Major outage', { exact: true }).waitFor({ timeout: 5000 });
    expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await apiCall(beacon, 'demo', 'POST', '/services/identity/actions/change-health', {
      token,
      body: { health: 'good' },
    });
    await identity.getByText('Operational', { exact: true }).waitFor({ timeout: 5000 });
    await context.close();
  });

  it('a visitor subscribes from the page, and the admin sees them waiting for confirmation', async () => {
    const visitor = await browser.newContext({ viewport: PHONE });
    const page = await visitor.newPage();
    await page.goto(url('/status/demo-status'));
    await page.getByLabel('Email').fill('visitor@example.com');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    await visitor.close();

    const context = await browser.newContext({ viewport: PHONE });
    const admin = await context.newPage();
    await logIn(admin, beacon, 'demo', OWNER.email, OWNER.password);
    await admin.goto(url('/admin/status-pages/demo-status'));
    await admin.getByRole('heading', { name: 'Subscribers (1)' }).waitFor();
    await admin.getByText('visitor@example.com').waitFor();
    await admin.getByText('Waiting for confirmation').waitFor();
    expect(await horizontalOverflow(admin)).toBeLessThanOrEqual(0);
    await screenshot(admin, 'status-page-subscribers-phone');
    await context.close();
  });

  it("shows a pending custom domain's TXT record at 390 px and 1366 px, and Check now verifies it", async () => {
    const named = await apiCall(beacon, 'demo', 'PATCH', '/status-pages/demo-status', {
      token,
      body: { custom_domain: 'status.demo-company.example' },
    });
    const record = (named.body as { custom_domain_record: { name: string; value: string } }).custom_domain_record;
    for (const [viewport, name] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await logIn(page, beacon, 'demo', OWNER.email, OWNER.password);
      await page.goto(url('/admin/status-pages/demo-status'));
      const card = page.getByRole('region', { name: 'Custom domain' });
      await card.getByText('Pending').waitFor();
      await card.getByText(record.name).waitFor();
      await card.getByText(record.value).waitFor();
      expect(await horizontalOverflow(page), name).toBeLessThanOrEqual(0);
      await screenshot(page, `status-page-domain-pending-${name}`);
      await context.close();
    }
    dns.txt.set(record.name, [record.value]);
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await logIn(page, beacon, 'demo', OWNER.email, OWNER.password);
    await page.goto(url('/admin/status-pages/demo-status'));
    const card = page.getByRole('region', { name: 'Custom domain' });
    await card.getByRole('button', { name: /^Check the DNS record/ }).click();
    await card.getByText('Verified').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'status-page-domain-verified-phone');
    await context.close();
    // Back to the workspace's host, as the other tests read the page.
    await apiCall(beacon, 'demo', 'PATCH', '/status-pages/demo-status', { token, body: { custom_domain: null } });
  });

  it('takes the keyboard through the bars, each day named, and is axe clean', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(url('/status/demo-status'));
    const firstDay = page.locator('[aria-label*="uptime"], [aria-label*="no data"]').first();
    await firstDay.waitFor();
    await firstDay.focus();
    const named = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    expect(named).toMatch(/^\w{3} \d{1,2}, \d{4}: (no data|\d+\.\d{2}% uptime)/);
    await page.keyboard.press('Tab');
    const next = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    expect(next).not.toBe(named);
    expect(next).toMatch(/^\w{3} \d{1,2}, \d{4}: /);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
