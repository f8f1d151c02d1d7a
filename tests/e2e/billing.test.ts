import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRIPE_JS_STUB } from '../support/stripe-js-stub.js';
import { StripeStandIn } from '../support/stripe-stand-in.js';
import {
  apiCall,
  apiInviteAndJoin,
  apiToken,
  type Beacon,
  horizontalOverflow,
  launchChromium,
  logIn as logInAs,
  screenshot,
  seriousViolations,
  startBeacon,
  settled,
} from './harness.js';

/**
 * Issue 17 in the browser: per-seat billing through the payment form, with Stripe's REST API played by the local
 * stand-in (tests/support/stripe-stand-in.ts, spoken to by the server's real SDK) and Stripe.js by a stub script
 * served at js.stripe.com (tests/support/stripe-js-stub.ts).
 */

/** The demo workspace's owner (src/server/demo/seed.ts). */
const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };
const MEMBER = { email: 'mia@demo.test', password: 'Str0ng-pass' };
const VISA = '4242 4242 4242 4242';
const MASTERCARD = '5555 5555 5555 4444';
const DECLINED = '4000 0000 0000 0002';

let beacon: Beacon;
let browser: Browser;
let stripe: StripeStandIn;

beforeAll(async () => {
  stripe = new StripeStandIn();
  const stripeUrl = await stripe.start();
  beacon = await startBeacon({
    BEACON_STRIPE_SECRET_KEY: 'sk_test_beacon',
    BEACON_STRIPE_PUBLISHABLE_KEY: 'pk_test_beacon',
    BEACON_STRIPE_WEBHOOK_SECRET: 'whsec_test',
    BEACON_STRIPE_API_URL: stripeUrl,
  });
  stripe.webhook(`${beacon.origin()}/api/stripe/webhook`, 'whsec_test');
  await beacon.cli(['demo']);
  browser = await launchChromium();
  // A member: two of the free plan's five seats are in use.
  const ownerToken = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
  await apiInviteAndJoin(beacon, 'demo', ownerToken, 'Mia Member', 'mia');
});
afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
  await stripe?.close();
});

const url = (path: string) => `${beacon.origin('demo')}${path}`;

/** A page whose js.stripe.com is the stub (or unreachable), counting the requests made to it. */
async function open({ width = 1280, stripeJs = 'stub' }: { width?: number; stripeJs?: 'stub' | 'abort' } = {}) {
  const context = await browser.newContext({ viewport: { width, height: 844 } });
  const page = await context.newPage();
  const errors: string[] = [];
  const stripeRequests: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.route('https://js.stripe.com/**', (route) => {
    stripeRequests.push(route.request().url());
    return stripeJs === 'stub'
      ? route.fulfill({ contentType: 'application/javascript', body: STRIPE_JS_STUB })
      : route.abort();
  });
  return { context, page, errors, stripeRequests };
}

const card = (page: Page, title: string) =>
  page.locator('.p-card', { has: page.getByRole('heading', { name: title, exact: true }) });
/** The newest snackbar with the text (an earlier one may still be showing). */
const snackbar = (page: Page, text: string) => page.locator('.beacon-snackbar', { hasText: text }).last();
const seats = (page: Page) => page.getByLabel('Seats', { exact: true });
const cardItem = (page: Page, text: string) =>
  page.getByRole('list', { name: 'Payment methods' }).getByRole('listitem').filter({ hasText: text });

