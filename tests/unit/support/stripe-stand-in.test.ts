import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedWebhook, StripeStandIn } from '../../support/stripe-stand-in.js';

/**
 * The Stripe stand-in (tests/support/stripe-stand-in.ts), driven only through the real `stripe` SDK configured the
 * way Beacon's server configures it, plus a webhook receiver that verifies every delivery with the SDK.
 */
const SECRET = 'whsec_stand_in_test';
let standIn: StripeStandIn;
let stripe: Stripe;
let receiver: Server;
const received: Array<{ body: string; signature: string }> = [];

const client = (url: string, key = 'sk_test_beacon') =>
  new Stripe(key, {
    host: '127.0.0.1',
    port: Number(new URL(url).port),
    protocol: 'http',
    maxNetworkRetries: 1,
    telemetry: false,
  });
const verified = () => received.map((r) => stripe.webhooks.constructEvent(r.body, r.signature, SECRET));

beforeAll(async () => {
  receiver = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    received.push({ body, signature: String(request.headers['stripe-signature']) });
    response.writeHead(200).end('{}');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  standIn = new StripeStandIn({
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/stripe/webhook`,
    webhookSecret: SECRET,
  });
  stripe = client(await standIn.start());
});
afterAll(async () => {
  await standIn.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('Stripe stand-in through the real SDK', () => {
  let team: Stripe.Price;
  let customer: Stripe.Customer;
  let visa: Stripe.PaymentMethod;
  let subscription: Stripe.Subscription;

  it('refuses a request without a test secret key', async () => {
    const error = await client(standIn.url, 'nope')
      .customers.retrieve('cus_x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((error as Stripe.errors.StripeError).statusCode).toBe(401);
  });

  it('starts without prices, creates them and finds them by lookup key with the product expanded', async () => {
    const query = { lookup_keys: ['beacon_team', 'beacon_business'], expand: ['data.product'], active: true };
    expect((await stripe.prices.list(query)).data).toEqual([]);
    const product = await stripe.products.create({ name: 'Beacon Team', description: 'Per seat' });
    team = await stripe.prices.create({
      product: product.id,
      unit_amount: 2000,
      currency: 'usd',
      recurring: { interval: 'month' },
      lookup_key: 'beacon_team',
    });
    const prices = await stripe.prices.list(query);
    expect(prices).toMatchObject({ object: 'list', has_more: false, url: '/v1/prices' });
    expect(prices.data).toHaveLength(1);
    expect(prices.data[0]).toMatchObject({ id: team.id, unit_amount: 2000, lookup_key: 'beacon_team' });
    expect(prices.data[0]!.product).toMatchObject({ id: product.id, object: 'product', name: 'Beacon Team' });
  });

  it('creates, retrieves and updates customers, and answers 404 for unknown ids', async () => {
    customer = await stripe.customers.create({ name: 'Acme', email: 'a@acme.test', metadata: { workspace_id: 'w1' } });
    expect(customer).toMatchObject({ object: 'customer', metadata: { workspace_id: 'w1' } });
    expect(customer.invoice_settings.default_payment_method).toBeNull();
    expect((await stripe.customers.retrieve(customer.id)).id).toBe(customer.id);
    const missing = await stripe.customers.retrieve('cus_missing').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('attaches test cards as new payment methods, lists, retrieves and detaches them', async () => {
    visa = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    expect(visa.id).toMatch(/^pm_[0-9a-f]+$/);
    expect(visa).toMatchObject({ object: 'payment_method', type: 'card', customer: customer.id });
    expect(visa.card).toMatchObject({ brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 });
    expect((await stripe.paymentMethods.attach(visa.id, { customer: customer.id })).id).toBe(visa.id);
    const master = await stripe.paymentMethods.attach('pm_card_mastercard', { customer: customer.id });
    expect(master.card).toMatchObject({ brand: 'mastercard', last4: '4444', exp_month: 8, exp_year: 2031 });

    const listed = await stripe.paymentMethods.list({ customer: customer.id, type: 'card' });
    expect(listed.data.map((pm) => pm.id).sort()).toEqual([visa.id, master.id].sort());
    const viaCustomer = await stripe.customers.listPaymentMethods(customer.id, { type: 'card' });
    expect(viaCustomer.data).toHaveLength(2);
    expect((await stripe.paymentMethods.retrieve(master.id)).card?.last4).toBe('4444');

    await stripe.paymentMethods.detach(master.id);
    expect((await stripe.paymentMethods.retrieve(master.id)).customer).toBeNull();
    expect((await stripe.customers.listPaymentMethods(customer.id, { type: 'card' })).data).toHaveLength(1);
    await expect(stripe.paymentMethods.retrieve('pm_nope')).rejects.toMatchObject({ statusCode: 404 });

    const updated = await stripe.customers.update(customer.id, {
      invoice_settings: { default_payment_method: visa.id },
    });
    expect(updated.invoice_settings.default_payment_method).toBe(visa.id);
    const expanded = await stripe.customers.retrieve(customer.id, {
      expand: ['invoice_settings.default_payment_method'],
    });
    expect((expanded as Stripe.Customer).invoice_settings.default_payment_method).toMatchObject({ id: visa.id });
  });

  it('creates a subscription charged at once, with the period on its item', async () => {
    subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: team.id, quantity: 3 }],
      default_payment_method: visa.id,
      metadata: { workspace_id: 'w1' },
      expand: ['latest_invoice'],
    });
    expect(subscription.status).toBe('active');
    const item = subscription.items.data[0]!;
    expect(item).toMatchObject({ quantity: 3, price: { id: team.id, unit_amount: 2000 } });
    expect(item.current_period_end - item.current_period_start).toBe(30 * 86400);
    const invoice = subscription.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ object: 'invoice', status: 'paid', amount_due: 6000, amount_paid: 6000 });
    expect(invoice.parent?.subscription_details?.subscription).toBe(subscription.id);
    const page = await fetch(invoice.hosted_invoice_url!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(invoice.id);
  });

  it('declines pm_card_chargeDeclined with a 402 card error and creates nothing', async () => {
    const other = await stripe.customers.create({ name: 'Broke', metadata: { workspace_id: 'w2' } });
    const bad = await stripe.paymentMethods.attach('pm_card_chargeDeclined', { customer: other.id });
    expect(bad.card).toMatchObject({ brand: 'visa', last4: '0002' });
    const count = standIn.subscriptions.size;
    const error = await stripe.subscriptions
      .create({ customer: other.id, items: [{ price: team.id, quantity: 1 }], default_payment_method: bad.id })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({ statusCode: 402, code: 'card_declined', decline_code: 'generic_decline' });
    expect(standIn.subscriptions.size).toBe(count);
  });

  it('previews, prorates a seat increase, lists invoices newest first, and retries an open invoice', async () => {
    const itemId = subscription.items.data[0]!.id;
    const preview = await stripe.invoices.createPreview({
      customer: customer.id,
      subscription: subscription.id,
      subscription_details: { items: [{ id: itemId, price: team.id, quantity: 5 }] },
    });
    expect(preview.id).toMatch(/^upcoming_in_/);
    expect(preview.amount_due).toBe(10000);
    expect(preview.next_payment_attempt).toBe(subscription.items.data[0]!.current_period_end);

    const updated = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: itemId, quantity: 5 }],
      proration_behavior: 'always_invoice',
    });
    expect(updated.items.data[0]!.quantity).toBe(5);
    const invoices = await stripe.invoices.list({ customer: customer.id, limit: 10 });
    expect(invoices.data.map((i) => [i.amount_due, i.status])).toEqual([
      [4000, 'paid'],
      [6000, 'paid'],
    ]);
    expect(updated.latest_invoice).toBe(invoices.data[0]!.id);
    const all = await stripe.invoices.list({ customer: customer.id, limit: 1 }).autoPagingToArray({ limit: 10 });
    expect(all).toHaveLength(2);

    // The customer's default card now declines: the next upgrade leaves an open invoice and a past_due subscription.
    const bad = await stripe.paymentMethods.attach('pm_card_chargeDeclined', { customer: customer.id });
    await stripe.subscriptions.update(subscription.id, { default_payment_method: bad.id });
    const failed = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: itemId, quantity: 6 }],
      expand: ['latest_invoice'],
    });
    expect(failed.status).toBe('past_due');
    const open = failed.latest_invoice as Stripe.Invoice;
    expect(open).toMatchObject({ status: 'open', amount_due: 2000 });
    await expect(stripe.invoices.pay(open.id, { payment_method: bad.id })).rejects.toMatchObject({ statusCode: 402 });
    expect((await stripe.invoices.pay(open.id, { payment_method: visa.id })).status).toBe('paid');
    expect((await stripe.invoices.retrieve(open.id)).amount_paid).toBe(2000);
    const back = await stripe.subscriptions.retrieve(subscription.id, { expand: ['latest_invoice'] });
    expect(back.status).toBe('active');
    expect((back.latest_invoice as Stripe.Invoice).id).toBe(open.id);
  });

  it('replays a repeated Idempotency-Key and refuses it with other parameters', async () => {
    const first = await stripe.customers.create({ name: 'Once' }, { idempotencyKey: 'key-1' });
    const again = await stripe.customers.create({ name: 'Once' }, { idempotencyKey: 'key-1' });
    expect(again.id).toBe(first.id);
    expect([...standIn.customers.values()].filter((c) => c.name === 'Once')).toHaveLength(1);
    const error = await stripe.customers.create({ name: 'Twice' }, { idempotencyKey: 'key-1' }).catch((e) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('sends signed webhooks after each change, can redeliver, and has test controls', async () => {
    await standIn.delivered();
    const types = verified().map((e) => e.type);
    expect(types.slice(0, 2)).toEqual(['customer.subscription.created', 'invoice.paid']);
    expect(types).toContain('invoice.payment_failed');
    expect(standIn.deliveries.every((d) => d.status === 200)).toBe(true);
    const created = verified()[0]!;
    expect(created).toMatchObject({ object: 'event', api_version: '2026-10-28.endive', livemode: false });
    expect((created.data.object as Stripe.Subscription).items.object).toBe('list');

    const count = received.length;
    await standIn.redeliver(created.id);
    expect(received).toHaveLength(count + 1);
    expect(verified().at(-1)!.id).toBe(created.id);

    const renewal = standIn.renew(subscription.id, { paid: false });
    await standIn.delivered();
    expect(renewal.status).toBe('open');
    expect(
      verified()
        .slice(-2)
        .map((e) => e.type),
    ).toEqual(['invoice.payment_failed', 'customer.subscription.updated']);
    expect((verified().at(-1)!.data.object as Stripe.Subscription).status).toBe('past_due');
    expect(verified().at(-1)!.data.previous_attributes).toMatchObject({ status: 'active' });

    standIn.setSubscriptionStatus(subscription.id, 'unpaid');
    standIn.failNextInvoice(subscription.id);
    expect(standIn.renew(subscription.id).status).toBe('open');
    await stripe.subscriptions.cancel(subscription.id);
    await standIn.delivered();
    expect(verified().at(-1)).toMatchObject({ type: 'customer.subscription.deleted' });
    expect(standIn.subscriptions.get(subscription.id)!.status).toBe('canceled');
    expect(standIn.requests).toContainEqual({ method: 'DELETE', path: `/v1/subscriptions/${subscription.id}` });

    // A forged header for a modified body fails verification.
    const body = received[0]!.body.replace('"livemode": false', '"livemode": true');
    expect(() => stripe.webhooks.constructEvent(body, received[0]!.signature, SECRET)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    expect(stripe.webhooks.constructEvent(body, signedWebhook(body, SECRET), SECRET).livemode).toBe(true);
  });
});
