import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  apiInviteAndJoin,
  apiToken,
  type Beacon,
  horizontalOverflow,
  launchChromium,
  logIn as logInAs,
  screenshot,
  startBeacon,
} from './harness.js';

/** The demo workspace's owner (src/server/demo/seed.ts); the demo is linked to 'demo-cloud' already. */
const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };
/** A second workspace, registered through the API, with one public service. */
const PARTNER = { domain: 'partner', email: 'pat@partner.test', password: 'Str0ng-pass' };

let beacon: Beacon;
let browser: Browser;
let ownerToken: string;

beforeAll(async () => {
  beacon = await startBeacon();
  await beacon.cli(['demo']);
  browser = await launchChromium();
  ownerToken = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
  await apiInviteAndJoin(beacon, 'demo', ownerToken, 'Max Member', 'max');

  // The partner workspace: a beta key from the CLI, the registration API, then a team and a public service.
  const key = (await beacon.cli(['beta-key', 'create', '--email', PARTNER.email])).trim().split('\n').pop()!;
  const registered = await apiCall(beacon, PARTNER.domain, 'POST', '/registration/register-workspace', {
    body: {
      beta_key: key.trim(),
      owner: { email: PARTNER.email, name: 'Pat Partner', handle: 'pat', password: PARTNER.password },
      workspace: { name: 'Partner Co', domain: PARTNER.domain },
    },
  });
  expect(registered.status).toBe(201);
  const token = await apiToken(beacon, PARTNER.domain, PARTNER.email, PARTNER.password);
  const calls: Array<[string, string, unknown]> = [
    ['POST', '/teams', { name: 'Partner Ops', handle: 'partner-ops' }],
    ['POST', '/teams/partner-ops/services', { name: 'Partner Payments API', handle: 'partner-pay' }],
    ['POST', '/services/partner-pay/actions/change-visibility', { visibility: 'public' }],
    ['POST', '/services/partner-pay/actions/change-health', { health: 'warning' }],
  ];
  for (const [method, path, body] of calls) {
    const answer = await apiCall(beacon, PARTNER.domain, method, path, { body, token });
    expect(answer.status, `${method} ${path}`).toBeLessThan(300);
  }
});
afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
});

const url = (path: string) => `${beacon.origin('demo')}${path}`;

