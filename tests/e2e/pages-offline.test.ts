import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  apiToken,
  type Beacon,
  launchChromium,
  logIn,
  newPage,
  screenshot,
  startBeacon,
  waitForServiceWorker,
  waitUntilKept,
} from './harness.js';

/**
 * Published pages offline (docs/decisions.md#offline and #pages): an announcement and an OpenAPI spec seen once are
 * shown with the network cut, marked as last synced, from the local database (the page) and the service worker (the app
 * and the API view's chunk, which is cached on first use rather than precached); a page never opened says so.
 */
const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };
const TEAM = 'atlas-team';
const SERVICE = 'atlas-ledger';
const LAZY_ASSETS_CACHE = 'beacon-lazy-assets';

const SPEC = `openapi: 3.0.3
info:
  title: Atlas API
  version: 1.0.0
paths:
  /accounts:
    get:
      summary: List atlas accounts
      responses:
        '200':
          description: The accounts
`;

let beacon: Beacon;
let browser: Browser;
let announcement: string;
let spec: string;
let neverOpened: string;

const url = (path: string) => `${beacon.origin('demo')}${path}`;

/** Creates and publishes a page through the API; resolves its id. */
async function publish(token: string, section: string, title: string, content: string): Promise<string> {
  const created = await apiCall(beacon, 'demo', 'POST', `/services/${SERVICE}/draft-pages`, {
    body: { section, title, content },
    token,
  });
  expect(created.status).toBe(201);
  const { id } = created.body as { id: string };
  const published = await apiCall(
    beacon,
    'demo',
    'POST',
    `/services/${SERVICE}/draft-pages/${section}/${id}/actions/publish`,
    { token },
  );
  expect(published.status).toBe(200);
  return id;
}

beforeAll(async () => {
  beacon = await startBeacon();
  await beacon.cli(['demo']);
  browser = await launchChromium();
  const token = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
  expect(
    (await apiCall(beacon, 'demo', 'POST', '/teams', { body: { name: 'Atlas Team', handle: TEAM }, token })).status,
  ).toBe(201);
  const service = await apiCall(beacon, 'demo', 'POST', `/teams/${TEAM}/services`, {
    body: { name: 'Atlas Ledger', handle: SERVICE },
    token,
  });
  expect(service.status).toBe(201);
  announcement = await publish(
    token,
    'announcements',
    'Atlas goes multi-region',
    '## Two regions\n\nAtlas now runs in **two** regions.\n\n```js\nconst region = await atlas.nearest();\n```\n',
  );
  spec = await publish(token, 'open-api-specs', 'v1.0', SPEC);
  neverOpened = await publish(token, 'announcements', 'Never opened here', 'Only for those who open it online.');
});

afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
});

describe('published pages offline', () => {
  it('shows an announcement and a spec seen before, marked as last synced; one never opened is not available', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, beacon, 'demo', OWNER.email, OWNER.password);
    // Installed for offline use before the pages are opened, so the worker sees the lazy chunks load.
    await waitForServiceWorker(page);

    await page.goto(url(`/services/${SERVICE}/announcements/${announcement}`));
    const article = page.getByRole('article', { name: 'Atlas goes multi-region' });
    await article.locator('strong', { hasText: 'two' }).waitFor();
    await page.locator('pre code.hljs .hljs-keyword').first().waitFor();
    await waitUntilKept(page, ['service', SERVICE, 'pages', 'announcements', 'page', announcement]);
    await page.goto(url(`/services/${SERVICE}/open-api-specs/${spec}`));
    await page.getByText('List atlas accounts').waitFor();

    // The API view and its CSS were not precached: the worker kept them when they were first loaded.
    const lazy = await page.evaluate(
      async (name) => (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname),
      LAZY_ASSETS_CACHE,
    );
    expect(lazy).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/assets\/swagger-view-[\w-]+\.js$/),
        expect.stringMatching(/^\/assets\/swagger-view-[\w-]+\.css$/),
      ]),
    );

    await context.setOffline(true);
    await page.reload();
    await page.getByText('List atlas accounts').waitFor();
    expect(await page.locator('.opblock-summary-path', { hasText: '/accounts' }).count()).toBe(1);
    const synced = page.getByRole('status').filter({ hasText: /Offline · last synced/ });
    await synced.first().waitFor();
    await screenshot(page, 'pages-offline-spec');

    await page.goto(url(`/services/${SERVICE}/announcements/${announcement}`));
    await article.locator('strong', { hasText: 'two' }).waitFor();
    expect(await article.getByRole('heading', { name: 'Two regions' }).count()).toBe(1);
    await synced.first().waitFor();
    await screenshot(page, 'pages-offline-announcement');

    await page.goto(url(`/services/${SERVICE}/announcements/${neverOpened}`));
    await page.getByRole('heading', { name: 'Not available offline' }).waitFor();
    expect(await page.getByText('Only for those who open it online.').count()).toBe(0);
    await screenshot(page, 'pages-offline-never-opened');
    await context.close();
  });
});
