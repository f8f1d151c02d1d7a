import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newPage, startBeacon, type Beacon } from './harness.js';

/** The budget scripts/bundle-budget.mjs enforces on the build, here measured in the browser. */
const BUDGET_KB = 250;

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

function typeOf(url: string): string {
  const path = new URL(url).pathname;
  if (path.startsWith('/api/')) return 'API';
  if (path.endsWith('.js')) return 'JS';
  if (path.endsWith('.css')) return 'CSS';
  if (path.endsWith('.woff2')) return 'font';
  return path.endsWith('.html') || !path.includes('.') ? 'HTML' : 'other';
}

describe('bytes on the wire', () => {
  it(`sends a first visit to /login in at most ${BUDGET_KB} KB, compressed, its hashed assets cached for good`, async () => {
    const { context, page } = await newPage(browser);
    const headers = new Map<string, Promise<Record<string, string>>>();
    page.on('response', (response) => headers.set(response.url(), response.allHeaders()));
    await page.goto(`${beacon.origin('demo')}/login`);
    await page.getByLabel('Email').waitFor();
    await page.evaluate(() => document.fonts.ready);
    await page.waitForLoadState('networkidle');

    // Body bytes as received (compressed), from the page's own timing entries.
    const entries = await page.evaluate(() =>
      [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((entry) => ({
        url: entry.name,
        bytes: (entry as PerformanceResourceTiming).encodedBodySize,
      })),
    );
    const byType: Record<string, number> = {};
    for (const entry of entries) byType[typeOf(entry.url)] = (byType[typeOf(entry.url)] ?? 0) + entry.bytes;
    const total = ['HTML', 'JS', 'CSS', 'font'].reduce((sum, type) => sum + (byType[type] ?? 0), 0);
    const kb = (bytes = 0) => `${(bytes / 1024).toFixed(1)} KB`;
    console.log(
      `first visit to /login: ${entries.length} requests, ${kb(total)} sent (` +
        Object.entries(byType)
          .map(([type, bytes]) => `${type} ${kb(bytes)}`)
          .join(', ') +
        ')',
    );
    expect(total).toBeLessThanOrEqual(BUDGET_KB * 1024);
    expect(byType.font).toBeGreaterThan(0);

    for (const { url } of entries) {
      const type = typeOf(url);
      const sent = await headers.get(url);
      if (!sent) continue;
      if (type === 'JS' || type === 'CSS') {
        expect(sent['content-encoding'], url).toBe('br');
        expect(sent['cache-control'], url).toBe('public, max-age=31536000, immutable');
      }
      if (type === 'font') expect(sent['cache-control'], url).toBe('public, max-age=31536000, immutable');
      if (type === 'HTML') {
        expect(sent['content-encoding'], url).toBe('br');
        expect(sent['cache-control'], url).toBe('no-cache');
      }
    }
    await context.close();
  });
});