describe('Billing in the browser', () => {
  it('lets an owner subscribe, change seats and card, see invoices, manage cards and cancel', async () => {
    const { context, page, errors, stripeRequests } = await open();
    await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);
    // Stripe.js is loaded by the payment form only.
    expect(stripeRequests).toEqual([]);

    await page.goto(url('/billing'));
    await page.getByText('You are currently not subscribed to any plan').waitFor();
    await page.getByText('2 of 5 seats in use').waitFor();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Billing').waitFor();
    await screenshot(page, 'billing-none-desktop');
    await page.getByRole('link', { name: 'Select Plan' }).click();
    await page.waitForURL(url('/billing/create-subscription'));
    await page.getByRole('heading', { name: 'Subscription Details' }).waitFor();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Susbcription').waitFor();

    // Plans: team is chosen; seats start at 1 and go up to the plan's 20.
    const team = page.getByRole('region', { name: 'Team plan' });
    const business = page.getByRole('region', { name: 'Business plan' });
    await team.getByRole('button', { name: 'selected' }).waitFor();
    await business.getByRole('button', { name: 'select', exact: true }).waitFor();
    await team.getByText('20 users').waitFor();
    await business.getByText('Unlimited users').waitFor();
    await expect.poll(() => seats(page).inputValue()).toBe('1');
    await expect.poll(() => page.getByRole('button', { name: 'Remove a seat' }).isDisabled()).toBe(true);
    await seats(page).fill('20');
    await expect.poll(() => page.getByRole('button', { name: 'Add a seat' }).isDisabled()).toBe(true);
    await business.getByRole('button', { name: 'select', exact: true }).click();
    await business.getByRole('button', { name: 'selected' }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Add a seat' }).isDisabled()).toBe(false);
    await page.getByRole('button', { name: 'Add a seat' }).click();
    await expect.poll(() => seats(page).inputValue()).toBe('21');
    // Back to team: 21 seats are clamped to its 20.
    await team.getByRole('button', { name: 'select', exact: true }).click();
    await expect.poll(() => seats(page).inputValue()).toBe('20');
    await seats(page).fill('2');
    await page.getByRole('button', { name: 'Add a seat' }).click();
    await expect.poll(() => seats(page).inputValue()).toBe('3');
    await page.getByText('$60.00').waitFor();

    // The card field is Stripe's (the stub's input); a wrong number is Stripe's message.
    const number = page.getByLabel('Card number');
    await number.fill('4000 0000 0000 0069');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByText('Your card number is invalid.').waitFor();
    // A declined card: the spec's notice, and why.
    await number.fill(DECLINED);
    await page.getByRole('button', { name: 'Pay' }).click();
    await snackbar(page, 'There was an error while creating your subscription').waitFor();
    await page
      .getByRole('alert')
      .filter({ hasText: /declined/i })
      .waitFor();
    expect(page.url()).toBe(url('/billing/create-subscription'));

    await number.fill(VISA);
    await screenshot(page, 'billing-payment-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'billing-payment-mobile');
    await page.setViewportSize({ width: 1280, height: 844 });
    await page.getByRole('button', { name: 'Pay' }).click();
    await snackbar(page, 'Your subscription has been updated').waitFor();
    await page.waitForURL(url('/billing'));
    const plan = card(page, 'Plan Details');
    await plan.getByText('Team', { exact: true }).waitFor();
    await plan.getByText('3', { exact: true }).waitFor();
    await card(page, 'Payments').getByText('$60.00', { exact: true }).waitFor();
    await card(page, 'Payment Method').getByText('Visa ending in 4242').waitFor();
    await card(page, 'End Subscription').getByText('Upon cancelling, you will return to the free plan.').waitFor();
    await page.getByText('2 of 3 seats in use').waitFor();
    expect(stripeRequests.length).toBeGreaterThan(0);
    expect(stripeRequests.every((request) => request.startsWith('https://js.stripe.com/endive/stripe.js'))).toBe(true);
    expect(
      await page.evaluate(() => (window as unknown as { __stripeStub: { keys: string[] } }).__stripeStub.keys),
    ).toEqual(['pk_test_beacon']);

    // Change Plan: the current plan and seats are chosen, the saved card pays unless a new one is entered.
    await plan.getByRole('link', { name: 'Change Plan' }).click();
    await page.waitForURL(url('/billing/update-subscription'));
    await team.getByRole('button', { name: 'selected' }).waitFor();
    await expect.poll(() => seats(page).inputValue()).toBe('3');
    await page.getByRole('radio', { name: 'Visa ending in 4242 (default)' }).waitFor();
    await expect.poll(() => page.getByRole('radio', { name: 'Visa ending in 4242 (default)' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Add a seat' }).click();
    await page.getByText('Next invoice with this change:').waitFor();
    await page.getByText('Use a new card').click();
    await page.getByLabel('Card number').fill(MASTERCARD);
    await screenshot(page, 'billing-update-desktop');
    await page.getByRole('button', { name: 'Pay' }).click();
    await snackbar(page, 'Your subscription has been updated').waitFor();
    await page.waitForURL(url('/billing'));
    await plan.getByText('4', { exact: true }).waitFor();
    await card(page, 'Payment Method').getByText('Mastercard ending in 4444').waitFor();
    await screenshot(page, 'billing-active-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'billing-active-mobile');
    await page.setViewportSize({ width: 1280, height: 844 });
    expect(await seriousViolations(page)).toEqual([]);

    // Invoices: newest first, each opening Stripe's hosted page in a new tab.
    await card(page, 'Payments').getByRole('link', { name: 'View Invoices' }).click();
    await page.waitForURL(url('/billing/invoices'));
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Invoices').waitFor();
    const invoices = page.getByRole('table', { name: 'Invoices' });
    await invoices.waitFor();
    expect(await invoices.locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
    await invoices.getByText('$60.00', { exact: true }).first().waitFor();
    await invoices
      .getByText(/^\d{2}\/\d{2}\/\d{4}$/)
      .first()
      .waitFor();
    const link = invoices.getByRole('link', { name: 'View Invoice' }).first();
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await link.getAttribute('href')).toMatch(/^https?:\/\//);
    await screenshot(page, 'billing-invoices-desktop');

    // Payment methods: the Mastercard entered on the update screen is the default; make the Visa the default again,
    // then remove the Mastercard.
    await page.goto(url('/billing'));
    await card(page, 'Payment Method').getByRole('link', { name: 'Manage Payment Methods' }).click();
    await page.waitForURL(url('/billing/manage-payment-methods'));
    const mastercard = cardItem(page, 'Mastercard');
    const visa = cardItem(page, '4242');
    await mastercard.getByText('(default)').waitFor();
    await mastercard.getByText('ending in 4444').waitFor();
    await mastercard.getByText('08/31').waitFor();
    expect(await mastercard.getByRole('button', { name: 'Set as Default' }).count()).toBe(0);
    await visa.getByText('12/30').waitFor();
    await screenshot(page, 'billing-payment-methods-desktop');
    await visa.getByRole('button', { name: 'Set as Default' }).click();
    await snackbar(page, 'Your default card has been changed').waitFor();
    await visa.getByText('(default)').waitFor();
    await expect.poll(() => mastercard.getByText('(default)').count()).toBe(0);
    expect(await page.getByText('(default)').count()).toBe(1);
    await mastercard.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await snackbar(page, 'Your card has been removed').waitFor();
    await mastercard.waitFor({ state: 'detached' });
    await page.goto(url('/billing'));
    await card(page, 'Payment Method').getByText('Visa ending in 4242').waitFor();

    // Cancel: at the end of the paid period; until then 'Subscription Cancelled'.
    await card(page, 'End Subscription').getByRole('button', { name: 'Cancel Subscription' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel Subscription' }).click();
    await snackbar(page, 'Your subscription has been cancelled').waitFor();
    const cancelled = card(page, 'Subscription Cancelled');
    await cancelled.getByText('Team', { exact: true }).waitFor();
    await cancelled.getByText('4', { exact: true }).waitFor();
    await cancelled.getByText(/^\d{2}\/\d{2}\/\d{4}$/).waitFor();
    await cancelled.getByRole('link', { name: 'Select Plan' }).waitFor();
    await cancelled.getByRole('link', { name: 'View Previous Invoices' }).waitFor();
    await screenshot(page, 'billing-cancelled-desktop');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits a 390 px screen', async () => {
    const { context, page, errors } = await open({ width: 390 });
    await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);
    const screens: Array<[string, string]> = [
      ['/billing', 'billing-cancelled-mobile'],
      ['/billing/update-subscription', 'billing-update-mobile'],
      ['/billing/invoices', 'billing-invoices-mobile'],
      ['/billing/manage-payment-methods', 'billing-payment-methods-mobile'],
    ];
    for (const [path, name] of screens) {
      await page.goto(url(path));
      await settled(page);
      expect(await horizontalOverflow(page), path).toBeLessThanOrEqual(0);
      await screenshot(page, name);
    }
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says so when Stripe.js cannot be loaded, and when offline', async () => {
    const { context, page, errors, stripeRequests } = await open({ stripeJs: 'abort' });
    await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);
    await page.goto(url('/billing/update-subscription'));
    await snackbar(page, 'There was an error while loading stripe').waitFor();
    expect(stripeRequests.length).toBeGreaterThanOrEqual(1);
    // The page stays usable: Cancel goes back to the overview.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(url('/billing'));
    await card(page, 'Subscription Cancelled').waitFor();

    // Billing is online-only: offline it says so instead of showing what it last saw.
    await context.setOffline(true);
    await page.getByText('Billing is not available offline').waitFor();
    expect(await page.getByText('Subscription Cancelled').count()).toBe(0);
    await context.setOffline(false);
    await card(page, 'Subscription Cancelled').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('suspends the workspace when Stripe gives up on the subscription: a member sees Workspace Suspended', async () => {
    const [subscription] = [...stripe.subscriptions.values()].filter((sub) => sub.status === 'active');
    expect(subscription).toBeDefined();
    stripe.setSubscriptionStatus(subscription!.id, 'past_due');
    stripe.setSubscriptionStatus(subscription!.id, 'unpaid');
    await stripe.delivered();
    const deliveries = stripe.deliveries.filter((delivery) =>
      JSON.stringify(delivery.event.data.object).includes(subscription!.id),
    );
    expect(deliveries.length).toBeGreaterThanOrEqual(2);
    expect(
      deliveries
        .filter((delivery) => delivery.status < 200 || delivery.status >= 300)
        .map((delivery) => `${delivery.event.type}: ${delivery.status}`),
    ).toEqual([]);

    const workspace = await apiCall(beacon, 'demo', 'GET', '/workspace');
    expect((workspace.body as { status: string }).status).toBe('suspended');

    const { context, page, errors } = await open();
    await page.goto(url('/login'));
    await page.getByLabel('Email').fill(MEMBER.email);
    await page.getByLabel('Password').fill(MEMBER.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page
      .getByText('Workspace Suspended')
      .waitFor({ timeout: 10_000 })
      .catch(async (error: unknown) => {
        await screenshot(page, 'billing-suspended-member-failure');
        throw error;
      });
    await screenshot(page, 'billing-suspended-member');
    await context.close();

    // An owner still gets in, to billing only.
    const owner = await open();
    await owner.page.goto(url('/login'));
    await owner.page.getByLabel('Email').fill(OWNER.email);
    await owner.page.getByLabel('Password').fill(OWNER.password);
    await owner.page.getByRole('button', { name: 'Log In' }).click();
    await owner.page.waitForURL(url('/billing'));
    await owner.page.goto(url('/services'));
    await owner.page.waitForURL(url('/billing'));
    await owner.page.getByRole('heading', { name: 'Billing', exact: true }).waitFor();
    await owner.context.close();
    expect([...errors, ...owner.errors]).toEqual([]);
  });
});
