import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpIdentityProvider } from '../support/saml-idp-http.js';
import type { TestIdentityProvider } from '../support/saml-idp.js';
import { SlackStandIn } from '../support/slack-stand-in.js';
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

/**
 * Issue 16 in the browser: Slack (through the local stand-in of Slack's OAuth pages and Web API), service
 * channels, and SAML single sign-on through an HTTP identity provider that answers at once.
 */

/** The demo workspace's owner (src/server/demo/seed.ts). */
const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };
const EDITOR = { email: 'eve@demo.test', password: 'Str0ng-pass' };

let beacon: Beacon;
let browser: Browser;
let slack: SlackStandIn;
let idpFace: HttpIdentityProvider;
let idp: TestIdentityProvider;

beforeAll(async () => {
  slack = new SlackStandIn();
  const slackUrl = await slack.start();
  idpFace = new HttpIdentityProvider();
  idp = await idpFace.start();
  beacon = await startBeacon({
    BEACON_SLACK_CLIENT_ID: 'beacon-client',
    BEACON_SLACK_CLIENT_SECRET: 'beacon-secret',
    BEACON_SLACK_API_URL: `${slackUrl}/api/`,
    BEACON_SLACK_AUTHORIZE_URL: `${slackUrl}/oauth/v2/authorize`,
  });
  await beacon.cli(['demo']);
  browser = await launchChromium();
  // An editor: a member who creates a team (its admin) and a service in it.
  const ownerToken = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
  const token = await apiInviteAndJoin(beacon, 'demo', ownerToken, 'Eve Editor', 'eve');
  const calls: Array<[string, string, unknown]> = [
    ['POST', '/teams', { name: 'Eve Team', handle: 'eve-team' }],
    ['POST', '/teams/eve-team/services', { name: 'Eve Service', handle: 'eve-service' }],
  ];
  for (const [method, path, body] of calls) {
    const answer = await apiCall(beacon, 'demo', method, path, { body, token });
    expect(answer.status, `${method} ${path}`).toBeLessThan(300);
  }
});
afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
  await slack?.close();
  await idpFace?.close();
});

const url = (path: string) => `${beacon.origin('demo')}${path}`;

