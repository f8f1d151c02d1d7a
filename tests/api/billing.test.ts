import { callersOf } from '../../src/server/cache/caller-cache.js';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingAccount, Invoice, PaymentMethod, SubscriptionInformation } from '../../src/contract/billing.js';
import { seatLimitMessage } from '../../src/domain/billing.js';
import { seedWorkspace, workspaceIdOf } from '../support/fixtures.js';
import { linkIn } from '../support/mail-catcher.js';
import { signedWebhook, StripeStandIn } from '../support/stripe-stand-in.js';
import {
  callAs,
  hostOf,
  json,
  registerWorkspace,
  startTestServer,
  STRONG_PASSWORD,
  type Member,
  type Method,
  type TestServer,
} from '../support/server.js';

/**
 * Issue 17 and docs/decisions.md#integrations: billing through the real `stripe` SDK against a local stand-in of
 * Stripe's REST API (BEACON_STRIPE_API_URL), with Stripe's signed webhooks sent to the listening server.
 */
const ACTIONS = '/api/account/subscriptions/actions';
const WEBHOOK_SECRET = 'whsec_beacon_test';

describe('billing switched off', () => {
  let server: TestServer;
  let owner: Member;
  beforeAll(async () => {
    server = await startTestServer();
    owner = await registerWorkspace(server, 'freeco');
  });
  afterAll(() => server.close());

  it('says so, refuses the actions and the webhook, and limits nothing', async () => {
    const account = json<BillingAccount>(await callAs(server, owner, 'GET', '/api/account'));
    expect(account).toEqual({
      billing: { configured: false, publishable_key: null },
      seats: { limit: null, used: 1 },
      stripe: { subscription: null },
    });
    const create = await callAs(server, owner, 'POST', `${ACTIONS}/create-subscription`, {
      plan: 'team',
      payment_method_id: 'pm_card_visa',
      quantity: 2,
    });
    expect(create.statusCode).toBe(409);
    expect(json(create)).toEqual({ message: 'Billing is not configured on this server' });
    const webhook = await server.app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: {} });
    expect(webhook.statusCode).toBe(404);
    // Seven people in all: more than the free plan's five, since nothing is limited.
    for (let n = 1; n <= 6; n++) {
      const invite = await callAs(server, owner, 'POST', '/api/invites', { email: `p${n}@freeco.example` });
      expect(invite.statusCode).toBe(201);
    }
  });
});

