import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import Stripe from 'stripe';

type Params = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Status = 'active' | 'past_due' | 'unpaid' | 'canceled' | 'incomplete' | 'incomplete_expired' | 'trialing';
const DAY = 86400;
const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
/** The fields every Stripe object has. */
const base = <O extends string>(prefix: string, object: O) => ({
  id: newId(prefix),
  object,
  created: now(),
  livemode: false as const,
});
const list = <T>(data: T[], url: string, has_more = false) => ({ object: 'list' as const, data, has_more, url });

interface StripeObject {
  id: string;
  created: number;
  livemode: false;
}
export interface StandInCustomer extends StripeObject {
  object: 'customer';
  name: string | null;
  email: string | null;
  metadata: Record<string, string>;
  invoice_settings: { default_payment_method: string | null };
}
export interface StandInPaymentMethod extends StripeObject {
  object: 'payment_method';
  type: 'card';
  customer: string | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
}
export interface StandInSubscriptionItem {
  id: string;
  object: 'subscription_item';
  subscription: string;
  created: number;
  quantity: number;
  price: Params; // Stripe always returns the item's price as the full object
  current_period_start: number;
  current_period_end: number;
}
export interface StandInSubscription extends StripeObject {
  object: 'subscription';
  customer: string;
  status: Status;
  currency: string;
  metadata: Record<string, string>;
  default_payment_method: string | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  ended_at: number | null;
  cancellation_details?: { reason: 'cancellation_requested' | 'payment_failed' | 'payment_disputed' | null };
  latest_invoice: string | null;
  items: { object: 'list'; data: StandInSubscriptionItem[]; has_more: false; url: string };
}
export interface StandInInvoice extends StripeObject {
  object: 'invoice';
  customer: string;
  currency: string;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  billing_reason: 'subscription_create' | 'subscription_update' | 'subscription_cycle';
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  total: number;
  attempt_count: number;
  hosted_invoice_url: string;
  parent: { type: 'subscription_details'; subscription_details: { subscription: string; metadata: object } };
  period_start: number;
  period_end: number;
  status_transitions: { paid_at: number | null };
  lines: ReturnType<typeof list<Params>>;
}
export interface StandInEvent extends StripeObject {
  object: 'event';
  api_version: string;
  type: string;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
}

/** Stripe's test tokens: attaching one makes a new card payment method (as Stripe does). */
const TEST_CARDS: Record<string, StandInPaymentMethod['card'] & { declines?: true }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', exp_month: 8, exp_year: 2031 },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', exp_month: 10, exp_year: 2030, declines: true },
};

class StripeError {
  constructor(
    readonly status: number,
    readonly error: Record<string, string | undefined>,
  ) {}
}
const invalid = (message: string, param?: string, code?: string) =>
  new StripeError(400, { type: 'invalid_request_error', code, message, param });
const missing = (kind: string, id: string, param = 'id') =>
  new StripeError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    param,
  });
const declined = () =>
  new StripeError(402, {
    type: 'card_error',
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
  });

/** The header Stripe puts on a webhook delivery: for tests that post forged or modified events. */
export function signedWebhook(payload: string, secret: string): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret });
}

/**
 * A local, stateful stand-in for Stripe's REST API (docs/decisions.md#integrations), spoken to by the real `stripe` SDK:
 * form-encoded bracket params, Idempotency-Key replay, Stripe's error and list shapes, and signed webhooks sent
 * after each state change. Only the calls Beacon's billing makes; API version basil+ shapes.
 */
export class StripeStandIn {
  readonly products = new Map<string, Params>();
  readonly prices = new Map<string, Params>();
  readonly customers = new Map<string, StandInCustomer>();
  readonly paymentMethods = new Map<string, StandInPaymentMethod>();
  readonly subscriptions = new Map<string, StandInSubscription>();
  readonly invoices = new Map<string, StandInInvoice>();
  readonly events = new Map<string, StandInEvent>();
  readonly requests: Array<{ method: string; path: string }> = [];
  readonly deliveries: Array<{ event: StandInEvent; status: number }> = [];
  url = '';
  private server: Server | undefined;
  private readonly declining = new Set<string>();
  private readonly failNext = new Set<string>();
  private readonly idempotent = new Map<string, { params: string; status: number; body: string }>();
  private pending: StandInEvent[] = [];
  private queue: Promise<void> = Promise.resolve();
  private webhookUrl: string | undefined;
  private webhookSecret: string | undefined;