async function openAt(width: number, email = OWNER.email, password = OWNER.password) {
  const context = await browser.newContext({ viewport: { width, height: 844 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await logInAs(page, beacon, 'demo', email, password);
  return { context, page, errors };
}

/** Serious or critical axe violations. */
function remoteDependencies(page: Page) {
  return page.getByRole('list', { name: 'Remote dependencies' });
}

describe('the admin area and remote dependencies in the browser', () => {
  it('lets an owner link a workspace in /admin and depend on its public service from a service overview', async () => {
    const { context, page, errors } = await openAt(1280);

    // The Admin entry of the user menu.
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Admin' }).click();
    await page.waitForURL(url('/admin'));
    const remotes = page.getByRole('list', { name: 'Remote workspaces' });
    await remotes.getByText('demo-cloud').waitFor();
    await page.getByText('No Slack accounts configured for this account').waitFor();
    await page.getByText('No Providers exist for this account').waitFor();
    expect(await page.getByRole('button', { name: 'Export Pages' }).isDisabled()).toBe(false);
    await screenshot(page, 'admin-desktop');

    // The ID is required; an unknown workspace is refused.
    await page.getByRole('button', { name: 'Add Remote Workspace' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Remote Workspace' });
    const add = dialog.getByRole('button', { name: 'Add', exact: true });
    expect(await add.isDisabled()).toBe(true);
    await dialog.getByLabel('Remote workspace ID').fill('no-such-place');
    await add.click();
    await page.getByText('Failed to link workspace').waitFor();
    await dialog.getByText('The remote workspace was not found').waitFor();
    await dialog.getByLabel('Remote workspace ID').fill('');
    await dialog.getByText('Remote workspace ID is required').waitFor();
    expect(await add.isDisabled()).toBe(true);
    await screenshot(page, 'admin-link-dialog');
    await dialog.getByLabel('Remote workspace ID').fill(PARTNER.domain);
    await add.click();
    await page.getByText('Remote workspace was linked').waitFor();
    await remotes.getByText(PARTNER.domain, { exact: true }).waitFor();
    const linked = await apiCall(beacon, 'demo', 'GET', '/remotes', { token: ownerToken });
    expect(linked.body).toEqual(expect.arrayContaining(['demo-cloud', PARTNER.domain]));

    // The seeded remote dependency of the API Gateway, with its live health.
    await page.goto(url('/services/api-gateway'));
    await remoteDependencies(page).getByText('Cloud DNS').waitFor();
    await remoteDependencies(page).getByText('Maintenance').waitFor();

    // Checkout depends on nothing remote yet: add the partner's public service.
    await page.goto(url('/services/checkout'));
    const card = page.locator('.p-card', { has: page.getByRole('heading', { name: 'Remote Dependencies' }) });
    await card.getByText('No Dependencies').waitFor();
    await card.getByRole('button', { name: 'Add Remote Dependency' }).click();
    const remoteDialog = page.getByRole('dialog', { name: 'Add Remote Dependency' });
    await remoteDialog.getByLabel('Remote service').pressSequentially('Partner');
    await page.getByRole('option', { name: /Partner Payments API/ }).waitFor();
    await screenshot(page, 'remote-dependency-dialog');
    await page.getByRole('option', { name: /Partner Payments API/ }).click();
    await remoteDialog.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Service Dependency Added').waitFor();
    const item = remoteDependencies(page).getByRole('listitem').filter({ hasText: 'Partner Payments API' });
    await item.getByText(PARTNER.domain, { exact: true }).waitFor();
    await item.getByText('Warning').waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'remote-dependencies-desktop');

    // Unlinked, the partner's service stays listed, unavailable.
    await page.goto(url('/admin'));
    await page.getByRole('button', { name: `Unlink ${PARTNER.domain}` }).click();
    await page.getByText('Remote workspace was unlinked').waitFor();
    await expect.poll(() => remotes.getByText(PARTNER.domain, { exact: true }).count()).toBe(0);
    await page.goto(url('/services/checkout'));
    await item.getByText('Unavailable').waitFor();
    await screenshot(page, 'remote-dependencies-unavailable');

    // And an editor removes it.
    await item.getByRole('button', { name: 'Remove Partner Payments API' }).click();
    await page.getByText('Service Dependency Removed').waitFor();
    await card.getByText('No Dependencies').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits a phone: the admin cards and the remote dependencies card, no horizontal scroll', async () => {
    const { context, page, errors } = await openAt(390);
    await page.goto(url('/admin'));
    await page.getByRole('list', { name: 'Remote workspaces' }).getByText('demo-cloud').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'admin-phone');
    await page.getByRole('button', { name: 'Add Remote Workspace' }).click();
    await page.getByRole('dialog', { name: 'Add Remote Workspace' }).getByLabel('Remote workspace ID').waitFor();
    await screenshot(page, 'admin-link-dialog-phone');
    await page.keyboard.press('Escape');

    await page.goto(url('/services/message-bus'));
    await remoteDependencies(page).getByText('Object Storage').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'remote-dependencies-phone');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fills a new SSO provider's handle from its name while the handle is empty, and stops once the handle is edited", async () => {
    const { context, page, errors } = await openAt(1280);
    await page.goto(url('/admin/sso-providers/new'));
    const general = page.getByRole('group', { name: 'General Settings' });
    const name = general.getByLabel('Name', { exact: true });
    const handle = general.getByLabel('Handle');
    await name.pressSequentially('Okta Workforce (EU)');
    await expect.poll(() => handle.inputValue()).toBe('okta-workforce-eu');

    // The user's own handle stays whatever the name becomes.
    await handle.fill('');
    await handle.pressSequentially('Okta_EU');
    await expect.poll(() => handle.inputValue()).toBe('oktaeu');
    await handle.fill('okta-eu');
    await name.fill('Okta Europe');
    await expect.poll(() => name.inputValue()).toBe('Okta Europe');
    expect(await handle.inputValue()).toBe('okta-eu');
    await screenshot(page, 'admin-sso-provider-new');

    await general.getByRole('button', { name: 'Create' }).click();
    await page.getByText('SSO Provider was created').waitFor();
    await page.waitForURL(url('/admin/sso-providers/okta-eu'));
    await expect
      .poll(() => page.getByRole('group', { name: 'General Settings' }).getByLabel('Handle').isDisabled())
      .toBe(true);
    const created = await apiCall(beacon, 'demo', 'GET', '/sso-providers/okta-eu', { token: ownerToken });
    expect(created.body).toMatchObject({ handle: 'okta-eu', name: 'Okta Europe' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('gives a member no Admin entry and the not-found view at /admin; the API refuses them', async () => {
    const { context, page } = await openAt(1280, 'max@demo.test', 'Str0ng-pass');
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Admin' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.goto(url('/admin'));
    await page.getByText('404 Not Found').waitFor();
    await page.getByText('No pages found').waitFor();
    expect(await page.getByText('Remote Workspaces').count()).toBe(0);
    await screenshot(page, 'admin-member-not-found');
    const memberToken = await apiToken(beacon, 'demo', 'max@demo.test', 'Str0ng-pass');
    expect((await apiCall(beacon, 'demo', 'GET', '/remotes', { token: memberToken })).status).toBe(403);

    // A member of no owning team reads the remote dependencies without any action.
    await page.goto(url('/services/message-bus'));
    await remoteDependencies(page).getByText('Object Storage').waitFor();
    const card = page.locator('.p-card', { has: page.getByRole('heading', { name: 'Remote Dependencies' }) });
    expect(await card.getByRole('button').count()).toBe(0);
    await context.close();
  });
});
