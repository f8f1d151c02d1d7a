import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_BUDGET_KB, loginRequests, receiveAll, totalBytes } from '../../scripts/login-visit.js';
import { launchChromium, startBeacon, type Beacon } from './harness.js';

const WORKSPACE = 'demo';
const DIST = join(process.cwd(), 'dist/app');

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

interface Response {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  /** Chromium's count: the bytes received for it, status line and headers included (DevTools' "transferred"). */
  encoded: number;
}

/** A cold visit to /login: no cache, no service worker, until the network is idle. */
async function coldLogin(): Promise<{ responses: Response[]; failed: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const requests = new Map<string, Omit<Response, 'encoded'> & { encoded?: number }>();
  const failed: string[] = [];
  cdp.on('Network.requestWillBeSent', ({ requestId, request }) => {
    const url = new URL(request.url);
    requests.set(requestId, { method: request.method, path: url.pathname, status: 0, headers: {} });
  });
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    Object.assign(requests.get(requestId)!, { status: response.status, headers: response.headers });
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    requests.get(requestId)!.encoded = encodedDataLength;
  });
  cdp.on('Network.loadingFailed', ({ requestId, errorText }) => {
    failed.push(`${requests.get(requestId)?.path}: ${errorText}`);
  });

  await page.goto(`${beacon.origin(WORKSPACE)}/login`);
  await page.getByLabel('Email').waitFor();
  await page.evaluate(() => document.fonts.ready);
  await page.waitForLoadState('networkidle');
  await context.close();
  const responses = [...requests.values()].filter((one): one is Response => one.encoded !== undefined);
  return { responses, failed };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const named = (list: Array<{ method: string; path: string }>) => list.map((one) => `${one.method} ${one.path}`).sort();

describe('bytes on the wire', () => {
  it(`sends a cold /login in at most ${LOGIN_BUDGET_KB} KB as Chromium counts it, as the build counts`, async () => {
    const { responses, failed } = await coldLogin();
    const chromium = responses.reduce((sum, one) => sum + one.encoded, 0);
    console.log(
      `cold /login in Chromium: ${responses.length} responses, ${kb(chromium)} (${chromium} bytes)\n` +
        responses.map((one) => `  ${one.status} ${one.method} ${one.path}: ${one.encoded}`).join('\n'),
    );
    expect(failed).toEqual([]);
    expect(chromium).toBeLessThanOrEqual(LOGIN_BUDGET_KB * 1024);

    // The build's budget (scripts/bundle-budget.ts) asks this server for the visit it expects: the same requests,
    // and the same bytes give or take a few headers' worth (a Date, an ETag).
    const expected = await receiveAll(
      beacon.port,
      `${WORKSPACE}.localhost:${beacon.port}`,
      loginRequests(DIST, WORKSPACE),
    );
    const budget = totalBytes(expected);
    console.log(`the build's budget counts ${kb(budget)} (${budget} bytes)`);
    expect(named(responses)).toEqual(named(expected));
    expect(Math.abs(budget - chromium)).toBeLessThanOrEqual(chromium * 0.01);

    for (const { path, headers } of responses) {
      if (path.startsWith('/assets/'))
        expect(headers['cache-control'], path).toBe('public, max-age=31536000, immutable');
      if (/\.(js|css)$/.test(path) || path === '/login') expect(headers['content-encoding'], path).toBe('br');
      if (path === '/login') expect(headers['cache-control'], path).toBe('no-cache');
    }
  });
});
