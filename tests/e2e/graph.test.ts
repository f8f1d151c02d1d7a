import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  apiToken,
  type Beacon,
  choose,
  launchChromium,
  logIn as logInAs,
  screenshot,
  startBeacon,
  waitForServiceWorker,
} from './harness.js';

/** The demo workspace's owner (src/server/demo/seed.ts); the demo is linked to 'demo-cloud' already. */
const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };
/** Spec colours (src/app/components/health-colours.ts): critical red, good green. */
const RED = '#b91c1c';
const GREEN = '#15803d';

let beacon: Beacon;
let browser: Browser;
let token: string;

beforeAll(async () => {
  beacon = await startBeacon();
  // The demo's services depend on each other (with a cycle) and on demo-cloud's public object-storage.
  await beacon.cli(['demo']);
  browser = await launchChromium();
  token = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
  for (const [service, health] of [
    ['ledger', 'critical'],
    ['identity', 'good'],
  ]) {
    const answer = await apiCall(beacon, 'demo', 'POST', `/services/${service}/actions/change-health`, {
      body: { health },
      token,
    });
    expect(answer.status, `${service} ${health}`).toBe(200);
  }
});
afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
});

const url = (path: string) => `${beacon.origin('demo')}${path}`;

async function openAt(width: number, height = 900) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);
  return { context, page, errors };
}

const graph = (page: Page) => page.locator('[data-node-count]');

/** The ids of the graph the API answers for checkout at `depth`. */
async function apiGraph(depth: number): Promise<{ ids: string[]; edges: number }> {
  const answer = await apiCall(beacon, 'demo', 'GET', `/services/checkout/graph?depth=${depth}`, { token });
  expect(answer.status).toBe(200);
  const { nodes } = answer.body as { nodes: Array<{ id: string; dependencies: string[] }> };
  return { ids: nodes.map((node) => node.id).sort(), edges: nodes.reduce((sum, n) => sum + n.dependencies.length, 0) };
}

/** Waits until the graph at the address is laid out and drawn. */
async function drawn(page: Page, nodes: number) {
  await page.locator(`[data-node-count="${nodes}"][data-ready="true"]`).waitFor();
  // cytoscape paints on the next animation frame.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** The services listed under the graph (the list opened), with their health and colour. */
async function listed(page: Page) {
  const list = page.locator('details', { hasText: 'Services in the graph' });
  if ((await list.getAttribute('open')) === null) await list.locator('summary').click();
  await page.locator('[data-node-id]').first().waitFor();
  return page.locator('[data-node-id]').evaluateAll((items) =>
    items.map((item) => ({
      id: item.getAttribute('data-node-id'),
      health: item.getAttribute('data-health'),
      colour: item.getAttribute('data-colour'),
      text: item.textContent,
    })),
  );
}

/**
 * Where the canvas shows `colour` (exact pixels, so a node's fill, not its anti-aliased edge): how many pixels
 * and their centre in page coordinates. Reads cytoscape's canvases directly.
 */
function painted(page: Page, colour: string) {
  return page.locator('[data-node-count] [role="img"]').evaluate((host, hex) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    const box = host.getBoundingClientRect();
    let count = 0;
    let sumX = 0;
    let sumY = 0;
    for (const canvas of host.querySelectorAll('canvas')) {
      const context = canvas.getContext('2d');
      if (!context || canvas.width === 0) continue;
      const scale = canvas.width / canvas.getBoundingClientRect().width;
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 0; i < data.length; i += 4) {
        if (data[i] === r && data[i + 1] === g && data[i + 2] === b && data[i + 3] === 255) {
          const pixel = i / 4;
          count++;
          sumX += (pixel % canvas.width) / scale;
          sumY += Math.floor(pixel / canvas.width) / scale;
        }
      }
    }
    return count === 0 ? { count, x: 0, y: 0 } : { count, x: box.left + sumX / count, y: box.top + sumY / count };
  }, colour);
}