  constructor(options: { webhookUrl?: string; webhookSecret?: string } = {}) {
    this.webhook(options.webhookUrl, options.webhookSecret);
  }

  /** Where (and with which signing secret) events go; without a URL they are only recorded. */
  webhook(url: string | undefined, secret = this.webhookSecret ?? 'whsec_test'): void {
    this.webhookUrl = url;
    this.webhookSecret = secret;
  }

  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    await this.delivered();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Resolves once every queued webhook delivery has been answered (or failed). */
  async delivered(): Promise<void> {
    for (let seen: Promise<void> | undefined; seen !== this.queue;) await (seen = this.queue);
  }

  /** Sends an already-sent event again, byte for byte the same object (Stripe retries do this). */
  redeliver(eventId: string): Promise<void> {
    const event = this.events.get(eventId);
    if (!event) throw new Error(`no event ${eventId}`);
    this.pending.push(event);
    this.flush();
    return this.delivered();
  }

  // ---- test controls ----

  /** Moves a subscription to a status as Stripe's dunning would, with the matching event. */
  setSubscriptionStatus(subId: string, status: Status): void {
    const sub = this.subscription(subId);
    const before = structuredClone(sub);
    // Stripe's dunning ends a subscription it could not collect with reason payment_failed.
    const unpaid = sub.status === 'past_due' || sub.status === 'unpaid';
    sub.status = status;
    if (status === 'canceled')
      Object.assign(sub, {
        canceled_at: now(),
        ended_at: now(),
        cancellation_details: { reason: unpaid ? 'payment_failed' : 'cancellation_requested' },
      });
    this.emit(status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated', sub, before);
    this.flush();
  }

  /** The next charge for this subscription is declined, whichever card pays. */
  failNextInvoice(subId: string): void {
    this.failNext.add(this.subscription(subId).id);
  }

  /** Starts the next period: a `subscription_cycle` invoice, charged (or forced paid/unpaid with `paid`). */
  renew(subId: string, options: { paid?: boolean } = {}): StandInInvoice {
    const sub = this.subscription(subId);
    const before = structuredClone(sub);
    for (const item of sub.items.data) {
      item.current_period_start = item.current_period_end;
      item.current_period_end = item.current_period_start + 30 * DAY;
    }
    const amount = sub.items.data.reduce((sum, item) => sum + item.quantity * item.price.unit_amount, 0);
    const invoice = this.invoice(sub, amount, 'subscription_cycle');
    if (!this.charge(invoice, sub, undefined, options.paid) && sub.status === 'active') sub.status = 'past_due';
    this.emit('customer.subscription.updated', sub, before);
    this.flush();
    return invoice;
  }

  // ---- HTTP ----

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const method = request.method ?? 'GET';
    this.requests.push({ method, path: url.pathname });
    let body = '';
    for await (const chunk of request) body += chunk;
    const send = (status: number, text: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req'), ...headers });
      response.end(text);
      this.flush(); // webhooks go out after the answer, like Stripe's
    };
    const invoicePage = url.pathname.match(/^\/invoices\/(in_\w+)$/);
    if (invoicePage) {
      const invoice = this.invoices.get(invoicePage[1]!);
      if (!invoice) return send(404, 'Not found', { 'content-type': 'text/plain' });
      const amount = `$${(invoice.amount_due / 100).toFixed(2)}`;
      return send(
        200,
        `<!doctype html><title>Invoice ${invoice.id}</title><h1>Invoice ${invoice.id}</h1>
<p>Amount due: ${amount}</p><p>Status: ${invoice.status}</p>`,
        { 'content-type': 'text/html' },
      );
    }
    const fail = (status: number, error: object) => send(status, JSON.stringify({ error }));
    if (!/^Bearer sk_test_\w+/.test(request.headers.authorization ?? ''))
      return fail(401, { type: 'invalid_request_error', message: 'Invalid API Key provided' });
    // Stripe replays the stored answer for a repeated key, and refuses the key with other parameters.
    const key = method === 'POST' ? request.headers['idempotency-key'] : undefined;
    const replay = typeof key === 'string' ? this.idempotent.get(key) : undefined;
    if (replay && replay.params !== `${url.pathname}?${body}`)
      return fail(400, {
        type: 'idempotency_error',
        message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.',
      });
    if (replay) return send(replay.status, replay.body, { 'idempotent-replayed': 'true' });
    const params: Params = { ...qs.parse(url.search.slice(1)), ...qs.parse(body) };
    let status = 200;
    let text: string;
    try {
      const result = this.route(method, url.pathname, params);
      text = JSON.stringify(this.expand(result, params.expand ?? []));
    } catch (error) {
      const known = error instanceof StripeError;
      if (!known) console.error('stripe stand-in:', error);
      status = known ? error.status : 500;
      text = JSON.stringify({ error: known ? error.error : { type: 'api_error', message: String(error) } });
    }
    if (typeof key === 'string') this.idempotent.set(key, { params: `${url.pathname}?${body}`, status, body: text });
    send(status, text);
  }

