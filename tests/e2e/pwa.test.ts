import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  apiToken,
  launchChromium,
  logIn,
  newPage,
  screenshot,
  startBeacon,
  waitForServiceWorker,
  type Beacon,
} from './harness.js';

let beacon: Beacon;
let browser: Browser;
let webDir: string;

beforeAll(async () => {
  // A copy of the build, so this test can deploy a "new version" without touching dist/.
  webDir = mkdtempSync(join(tmpdir(), 'beacon-web-'));
  cpSync(join(process.cwd(), 'dist', 'app'), webDir, { recursive: true });
  beacon = await startBeacon({ BEACON_WEB_DIR: webDir });
  await beacon.cli(['demo']);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
  rmSync(webDir, { recursive: true, force: true });
});

describe('installable, offline-capable app', () => {
  it('links a manifest with name, icons (any and maskable), standalone display and a screenshot', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${beacon.origin('demo')}/login`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    // Fetched by the page: *.localhost resolves in the browser, not in Node.
    const manifest = (await page.evaluate(async (url) => (await fetch(url)).json(), href!)) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      icons: Array<{ sizes: string; purpose: string; src: string }>;
      screenshots: Array<{ src: string }>;
    };
    expect(manifest).toMatchObject({
      name: 'Demo · Beacon',
      short_name: 'Demo',
      start_url: '/',
      display: 'standalone',
    });
    expect(manifest.theme_color).toMatch(/^#/);
    for (const purpose of ['any', 'maskable']) {
      for (const size of ['192x192', '512x512'])
        expect(manifest.icons).toContainEqual(expect.objectContaining({ sizes: size, purpose }));
    }
    for (const file of [...manifest.icons, ...manifest.screenshots]) {
      const type = await page.evaluate(async (url) => (await fetch(url)).headers.get('content-type'), file.src);
      expect(type, file.src).toBe('image/png');
    }
    await context.close();
  });

  it('opens with its shell from the service worker when the network is cut', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${beacon.origin('demo')}/login`);
    // Once the worker controls the page, everything the shell needs is precached.
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await page.goto(`${beacon.origin('demo')}/login`);
    await page.getByLabel('Email').waitFor();
    await page.goto(`${beacon.origin('demo')}/forgot-password`);
    await page.getByRole('heading').first().waitFor();
    await screenshot(page, 'offline-shell');
    await context.close();
  });

  it('shows what was last seen, from the local database, when reloaded offline', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${beacon.origin('demo')}/login`);
    await page.getByLabel('Email').fill('owner@demo.beacon.test');
    await page.getByLabel('Password').fill('Beacon-demo-1');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(`${beacon.origin('demo')}/`);
    await page.goto(`${beacon.origin('demo')}/users`);
    await page.getByRole('link', { name: 'Dana Demo' }).waitFor();
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await page.reload();
    await page.getByText('Offline').first().waitFor();
    await page.getByRole('link', { name: 'Dana Demo' }).waitFor();
    await screenshot(page, 'offline-users');
    await context.close();
  });

  it('offers the new version when a new build is deployed, and reloads only when asked', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${beacon.origin('demo')}/login`);
    await waitForServiceWorker(page);
    // Deploy: the worker script changes; the next visit finds it and installs it beside the running one.
    appendFileSync(join(webDir, 'sw.js'), `\n// build ${Date.now()}\n`);
    await page.reload();
    await page.getByLabel('Email').fill('typed but not submitted');
    await page.getByText('A new version is available').waitFor({ timeout: 20000 });
    await screenshot(page, 'update-prompt');
    // Nothing reloaded behind the user's back.
    expect(await page.getByLabel('Email').inputValue()).toBe('typed but not submitted');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Reload' }).click()]);
    await page.getByLabel('Email').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe('');
    await context.close();
  });

  it("leaves the server's own pages to the server: a member opens the workspace's status page, an incident and the unsubscribe page", async () => {
    const token = await apiToken(beacon, 'demo', 'owner@demo.beacon.test', 'Beacon-demo-1');
    const made = await apiCall(beacon, 'demo', 'POST', '/status-pages', {
      token,
      body: {
        handle: 'worker-check',
        title: 'Worker check status',
        groups: [{ name: 'Shop', services: ['checkout'] }],
      },
    });
    expect(made.status).toBe(201);
    const notice = await apiCall(beacon, 'demo', 'POST', '/services/checkout/notices', {
      token,
      body: { type: 'incident', title: 'Card payments slow', message: 'We are looking into it' },
    });
    expect(notice.status).toBe(201);
    const { context, page } = await newPage(browser);
    await logIn(page, beacon, 'demo', 'owner@demo.beacon.test', 'Beacon-demo-1');
    await waitForServiceWorker(page);
    const pages = [
      ['/status/worker-check', 'Worker check status'],
      [`/status/worker-check/incidents/${(notice.body as { id: string }).id}`, 'Card payments slow'],
      ['/status/worker-check/unsubscribe?token=from-a-mail', 'Unsubscribe'],
    ] as const;
    for (const [path, heading] of pages) {
      const answer = await page.goto(`${beacon.origin('demo')}${path}`);
      // The network's answer, the server's page: not the app shell the worker holds (its 404 for these paths).
      expect(answer?.fromServiceWorker(), path).toBe(false);
      expect(answer?.status(), path).toBe(200);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      expect(await page.locator('meta[name="beacon-config"]').count(), path).toBe(0);
    }
    await screenshot(page, 'worker-leaves-unsubscribe');
    // The rest of the server's own paths, opened as pages: each is the network's answer.
    for (const path of [
      '/status/worker-check/feed.atom',
      '/status/worker-check/components/checkout/feed.atom',
      '/status/worker-check/badges/checkout.svg',
      '/status/worker-check/subscriptions/confirm?token=from-a-mail',
      '/alerts/a1/ack?token=from-a-mail',
      '/robots.txt',
      '/api/status/worker-check/summary.json',
    ]) {
      const answer = await page.goto(`${beacon.origin('demo')}${path}`);
      expect(answer?.fromServiceWorker(), path).toBe(false);
    }
    // The app's own pages are still the worker's.
    const app = await page.goto(`${beacon.origin('demo')}/services`);
    expect(app?.fromServiceWorker()).toBe(true);
    await context.close();
  });
});