describe('the service graph in the browser', () => {
  it('draws the service outward with health colours, opens a service on click, and refetches on a depth change', async () => {
    const { context, page, errors } = await openAt(1280);
    await page.goto(url('/services/checkout'));
    await page.getByRole('link', { name: 'Service Graph' }).click();
    await page.waitForURL(url('/services/checkout/graph'));
    const two = await apiGraph(2);
    const one = await apiGraph(1);
    expect(two.ids).toEqual(
      expect.arrayContaining(['api-gateway', 'checkout', 'demo-cloud:object-storage', 'identity', 'ledger']),
    );
    expect(one.ids.length).toBeLessThan(two.ids.length);
    await drawn(page, two.ids.length);
    await expect(page.getByRole('heading', { name: 'Service Graph' }).count()).resolves.toBe(1);
    await expect(graph(page).getAttribute('data-layout')).resolves.toBe('layered');
    await expect(page.locator('.p-dropdown-label').textContent()).resolves.toBe('2');

    // Every service reached, in words, with its health and the colour drawn for it.
    const nodes = await listed(page);
    expect(nodes.map((node) => node.id).sort()).toEqual(two.ids);
    expect(nodes.find((node) => node.id === 'ledger')).toMatchObject({ health: 'critical', colour: RED });
    expect(nodes.find((node) => node.id === 'identity')).toMatchObject({ health: 'good', colour: GREEN });
    expect(nodes.find((node) => node.id === 'demo-cloud:object-storage')?.text).toContain(
      'Object Storage (demo-cloud)',
    );
    const summary = `Dependency graph of Checkout: ${two.ids.length} services and ${two.edges} dependencies`;
    expect(await page.getByRole('img', { name: new RegExp(summary) }).count()).toBe(1);

    // The canvas itself shows a red node and a green one.
    const red = await painted(page, RED);
    const green = await painted(page, GREEN);
    expect(red.count).toBeGreaterThan(200);
    expect(green.count).toBeGreaterThan(200);
    await screenshot(page, 'graph-desktop');

    // A depth change asks the server again and draws that graph; the address keeps the depth.
    const refetched = page.waitForResponse((response) =>
      response.url().includes('/api/services/checkout/graph?depth=1'),
    );
    await choose(page, 'Depth', '1');
    expect((await refetched).status()).toBe(200);
    await page.waitForURL(url('/services/checkout/graph?depth=1'));
    await drawn(page, one.ids.length);
    expect((await listed(page)).map((node) => node.id).sort()).toEqual(one.ids);
    await screenshot(page, 'graph-depth-1');

    // Clicking the red node (ledger) opens that service.
    const target = await painted(page, RED);
    expect(target.count).toBeGreaterThan(200);
    await page.mouse.click(target.x, target.y);
    await page.waitForURL(url('/services/ledger'));

    expect(errors).toEqual([]);
    await context.close();
  });

  it('fills a phone screen with the 600px canvas and lays the layers out downwards', async () => {
    const { context, page, errors } = await openAt(390, 844);
    await page.goto(url('/services/checkout/graph'));
    await drawn(page, (await apiGraph(2)).ids.length);
    const box = await graph(page).boundingBox();
    expect(box!.height).toBe(600);
    expect(box!.width).toBeGreaterThan(330);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    expect((await painted(page, RED)).count).toBeGreaterThan(100);
    await graph(page).scrollIntoViewIfNeeded();
    await screenshot(page, 'graph-phone');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the graph last seen when offline, and "Not available offline" for a depth never seen', async () => {
    const { context, page } = await openAt(1280);
    await page.goto(url('/services/checkout/graph'));
    await waitForServiceWorker(page);
    const { ids } = await apiGraph(2);
    await drawn(page, ids.length);

    await context.setOffline(true);
    await page.reload();
    await drawn(page, ids.length);
    await page
      .getByText(/Offline · last synced/)
      .first()
      .waitFor();
    expect((await painted(page, RED)).count).toBeGreaterThan(200);
    await screenshot(page, 'graph-offline');

    await choose(page, 'Depth', '5');
    await page.getByText('Not available offline').waitFor();
    await context.setOffline(false);
    await context.close();
  });
});