describe('billing', () => {
  let server: TestServer;
  let stripe: StripeStandIn;
  let owner: Member;
  let admin: Member;
  let member: Member;
  let guest: Member;
  let other: Member;
  const call = (actor: Member, method: Method, url: string, payload?: object) =>
    callAs(server, actor, method, url, payload);
  const action = (actor: Member, name: string, payload: object = {}) =>
    call(actor, 'POST', `${ACTIONS}/${name}`, payload);
  const account = async (actor: Member = owner) => json<BillingAccount>(await call(actor, 'GET', '/api/account'));
  const workspaceStatus = async (domain: string) =>
    (
      await server.ctx.database.db
        .selectFrom('workspaces')
        .select('status')
        .where('domain', '=', domain)
        .executeTakeFirstOrThrow()
    ).status;

  beforeAll(async () => {
    stripe = new StripeStandIn();
    const stripeUrl = await stripe.start();
    server = await startTestServer({
      BEACON_STRIPE_SECRET_KEY: 'sk_test_beacon',
      BEACON_STRIPE_PUBLISHABLE_KEY: 'pk_test_beacon',
      BEACON_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      BEACON_STRIPE_API_URL: stripeUrl,
    });
    // Stripe posts its webhooks over HTTP, so this server listens.
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (server.app.server.address() as AddressInfo).port;
    stripe.webhook(`http://127.0.0.1:${port}/api/stripe/webhook`, WEBHOOK_SECRET);
    // Five members: the free plan's seats, all taken.
    ({ owner, admin, teamMember: member, guest, outsider: other } = await seedWorkspace(server, { domain: 'payco' }));
  });
  afterAll(async () => {
    await stripe.close();
    await server.close();
  });

  it('shows owners and admins the free plan, full; members and guests are refused', async () => {
    expect(await account()).toEqual({
      billing: { configured: true, publishable_key: 'pk_test_beacon' },
      seats: { limit: 5, used: 5 },
      stripe: { subscription: null },
    });
    expect((await call(admin, 'GET', '/api/account')).statusCode).toBe(200);
    for (const actor of [member, guest]) {
      for (const [method, url] of [
        ['GET', '/api/account'],
        ['GET', '/api/account/invoices'],
        ['POST', `${ACTIONS}/list-payment-methods`],
        ['POST', `${ACTIONS}/cancel-subscription`],
      ] as const) {
        const response = await call(actor, method, url, method === 'POST' ? {} : undefined);
        expect(response.statusCode, `${actor.handle} ${url}`).toBe(403);
        expect(json(response)).toEqual({ message: 'Only workspace owners and admins can manage billing' });
      }
    }
    // The free plan's five seats are taken: a sixth person cannot be invited.
    const invite = await call(owner, 'POST', '/api/invites', { email: 'sixth@payco.example' });
    expect(invite.statusCode).toBe(402);
    expect(json(invite)).toEqual({ message: seatLimitMessage(5) });
  });

  it('refuses bad subscriptions and changes nothing', async () => {
    const bad: Array<[object, number, string | RegExp]> = [
      [{ plan: 'team', payment_method_id: 'pm_card_visa', quantity: 0 }, 400, /quantity/],
      [{ plan: 'team', payment_method_id: 'pm_card_visa', quantity: 21 }, 400, 'The Team plan has at most 20 seats'],
      [{ plan: 'gold', payment_method_id: 'pm_card_visa', quantity: 6 }, 400, /plan/],
      [{ plan: 'team', payment_method_id: 'card_123', quantity: 6 }, 400, /payment_method_id/],
      [{ plan: 'team', payment_method_id: 'pm_card_visa', quantity: 6, coupon: 'free' }, 400, /coupon/],
      [
        { plan: 'team', payment_method_id: 'pm_card_visa', quantity: 3 },
        400,
        'The workspace uses 5 seats (members and pending invites); buy at least 5',
      ],
      [{ plan: 'team', payment_method_id: 'pm_card_chargeDeclined', quantity: 6 }, 402, 'Your card was declined.'],
    ];
    for (const [body, status, message] of bad) {
      const response = await action(owner, 'create-subscription', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      const text = JSON.stringify(json(response));
      if (typeof message === 'string') expect(json<{ message: string }>(response).message).toBe(message);
      else expect(text).toMatch(message);
    }
    expect((await account()).stripe.subscription).toBeNull();
    expect([...stripe.subscriptions.values()].filter((sub) => sub.status !== 'canceled')).toEqual([]);
    expect((await action(owner, 'cancel-subscription')).statusCode).toBe(404);
    expect((await action(owner, 'retrieve-subscription-information')).statusCode).toBe(404);
  });

  it('subscribes with a card, and the seats follow', async () => {
    const created = await action(owner, 'create-subscription', {
      plan: 'team',
      payment_method_id: 'pm_card_visa',
      quantity: 6,
    });
    expect(created.statusCode).toBe(201);
    const body = json<BillingAccount>(created);
    expect(body.seats).toEqual({ limit: 6, used: 5 });
    expect(body.stripe.subscription).toMatchObject({
      status: 'active',
      plan: 'team',
      seats: 6,
      product: { name: 'Team' },
      cancel_at_period_end: false,
    });
    expect(body.stripe.subscription!.period_end).toBeGreaterThan(Date.now() / 1000 + 25 * 86400);
    // One customer for the workspace, named after it, with the card as its default.
    expect([...stripe.customers.values()]).toHaveLength(1);
    const [customer] = [...stripe.customers.values()];
    expect(customer!.metadata).toMatchObject({ workspace_id: expect.any(String) });
    // A second subscription beside the first is refused.
    const again = await action(admin, 'create-subscription', {
      plan: 'team',
      payment_method_id: 'pm_card_visa',
      quantity: 6,
    });
    expect(again.statusCode).toBe(409);

    // The sixth seat takes an invite; the seventh is refused.
    expect((await call(owner, 'POST', '/api/invites', { email: 'sixth@payco.example' })).statusCode).toBe(201);
    const seventh = await call(owner, 'POST', '/api/invites', { email: 'seventh@payco.example' });
    expect(seventh.statusCode).toBe(402);
    expect(json(seventh)).toEqual({ message: seatLimitMessage(6) });

    const info = json<SubscriptionInformation>(await action(owner, 'retrieve-subscription-information'));
    expect(info).toMatchObject({
      current_quantity: 6,
      plan: 'team',
      product_description: 'Team plan: $20 per user per month, up to 20 users',
      latest_invoice: { amount_due: 12000, status: 'paid' },
      upcoming_invoice: { amount_due: 12000, next_payment_attempt: body.stripe.subscription!.period_end },
      card: { brand: 'visa', last4: '4242' },
    });
    const invoices = json<Invoice[]>(await call(admin, 'GET', '/api/account/invoices'));
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      amount_due: 12000,
      status: 'paid',
      hosted_invoice_url: expect.stringMatching(/^http/),
    });
  });

  it('changes plan and seats, never below the seats in use, with a new card as default', async () => {
    const preview = json<{ amount_due: number }>(
      await action(owner, 'retrieve-upcoming-invoice', { plan: 'business', quantity: 8 }),
    );
    expect(preview.amount_due).toBe(24000);
    const tooFew = await action(owner, 'update-subscription', { plan: 'team', quantity: 5 });
    expect(tooFew.statusCode).toBe(400);
    expect(json(tooFew)).toMatchObject({
      message: 'The workspace uses 6 seats (members and pending invites); buy at least 6',
    });
    expect((await action(owner, 'update-subscription', { plan: 'team', quantity: 25 })).statusCode).toBe(400);

    const updated = await action(owner, 'update-subscription', {
      plan: 'business',
      quantity: 8,
      payment_method_id: 'pm_card_mastercard',
    });
    expect(updated.statusCode).toBe(200);
    expect(json<BillingAccount>(updated).stripe.subscription).toMatchObject({
      plan: 'business',
      seats: 8,
      product: { name: 'Business' },
    });
    expect(json<BillingAccount>(updated).seats).toEqual({ limit: 8, used: 6 });
    // The prorated change is invoiced.
    expect(json<Invoice[]>(await call(owner, 'GET', '/api/account/invoices')).length).toBe(2);

    const cards = json<PaymentMethod[]>(await action(owner, 'list-payment-methods'));
    expect(cards.map((card) => [card.card.brand, card.card.last4, card.default]).sort()).toEqual([
      ['mastercard', '4444', true],
      ['visa', '4242', false],
    ]);
    const visa = cards.find((card) => card.card.brand === 'visa')!;
    const mastercard = cards.find((card) => card.card.brand === 'mastercard')!;
    expect(json(await action(owner, 'retrieve-payment-method', { payment_method_id: visa.id }))).toEqual(visa);

    // The default card pays the subscription: it cannot be removed; another can be made the default.
    expect((await action(owner, 'detach-payment-method', { id: mastercard.id })).statusCode).toBe(409);
    const switched = json<PaymentMethod[]>(await action(admin, 'update-default-payment-method', { id: visa.id }));
    expect(switched.filter((card) => card.default).map((card) => card.id)).toEqual([visa.id]);
    expect((await action(owner, 'detach-payment-method', { id: mastercard.id })).statusCode).toBe(204);
    expect(json<PaymentMethod[]>(await action(owner, 'list-payment-methods')).map((card) => card.id)).toEqual([
      visa.id,
    ]);
  });

  it('never shows or touches another workspace’s cards and invoices', async () => {
    // The other workspace subscribes too, with its own card.
    expect(
      (await action(other, 'create-subscription', { plan: 'team', payment_method_id: 'pm_card_visa', quantity: 1 }))
        .statusCode,
    ).toBe(201);
    const [theirs] = json<PaymentMethod[]>(await action(other, 'list-payment-methods'));
    const [theirInvoice] = json<Invoice[]>(await call(other, 'GET', '/api/account/invoices'));
    for (const [name, body] of [
      ['retrieve-payment-method', { payment_method_id: theirs!.id }],
      ['update-default-payment-method', { id: theirs!.id }],
      ['detach-payment-method', { id: theirs!.id }],
      ['retry-invoice', { invoice_id: theirInvoice!.id, payment_method_id: 'pm_card_visa' }],
    ] as const) {
      const response = await action(owner, name, body);
      expect(response.statusCode, name).toBe(404);
    }
    expect(json<PaymentMethod[]>(await action(other, 'list-payment-methods')).map((card) => card.id)).toEqual([
      theirs!.id,
    ]);
    expect(json<Invoice[]>(await call(owner, 'GET', '/api/account/invoices')).map((i) => i.id)).not.toContain(
      theirInvoice!.id,
    );
  });

  it('checks the webhook signature against the exact bytes', async () => {
    const payload = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'customer.subscription.updated',
      data: { object: {} },
    });
    const post = (body: string, signature?: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
        payload: body,
      });
    expect((await post(payload)).statusCode).toBe(400);
    const wrong = await post(payload, signedWebhook(payload, 'whsec_someone_else'));
    expect(wrong.statusCode).toBe(400);
    expect(json<{ message: string }>(wrong).message).toMatch(/signature/);
    // Signed, then changed in transit.
    const changed = await post(payload.replace('evt_forged', 'evt_changed'), signedWebhook(payload, WEBHOOK_SECRET));
    expect(changed.statusCode).toBe(400);
    const rows = await server.ctx.database.db
      .selectFrom('stripe_events')
      .select('id')
      .where('id', 'in', ['evt_forged', 'evt_changed'])
      .execute();
    expect(rows).toEqual([]);
  });

  it('suspends the workspace when Stripe gives up on payment, and brings it back when paid', async () => {
    const subscriptionId = (await account()).stripe.subscription!.id;
    // A failed renewal: past due, still in (Stripe retries the card).
    const invoice = stripe.renew(subscriptionId, { paid: false });
    await stripe.delivered();
    expect((await account()).stripe.subscription!.status).toBe('past_due');
    expect(await workspaceStatus('payco')).toBe('active');

    stripe.setSubscriptionStatus(subscriptionId, 'unpaid');
    await stripe.delivered();
    expect(await workspaceStatus('payco')).toBe('suspended');
    const refused = await call(member, 'GET', '/api/search/services');
    expect(refused.statusCode).toBe(403);
    expect(json(refused)).toEqual({ message: 'Workspace Suspended' });
    // Admins still get in, to fix billing.
    expect((await call(admin, 'GET', '/api/account')).statusCode).toBe(200);

    // Paying the open invoice makes the workspace active again.
    const paid = await action(admin, 'retry-invoice', { invoice_id: invoice.id, payment_method_id: 'pm_card_visa' });
    expect(paid.statusCode).toBe(200);
    expect(json<Invoice>(paid).status).toBe('paid');
    await stripe.delivered();
    expect(await workspaceStatus('payco')).toBe('active');
    expect((await call(member, 'GET', '/api/search/services')).statusCode).toBe(200);
  });

  it('applies a redelivered webhook once', async () => {
    const subscriptionId = (await account()).stripe.subscription!.id;
    stripe.setSubscriptionStatus(subscriptionId, 'unpaid');
    await stripe.delivered();
    expect(await workspaceStatus('payco')).toBe('suspended');
    const unpaidEvent = [...stripe.events.values()]
      .filter((event) => event.type === 'customer.subscription.updated')
      .at(-1)!;
    // The operator lifts the suspension by hand; the same event again must not undo that.
    await server.ctx.database.db
      .updateTable('workspaces')
      .set({ status: 'active' })
      .where('domain', '=', 'payco')
      .execute();
    callersOf(server.ctx).forgetWorkspace(await workspaceIdOf(server, 'payco'));
    await stripe.redeliver(unpaidEvent.id);
    expect(stripe.deliveries.filter((delivery) => delivery.event.id === unpaidEvent.id).map((d) => d.status)).toEqual([
      200, 200,
    ]);
    expect(await workspaceStatus('payco')).toBe('active');
    const recorded = await server.ctx.database.db
      .selectFrom('stripe_events')
      .select('id')
      .where('id', '=', unpaidEvent.id)
      .execute();
    expect(recorded).toHaveLength(1);
    stripe.setSubscriptionStatus(subscriptionId, 'active');
    await stripe.delivered();
  });

  it('suspends on cancellation after a failed payment, not after an ordinary one', async () => {
    const theirs = (await account(other)).stripe.subscription!.id;
    stripe.setSubscriptionStatus(theirs, 'past_due');
    stripe.setSubscriptionStatus(theirs, 'canceled');
    await stripe.delivered();
    expect(await workspaceStatus(other.domain)).toBe('suspended');

    // Payco cancels at the period's end: 'Subscription Cancelled' until then, then the free plan, not suspended.
    const cancelled = json<BillingAccount>(await action(owner, 'cancel-subscription'));
    expect(cancelled.stripe.subscription).toMatchObject({ status: 'active', cancel_at_period_end: true, seats: 8 });
    expect(cancelled.seats.limit).toBe(8);
    stripe.setSubscriptionStatus(cancelled.stripe.subscription!.id, 'canceled');
    await stripe.delivered();
    expect(await workspaceStatus('payco')).toBe('active');
    const free = await account();
    expect(free.stripe.subscription!.status).toBe('canceled');
    expect(free.seats).toEqual({ limit: 5, used: 6 });
  });

  it('refuses a join when the plan has fewer seats than are in use', async () => {
    // Back on the free plan with six in use (five members and the pending invite): the invitee cannot join.
    const mail = await server.mail.waitFor('sixth@payco.example');
    const link = linkIn(mail, /http\S+\/invite\/\S+/);
    const join = () =>
      server.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { host: hostOf('payco') },
        payload: {
          workspace: 'payco',
          invite: { id: link.pathname.split('/').pop(), code: link.searchParams.get('code') },
          user: { name: 'Sixth', handle: 'sixth', password: STRONG_PASSWORD },
        },
      });
    const refused = await join();
    expect(refused.statusCode).toBe(402);
    expect(json(refused)).toEqual({ message: seatLimitMessage(5) });
    expect((await account()).seats.used).toBe(6);

    // Six seats bought again: the same invite now joins.
    const again = await action(owner, 'create-subscription', {
      plan: 'team',
      payment_method_id: 'pm_card_visa',
      quantity: 6,
    });
    expect(again.statusCode).toBe(201);
    expect((await join()).statusCode).toBe(201);
    expect((await account()).seats).toEqual({ limit: 6, used: 6 });
  });
});