  private route(method: string, path: string, p: Params): unknown {
    const [, , resource, id, action] = path.split('/');
    const shape = !id ? '' : id === 'create_preview' ? `/${id}` : '/:id'; // e.g. 'GET /customers/:id/payment_methods'
    const at = `${method} /${resource}${shape}${action ? `/${action}` : ''}`;
    switch (at) {
      case 'POST /products': {
        const product = {
          ...base('prod', 'product'),
          active: true,
          name: p.name,
          description: p.description ?? null,
          metadata: p.metadata ?? {},
        };
        this.products.set(product.id, product);
        return product;
      }
      case 'POST /prices': {
        if (!this.products.has(p.product)) throw missing('product', p.product, 'product');
        const taken = [...this.prices.values()].find((price) => p.lookup_key && price.lookup_key === p.lookup_key);
        if (taken && p.transfer_lookup_key !== 'true')
          throw invalid(`A price (\`${taken.id}\`) already uses that lookup key.`, 'lookup_key');
        if (taken) taken.lookup_key = null;
        const recurring = { interval: p.recurring?.interval ?? 'month', interval_count: 1, usage_type: 'licensed' };
        const price = {
          ...base('price', 'price'),
          active: true,
          product: p.product,
          currency: p.currency,
          unit_amount: Number(p.unit_amount),
          unit_amount_decimal: String(p.unit_amount),
          recurring,
          type: 'recurring',
          billing_scheme: 'per_unit',
          lookup_key: p.lookup_key ?? null,
          nickname: null,
          metadata: p.metadata ?? {},
        };
        this.prices.set(price.id, price);
        return price;
      }
      case 'GET /prices': {
        const keys: string[] | undefined = p.lookup_keys;
        const prices = [...this.prices.values()].filter(
          (price) =>
            (!keys || keys.includes(price.lookup_key)) && (p.active === undefined || String(price.active) === p.active),
        );
        return this.page(prices.reverse(), p, '/v1/prices');
      }
      case 'POST /customers': {
        const customer: StandInCustomer = {
          ...base('cus', 'customer'),
          name: p.name ?? null,
          email: p.email ?? null,
          metadata: p.metadata ?? {},
          invoice_settings: { default_payment_method: null },
        };
        this.customers.set(customer.id, customer);
        return customer;
      }
      case 'GET /customers/:id':
        return this.customer(id!);
      case 'POST /customers/:id': {
        const customer = this.customer(id!);
        for (const field of ['name', 'email'] as const) if (p[field] !== undefined) customer[field] = p[field] || null;
        if (p.metadata) customer.metadata = { ...customer.metadata, ...p.metadata };
        const pm = p.invoice_settings?.default_payment_method;
        if (pm && this.paymentMethods.get(pm)?.customer !== customer.id)
          throw invalid(`No such PaymentMethod: '${pm}'`, 'invoice_settings[default_payment_method]');
        if (pm !== undefined) customer.invoice_settings.default_payment_method = pm || null;
        return customer;
      }
      case 'GET /customers/:id/payment_methods':
        return this.page(this.cardsOf(this.customer(id!).id), p, path);
      case 'GET /payment_methods':
        return this.page(this.cardsOf(this.customer(p.customer, 'customer').id), p, '/v1/payment_methods');
      case 'GET /payment_methods/:id':
        return this.paymentMethod(id!);
      case 'POST /payment_methods/:id/attach':
        return this.attach(id!, this.customer(p.customer, 'customer').id);
      case 'POST /payment_methods/:id/detach': {
        const pm = this.paymentMethod(id!);
        const customer = pm.customer ? this.customers.get(pm.customer) : undefined;
        if (!customer)
          throw invalid('The payment method you provided is not attached to a customer so detachment is impossible.');
        if (customer.invoice_settings.default_payment_method === pm.id)
          customer.invoice_settings.default_payment_method = null;
        pm.customer = null;
        return pm;
      }
      case 'POST /subscriptions':
        return this.subscribe(p);
      case 'GET /subscriptions/:id':
        return this.subscription(id!);
      case 'POST /subscriptions/:id':
        return this.update(this.subscription(id!), p);
      case 'DELETE /subscriptions/:id': {
        const sub = this.subscription(id!);
        const before = structuredClone(sub);
        Object.assign(sub, {
          status: 'canceled',
          canceled_at: now(),
          ended_at: now(),
          cancellation_details: { reason: 'cancellation_requested' },
        });
        this.emit('customer.subscription.deleted', sub, before);
        return sub;
      }
      case 'GET /invoices': {
        const invoices = [...this.invoices.values()].reverse(); // newest first
        const wanted = invoices.filter(
          (invoice) =>
            (!p.customer || invoice.customer === p.customer) &&
            (!p.subscription || invoice.parent.subscription_details.subscription === p.subscription) &&
            (!p.status || invoice.status === p.status),
        );
        return this.page(wanted, p, '/v1/invoices');
      }
      case 'POST /invoices/create_preview':
        return this.preview(p);
      case 'GET /invoices/:id':
        return this.invoiceById(id!);
      case 'POST /invoices/:id/pay': {
        const invoice = this.invoiceById(id!);
        if (invoice.status === 'paid') throw invalid('Invoice is already paid');
        const sub = this.subscription(invoice.parent.subscription_details.subscription);
        if (p.payment_method) this.paymentMethod(p.payment_method, 'payment_method');
        if (!this.charge(invoice, sub, p.payment_method)) throw declined();
        return invoice;
      }
      default:
        throw new StripeError(404, {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${method}: ${path}).`,
        });
    }
  }

  // ---- Stripe behaviour ----

  private attach(id: string, customer: string): StandInPaymentMethod {
    const card = TEST_CARDS[id];
    if (card) {
      const { declines, ...details } = card;
      const pm: StandInPaymentMethod = {
        ...base('pm', 'payment_method'),
        type: 'card',
        customer,
        card: details,
      };
      if (declines) this.declining.add(pm.id);
      this.paymentMethods.set(pm.id, pm);
      return pm;
    }
    const pm = this.paymentMethod(id);
    if (pm.customer === customer) return pm;
    throw invalid(
      pm.customer
        ? 'The payment method you provided has already been attached to a customer.'
        : 'This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.',
    );
  }

  private subscribe(p: Params): StandInSubscription {
    const customer = this.customer(p.customer, 'customer');
    const payer = p.default_payment_method || customer.invoice_settings.default_payment_method;
    if (payer) this.paymentMethod(payer, 'default_payment_method');
    const wanted: Params[] = p.items ?? [];
    const amount = wanted.reduce((sum, w) => sum + Number(w.quantity ?? 1) * this.price(w.price).unit_amount, 0);
    if (!payer && amount > 0)
      throw invalid(
        'This customer has no attached payment source or default payment method.',
        undefined,
        'resource_missing',
      );
    // Charged at once; a decline creates nothing (as with payment_behavior=error_if_incomplete).
    if (amount > 0 && this.declining.has(payer)) throw declined();
    const id = newId('sub');
    const start = now();
    const items = wanted.map((w): StandInSubscriptionItem => ({
      id: newId('si'),
      object: 'subscription_item',
      subscription: id,
      created: start,
      quantity: Number(w.quantity ?? 1),
      price: this.price(w.price),
      current_period_start: start,
      current_period_end: start + 30 * DAY,
    }));
    const sub: StandInSubscription = {
      id,
      object: 'subscription',
      created: start,
      livemode: false,
      customer: customer.id,
      status: 'active',
      currency: 'usd',
      metadata: p.metadata ?? {},
      default_payment_method: p.default_payment_method || null,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      latest_invoice: null,
      items: list(items, `/v1/subscription_items?subscription=${id}`) as StandInSubscription['items'],
    };
    this.subscriptions.set(id, sub);
    const invoice = this.invoice(sub, amount, 'subscription_create');
    this.emit('customer.subscription.created', sub);
    this.charge(invoice, sub);
    return sub;
  }

  private update(sub: StandInSubscription, p: Params): StandInSubscription {
    const before = structuredClone(sub);
    let difference = 0;
    for (const change of (p.items ?? []) as Params[]) {
      const item = sub.items.data.find((i) => i.id === change.id);
      if (!item) throw missing('subscription item', change.id, 'items');
      const old = item.quantity * item.price.unit_amount;
      if (change.price) item.price = this.price(change.price);
      if (change.quantity !== undefined) item.quantity = Number(change.quantity);
      difference += item.quantity * item.price.unit_amount - old;
    }
    if (p.default_payment_method !== undefined) sub.default_payment_method = p.default_payment_method || null;
    if (p.cancel_at_period_end !== undefined) sub.cancel_at_period_end = p.cancel_at_period_end === 'true';
    if (p.metadata) sub.metadata = { ...sub.metadata, ...p.metadata };
    // Simplified proration: an upgrade is invoiced at once for the full difference; downgrades credit nothing.
    if (difference > 0 && p.proration_behavior !== 'none') {
      const mark = this.pending.length;
      const invoice = this.invoice(sub, difference, 'subscription_update');
      if (!this.charge(invoice, sub) && p.payment_behavior === 'error_if_incomplete') {
        // error_if_incomplete: the decline undoes the whole update.
        this.invoices.delete(invoice.id);
        for (const event of this.pending.splice(mark)) this.events.delete(event.id);
        Object.assign(sub, before);
        throw declined();
      }
      if (invoice.status !== 'paid' && sub.status === 'active') sub.status = 'past_due'; // allow_incomplete: the update stands, payment is due
    }
    this.emit('customer.subscription.updated', sub, before);
    return sub;
  }

  private preview(p: Params): Params {
    const sub = p.subscription ? this.subscription(p.subscription, 'subscription') : undefined;
    // Without changes the preview is the subscription's next invoice as it stands.
    const wanted: Params[] = p.subscription_details?.items ?? sub?.items.data.map((item) => ({ id: item.id })) ?? [];
    const lines = wanted.map((w) => {
      const item = sub?.items.data.find((i) => i.id === w.id);
      const price = w.price ? this.price(w.price) : item?.price;
      if (!price) throw invalid('Missing price', 'subscription_details[items]');
      const quantity = Number(w.quantity ?? item?.quantity ?? 1);
      return {
        object: 'line_item',
        amount: quantity * price.unit_amount,
        quantity,
        period: { start: item?.current_period_end ?? now(), end: (item?.current_period_end ?? now()) + 30 * DAY },
        pricing: { price_details: { price: price.id, product: price.product } },
      };
    });
    const amount = lines.reduce((sum, line) => sum + line.amount, 0);
    const next = sub?.items.data[0]?.current_period_end ?? now();
    return {
      id: newId('upcoming_in'),
      object: 'invoice',
      customer: p.customer ?? sub?.customer,
      currency: 'usd',
      status: 'draft',
      amount_due: amount,
      total: amount,
      amount_paid: 0,
      next_payment_attempt: next,
      period_start: next,
      period_end: next + 30 * DAY,
      lines: list(lines, '/v1/invoices/upcoming/lines'),
      livemode: false,
    };
  }

  private invoice(sub: StandInSubscription, amount: number, reason: StandInInvoice['billing_reason']): StandInInvoice {
    const id = newId('in');
    const item = sub.items.data[0];
    const [start, end] = [item?.current_period_start ?? now(), item?.current_period_end ?? now()];
    const line = {
      id: newId('il'),
      object: 'line_item',
      amount,
      quantity: item?.quantity ?? 0,
      period: { start, end },
      pricing: { price_details: { price: item?.price.id, product: item?.price.product } },
    };
    const invoice: StandInInvoice = {
      id,
      object: 'invoice',
      created: now(),
      livemode: false,
      customer: sub.customer,
      currency: 'usd',
      status: 'open',
      billing_reason: reason,
      amount_due: amount,
      amount_paid: 0,
      amount_remaining: amount,
      total: amount,
      attempt_count: 0,
      hosted_invoice_url: `${this.url}/invoices/${id}`,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      period_start: start,
      period_end: end,
      status_transitions: { paid_at: null },
      lines: list([line], `/v1/invoices/${id}/lines`),
    };
    this.invoices.set(id, invoice);
    sub.latest_invoice = id;
    return invoice;
  }

  /** Tries the card (given, subscription's default, else customer's default); emits invoice.paid or .payment_failed. */
  private charge(invoice: StandInInvoice, sub: StandInSubscription, pm?: string, outcome?: boolean): boolean {
    const payer =
      pm || sub.default_payment_method || this.customers.get(sub.customer)?.invoice_settings.default_payment_method;
    const fails =
      outcome !== undefined
        ? !outcome
        : this.failNext.delete(sub.id) || (invoice.amount_due > 0 && (!payer || this.declining.has(payer)));
    this.settle(invoice, !fails);
    // Paying the last open invoice brings a past_due (or unpaid) subscription back.
    if (
      !fails &&
      (sub.status === 'past_due' || sub.status === 'unpaid') &&
      ![...this.invoices.values()].some(
        (i) => i.parent.subscription_details.subscription === sub.id && i.status === 'open',
      )
    ) {
      const before = structuredClone(sub);
      sub.status = 'active';
      this.emit('customer.subscription.updated', sub, before);
    }
    return !fails;
  }

  private settle(invoice: StandInInvoice, paid: boolean): void {
    invoice.attempt_count++;
    if (paid)
      Object.assign(invoice, {
        status: 'paid',
        amount_paid: invoice.amount_due,
        amount_remaining: 0,
        status_transitions: { paid_at: now() },
      });
    this.emit(paid ? 'invoice.paid' : 'invoice.payment_failed', invoice);
  }

  // ---- webhooks ----

  private emit(type: string, object: StandInSubscription | StandInInvoice, before?: object): void {
    const snapshot = structuredClone(object);
    const changed =
      before &&
      Object.fromEntries(
        Object.entries(before).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify((snapshot as Params)[k])),
      );
    const data =
      changed && type.endsWith('.updated') ? { object: snapshot, previous_attributes: changed } : { object: snapshot };
    const event: StandInEvent = {
      ...base('evt', 'event'),
      api_version: '2026-10-28.endive',
      type,
      data,
    };
    this.events.set(event.id, event);
    this.pending.push(event);
  }

  private flush(): void {
    for (const event of this.pending.splice(0)) this.queue = this.queue.then(() => this.deliver(event));
  }

  private async deliver(event: StandInEvent): Promise<void> {
    if (!this.webhookUrl) return;
    const payload = JSON.stringify(event, null, 2);
    let status = 0; // 0: not reached
    try {
      const headers = {
        'content-type': 'application/json',
        'stripe-signature': signedWebhook(payload, this.webhookSecret!),
      };
      const response = await fetch(this.webhookUrl, { method: 'POST', headers, body: payload });
      await response.arrayBuffer();
      status = response.status;
    } catch {
      /* recorded as status 0 */
    }
    this.deliveries.push({ event, status });
  }

  // ---- lookups, lists, expansion ----

  private page<T extends object>(items: T[], p: Params, url: string) {
    const from = p.starting_after ? items.findIndex((item) => (item as Params).id === p.starting_after) + 1 : 0;
    const limit = Math.min(Number(p.limit ?? 10), 100);
    return list(items.slice(from, from + limit), url, items.length > from + limit);
  }
  private cardsOf(customer: string) {
    return [...this.paymentMethods.values()].filter((pm) => pm.customer === customer).reverse();
  }
  private customer(id: string, param = 'id'): StandInCustomer {
    return this.customers.get(id) ?? this.throw(missing('customer', id, param));
  }
  private paymentMethod(id: string, param = 'id'): StandInPaymentMethod {
    return this.paymentMethods.get(id) ?? this.throw(missing('PaymentMethod', id, param));
  }
  private subscription(id: string, param = 'id'): StandInSubscription {
    return this.subscriptions.get(id) ?? this.throw(missing('subscription', id, param));
  }
  private invoiceById(id: string): StandInInvoice {
    return this.invoices.get(id) ?? this.throw(missing('invoice', id));
  }
  private price(id: string): Params {
    return structuredClone(this.prices.get(id) ?? this.throw(missing('price', id, 'price')));
  }
  private throw(error: StripeError): never {
    throw error;
  }

  /** `expand[]`: replaces ids along each dotted path (`data.product`, `latest_invoice`) with their objects. */
  private expand(value: unknown, paths: string[]): unknown {
    const copy = structuredClone(value);
    const byPrefix: Record<string, Map<string, unknown>> = {
      cus: this.customers,
      pm: this.paymentMethods,
      prod: this.products,
      price: this.prices,
      sub: this.subscriptions,
      in: this.invoices,
    };
    const walk = (node: unknown, [head, ...rest]: string[]): void => {
      if (!node || typeof node !== 'object' || head === undefined) return;
      const record = node as Params;
      if (Array.isArray(record[head])) return record[head].forEach((element: unknown) => walk(element, rest));
      if (typeof record[head] === 'string') {
        const found = byPrefix[record[head].split('_')[0]!]?.get(record[head]);
        if (found) record[head] = structuredClone(found);
      }
      walk(record[head], rest);
    };
    for (const path of paths) walk(copy, path.split('.'));
    return copy;
  }
}