async function open(width = 1280) {
  const context = await browser.newContext({ viewport: { width, height: 844 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

const card = (page: Page, title: string) =>
  page.locator('.p-card', { has: page.getByRole('heading', { name: title, exact: true }) });

describe('Slack, channels and single sign-on in the browser', () => {
  it('lets an admin link a Slack workspace through Slack’s authorise page, and connect themself', async () => {
    const { context, page, errors } = await open();
    await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);
    await page.goto(url('/admin'));
    const slackCard = card(page, 'Slack Workspaces');
    await slackCard.getByText('No Slack accounts configured for this account').waitFor();
    await slackCard.getByRole('link', { name: 'Add to Slack' }).click();
    // The stand-in sends the browser straight back with a code and the state; the callback posts it.
    await page.getByText('Slack workspace was linked').waitFor();
    await page.waitForURL(url('/admin'));
    const list = page.getByRole('list', { name: 'Slack workspaces' });
    await list.getByText('Acme Slack').waitFor();
    await screenshot(page, 'integrations-admin-desktop');

    // A forged return (another state) is refused.
    await page.goto(url('/callbacks/slack-workspaces?code=code-forged&state=forged'));
    await page.getByText('The Slack authorisation did not come from this browser').waitFor();
    await page.waitForURL(url('/admin'));

    // Chat connect from the profile settings.
    await page.goto(url('/users/demo-owner/settings'));
    await page.getByRole('link', { name: 'Connect to Slack' }).click();
    await page.getByText('Connected to Slack successfully').waitFor();
    await page.waitForURL(url('/'));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets an editor add, change and remove the channel of a service', async () => {
    const { context, page, errors } = await open();
    await logInAs(page, beacon, 'demo', EDITOR.email, EDITOR.password);
    await page.goto(url('/services/eve-service/settings'));
    const channels = card(page, 'Channels');
    await channels.getByText('No Channels').waitFor();
    await channels.getByRole('button', { name: 'Add Channel' }).click();
    const input = channels.getByLabel('Slack Channel ID');
    expect(await channels.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await input.fill('not a channel');
    await channels.getByText('Not a Slack channel id').waitFor();
    await input.fill('C0EVE');
    await channels.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Service Channel Added').waitFor();
    await channels.getByText('#C0EVE').waitFor();
    await channels.scrollIntoViewIfNeeded();
    await screenshot(page, 'integrations-channels');
    await channels.getByRole('button', { name: 'Edit #C0EVE' }).click();
    await channels.getByLabel('Slack Channel ID').fill('C0EVE2');
    await channels.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Service Channel Updated').waitFor();
    await channels.getByRole('button', { name: 'Delete #C0EVE2' }).click();
    await page.getByText('Service Channel Removed').waitFor();
    await channels.getByText('No Channels').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets an admin set up an SSO provider, and a user log in with it from the login screen', async () => {
    const { context, page, errors } = await open();
    await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);
    await page.goto(url('/admin'));
    await card(page, 'SSO Providers').getByText('No Providers exist for this account').waitFor();
    await page.getByRole('link', { name: 'Add Provider' }).click();
    await page.waitForURL(url('/admin/sso-providers/new'));
    await page.getByLabel('Handle').fill('test-idp');
    await page.getByLabel('Name', { exact: true }).fill('Test IdP');
    await page.getByLabel(/^Default provider/).check();
    await card(page, 'General Settings').getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('SSO Provider was created').waitFor();
    await page.waitForURL(url('/admin/sso-providers/test-idp'));
    // The created provider loads after the URL moves: wait for its state rather than reading it at once.
    await expect.poll(() => page.getByLabel('Handle').isDisabled()).toBe(true);
    await expect
      .poll(() => page.getByRole('textbox', { name: 'ACS URL' }).inputValue())
      .toBe(url('/api/sso/test-idp/acs'));
    // The service provider's signing certificate, to give the identity provider with the ACS URL.
    expect(await page.getByRole('textbox', { name: 'Signing certificate' }).inputValue()).toMatch(
      /^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n$/,
    );

    const idpCard = card(page, 'Identity Provider Settings');
    await idpCard.getByLabel('SSO URL').fill(idp.ssoUrl);
    await idpCard.getByLabel('Entity ID').fill(idp.entityId);
    await idpCard.getByLabel('Certificate').fill(idp.signing.cert);
    await idpCard.getByRole('button', { name: 'Save' }).click();
    await page.getByText('SSO Provider was updated').waitFor();
    await idpCard.getByRole('button', { name: 'Update Certificate' }).waitFor();
    await screenshot(page, 'integrations-sso-provider-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'integrations-sso-provider-phone');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.goto(url('/admin'));
    await page.getByRole('list', { name: 'SSO providers' }).getByRole('link', { name: 'Test IdP' }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'integrations-admin-phone');
    expect(errors).toEqual([]);
    await context.close();

    // A new browser: the login screen offers the provider; the IdP answers at once and the app signs the user in.
    const visitor = await open();
    idpFace.email = 'sam@sso.test';
    await visitor.page.goto(url('/services'));
    await visitor.page.waitForURL(url('/login'));
    await visitor.page.getByRole('link', { name: 'Log in with Test IdP' }).waitFor();
    await screenshot(visitor.page, 'integrations-login-sso');
    await visitor.page.getByRole('link', { name: 'Log in with Test IdP' }).click();
    await visitor.page.waitForURL(url('/services'));
    await visitor.page.getByRole('button', { name: 'User menu' }).waitFor();
    expect(idpFace.requests).toHaveLength(1);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
  });
});
