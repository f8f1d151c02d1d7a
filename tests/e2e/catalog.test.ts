import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  apiInviteAndJoin,
  apiToken,
  choose,
  horizontalOverflow,
  launchChromium,
  logIn as logInAs,
  screenshot,
  startBeacon,
  waitForServiceWorker,
  type Beacon,
} from './harness.js';

/** Issue 29, the catalogue as code: /admin/catalog's plan, apply and sources, and the "Managed in" marks. */
const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };

let beacon: Beacon;
let browser: Browser;

const CATALOG_INFO = `apiVersion: backstage.io/v1alpha1
kind: Group
metadata:
  name: data
  title: Data
  description: Pipelines and the warehouse.
spec:
  type: team
  children: []
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: warehouse
  title: Warehouse
  description: Where the numbers end up.
  links:
    - url: https://wiki.example.com/warehouse
      title: Runbook
  annotations:
    beacon.io/slo: 99.9% 30d
spec:
  type: service
  lifecycle: production
  owner: data
  dependsOn: [component:checkout]
  providesApis: [warehouse-api]
---
apiVersion: backstage.io/v1alpha1
kind: API
metadata:
  name: warehouse-api
  title: Warehouse API
spec:
  type: openapi
  lifecycle: production
  owner: data
  definition: |
    openapi: 3.0.3
    info:
      title: Warehouse API
      version: 1.0.0
    paths:
      /tables:
        get:
          responses:
            '200':
              description: The tables
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: checkout
spec:
  type: service
  lifecycle: production
  owner: payments
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: ingest
spec:
  type: service
  lifecycle: retired
  owner: data
`;

beforeAll(async () => {
  beacon = await startBeacon();
  await beacon.cli(['demo']);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
});

const url = (path: string) => `${beacon.origin('demo')}${path}`;

describe('the catalogue as code in the browser', () => {
  it('adds a source, plans uploaded files as a diff, applies them, and shows what is not in sync', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);
    await page.goto(url('/admin'));
    await page.getByRole('link', { name: 'Manage the catalogue as code' }).click();
    await page.waitForURL(url('/admin/catalog'));
    await page.getByRole('heading', { name: 'Catalogue as code', level: 1 }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('data-repo');
    await page.getByRole('button', { name: 'Add source' }).click();
    const sources = page.getByRole('list', { name: 'Sources' });
    await sources.getByRole('heading', { name: 'data-repo' }).waitFor();
    await sources.getByText('Never synced').waitFor();

    await page.locator('#catalog-files').setInputFiles({
      name: 'catalog-info.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from(CATALOG_INFO),
    });
    await page.getByText('1 file: catalog-info.yaml').waitFor();
    await choose(page, 'Apply as', 'data-repo (authoritative)');
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    const changes = page.getByRole('list', { name: 'Changes' });
    await changes.getByText('service warehouse').waitFor();
    await changes.getByText('Where the numbers end up.').waitFor();
    await changes.getByText('api warehouse-api').waitFor();
    await changes.getByText('99.9% 30d').waitFor();
    await changes
      .getByText('A service made in Beacon already has the handle checkout: rename or delete it first')
      .waitFor();
    await changes.getByText(/catalog-info\.yaml:\d+: spec\.lifecycle "retired" is not one Beacon knows/).waitFor();
    // Nothing is written by a plan.
    const token = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
    expect((await apiCall(beacon, 'demo', 'GET', '/services/warehouse', { token })).status).toBe(404);
    await screenshot(page, 'catalog-plan');

    await page.getByRole('button', { name: 'Apply plan' }).click();
    await page.getByText('Plan applied: 3 created, 0 updated, 0 deleted').waitFor();
    await sources.getByText(/^Synced/).waitFor();
    await sources.getByText('2 synced · 1 errored · 0 orphaned · 1 in conflict').waitFor();
    const notInSync = page.getByRole('list', { name: 'Entities not in sync' });
    await notInSync.getByText('service checkout').waitFor();
    await notInSync.getByText('service ingest').waitFor();
    await screenshot(page, 'catalog-applied');

    await page.goto(url('/services/warehouse'));
    await page.getByText('Managed in data-repo').waitFor();
    await page.getByText('catalog-info.yaml:11').waitFor();
    await screenshot(page, 'catalog-managed-service');
    // The API's definition is the service's published OpenAPI spec.
    await page.goto(url('/services/warehouse/open-api-specs'));
    await page.getByText('Warehouse API').first().waitFor();
    await screenshot(page, 'catalog-api-spec');
    // The SLO its file sets is shown in Settings, changed only in the file.
    await page.goto(url('/services/warehouse/settings'));
    await page.getByText('99.9% over 30 days').waitFor();
    await page.getByText('Its SLO change in').waitFor();
    await screenshot(page, 'catalog-managed-slo');
    await context.close();
  });

  it('marks a managed team for a plain member at 390 px, and shows the sources again offline', async () => {
    const ownerToken = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
    const memberToken = await apiInviteAndJoin(beacon, 'demo', ownerToken, 'Morgan Member', 'morgan');
    expect(memberToken).toBeTruthy();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await logInAs(page, beacon, 'demo', 'morgan@demo.test', 'Str0ng-pass');
    await page.goto(url('/teams/data'));
    await page.getByRole('heading', { name: 'Data', level: 1 }).waitFor();
    await page.getByText('Managed in data-repo').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'catalog-managed-team-390');
    await context.close();

    const admin = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const adminPage = await admin.newPage();
    await logInAs(adminPage, beacon, 'demo', OWNER.email, OWNER.password);
    await adminPage.goto(url('/admin/catalog'));
    await adminPage.getByRole('list', { name: 'Sources' }).getByRole('heading', { name: 'data-repo' }).waitFor();
    expect(await horizontalOverflow(adminPage)).toBeLessThanOrEqual(0);
    await screenshot(adminPage, 'catalog-390');
    await waitForServiceWorker(adminPage);
    await admin.setOffline(true);
    await adminPage.reload();
    await adminPage.getByRole('list', { name: 'Sources' }).getByRole('heading', { name: 'data-repo' }).waitFor();
    await adminPage
      .getByRole('status')
      .filter({ hasText: /last synced/ })
      .first()
      .waitFor();
    await screenshot(adminPage, 'catalog-offline');
    await admin.close();
  });
  it('refuses a credential in a source URL and takes a write-only token instead (issue 48)', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);
    await page.goto(url('/admin/catalog'));
    await page.getByLabel('Name', { exact: true }).fill('private-repo');
    await page.getByLabel('URL (optional)').fill('https://git.example.com/raw/catalog-info.yaml?access_token=leak');
    await page.getByRole('button', { name: 'Add source' }).click();
    await page.getByRole('alert').filter({ hasText: "send it as the source's token" }).waitFor();
    await page.getByLabel('URL (optional)').fill('https://git.example.com/raw/catalog-info.yaml');
    await page.getByLabel('Token (optional)').fill('sekret-e2e-token');
    expect(await page.getByLabel('Token (optional)').getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Add source' }).click();
    const sources = page.getByRole('list', { name: 'Sources' });
    await sources.getByRole('heading', { name: 'private-repo' }).waitFor();
    await sources.getByText(/with a token/).waitFor();
    expect(await page.content()).not.toContain('sekret-e2e-token');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'catalog-source-token-390');
    await context.close();
  });
});
