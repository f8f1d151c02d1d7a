/**
 * Per-seat billing through Stripe (spec/platform.md billing; docs/decisions.md#integrations): the account, the spec's
 * subscription actions (owners and admins), Stripe's webhooks (subscription state, suspension) and the seat limit that
 * invites and joins must fit. With billing off the account says so and nothing is limited.
 */
import type {
  BillingAccount,
  Invoice,
  PaymentMethod,
  SubscriptionInformation,
  UpcomingInvoice,
} from '../../../contract/billing.js';
import {
  monthlyCost,
  PLANS,
  planOfLookupKey,
  seatCountError,
  seatLimit,
  seatLimitMessage,
  suspensionChange,
  toSubscriptionStatus,
  type PlanId,
  type SubscriptionStatus,
} from '../../../domain/billing.js';
import { isAdminRole } from '../../../domain/roles.js';
import type { StripeConfig } from '../../config.js';
import { isoNow, type ServerContext } from '../../context.js';
import {
  countSeatsUsed,
  findBillingAccount,
  insertBillingAccount,
  lockWorkspaceSeats,
  updateSubscription,
  type SubscriptionColumns,
} from '../../db/repositories/billing.js';
import { findWorkspaceById, setWorkspaceStatus } from '../../db/repositories/workspaces.js';
import type { CachedCaller as Caller } from '../../cache/caller-cache.js';
import type { BillingAccountRow } from '../../db/schema.js';
import type { Db } from '../../db/repositories/workspaces.js';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../errors.js';
import { planPrices, Stripe, stripeClient, subscriptionItem } from '../../integrations/stripe.js';
import { callersOf } from '../../cache/caller-cache.js';

export const NOT_CONFIGURED = 'Billing is not configured on this server';
const NO_SUBSCRIPTION = 'This workspace has no subscription';
const NO_PAYMENT_METHOD = 'Payment method not found';

/** Subscriptions that still hold the workspace's seats (a new one cannot be bought beside them). */
const LIVE: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due', 'unpaid', 'incomplete', 'paused'];

function stripeOf(ctx: ServerContext): { config: StripeConfig; stripe: Stripe } {
  const config = ctx.config.stripe;
  if (!config) throw conflict(NOT_CONFIGURED);
  return { config, stripe: stripeClient(config) };
}

function requireBillingAdmin(caller: Caller): void {
  if (!isAdminRole(caller.user.role)) throw forbidden('Only workspace owners and admins can manage billing');
}

/** Stripe's refusals as the caller's errors: a declined card is 402 with Stripe's words; Stripe away is 503. */
export async function viaStripe<T>(ctx: ServerContext, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (error instanceof Stripe.errors.StripeCardError) throw new HttpError(402, error.message);
    if (error instanceof Stripe.errors.StripeInvalidRequestError) {
      if (error.statusCode === 404) throw notFound(error.message);
      throw badRequest(error.message, error.param ? { [error.param]: [error.message] } : undefined);
    }
    if (error instanceof Stripe.errors.StripeError) {
      ctx.logger.error({ err: error }, 'Stripe failed');
      throw new HttpError(503, 'Stripe is not answering; try again in a moment', undefined, { 'retry-after': '5' });
    }
    throw error;
  }
}

// ---- the account ----

function hasLiveSubscription(
  row: BillingAccountRow | undefined,
): row is BillingAccountRow & { subscription_id: string } {
  return Boolean(row?.subscription_id && row.subscription_status && LIVE.includes(row.subscription_status));
}

function accountSubscription(row: BillingAccountRow | undefined): BillingAccount['stripe']['subscription'] {
  if (!row?.subscription_id || !row.subscription_status || !row.plan) return null;
  return {
    id: row.subscription_id,
    status: row.subscription_status,
    plan: row.plan,
    seats: row.seats ?? 0,
    product: { name: row.product_name ?? PLANS[row.plan].name },
    period_end: row.period_end ?? 0,
    cancel_at_period_end: row.cancel_at_period_end === 1,
  };
}

function limitOf(ctx: ServerContext, row: BillingAccountRow | undefined): number | null {
  const subscription =
    row?.subscription_status && row.seats !== null ? { status: row.subscription_status, seats: row.seats } : null;
  return seatLimit(ctx.config.stripe !== null, subscription);
}

async function accountOf(ctx: ServerContext, workspaceId: string): Promise<BillingAccount> {
  const { db } = ctx.database;
  const [row, used] = await Promise.all([findBillingAccount(db, workspaceId), countSeatsUsed(db, workspaceId)]);
  const stripe = ctx.config.stripe;
  return {
    billing: { configured: stripe !== null, publishable_key: stripe?.publishableKey ?? null },
    seats: { limit: limitOf(ctx, row), used },
    stripe: { subscription: accountSubscription(row) },
  };
}

export async function getAccount(ctx: ServerContext, caller: Caller): Promise<BillingAccount> {
  requireBillingAdmin(caller);
  return accountOf(ctx, caller.workspace.id);
}

/** The workspace's Stripe customer, created on first need (one per workspace, also across processes). */
async function ensureCustomer(ctx: ServerContext, caller: Caller): Promise<BillingAccountRow> {
  const { db } = ctx.database;
  const existing = await findBillingAccount(db, caller.workspace.id);
  if (existing) return existing;
  const { stripe } = stripeOf(ctx);
  const customer = await stripe.customers.create(
    { name: caller.workspace.name, email: caller.user.email, metadata: { workspace_id: caller.workspace.id } },
    // Two first subscriptions at once make one customer, not two.
    { idempotencyKey: `beacon-customer-${caller.workspace.id}` },
  );
  const now = isoNow(ctx);
  await insertBillingAccount(db, {
    workspace_id: caller.workspace.id,
    customer_id: customer.id,
    subscription_id: null,
    subscription_item_id: null,
    subscription_status: null,
    plan: null,
    seats: null,
    product_name: null,
    period_end: null,
    cancel_at_period_end: 0,
    created_at: now,
    updated_at: now,
  });
  return (await findBillingAccount(db, caller.workspace.id))!;
}

/** What Beacon keeps of a Stripe subscription. */
function subscriptionColumns(subscription: Stripe.Subscription, productName: string | null): SubscriptionColumns {
  const item = subscriptionItem(subscription);
  const plan = planOfLookupKey(item.price.lookup_key);
  if (!plan) throw new Error(`Stripe subscription ${subscription.id} is not on a Beacon plan`);
  return {
    subscription_id: subscription.id,
    subscription_item_id: item.id,
    subscription_status: toSubscriptionStatus(subscription.status),
    plan,
    seats: item.quantity ?? 0,
    product_name: productName ?? PLANS[plan].name,
    period_end: item.current_period_end,
    cancel_at_period_end: subscription.cancel_at_period_end ? 1 : 0,
  };
}

/**
 * Stores the subscription as Stripe reports it and applies the suspension rule (docs/decisions.md#integrations) to the
 * workspace: suspended when unpaid (or cancelled after a failed payment), active again once paid. An inactive workspace
 * (switched off by the operator) stays as it is.
 */
export async function storeSubscription(
  ctx: ServerContext,
  db: Db,
  account: BillingAccountRow,
  subscription: Stripe.Subscription,
  previousStatus: SubscriptionStatus | null,
): Promise<void> {
  const prices = ctx.config.stripe ? await planPrices(ctx.config.stripe) : null;
  const plan = planOfLookupKey(subscriptionItem(subscription).price.lookup_key);
  const columns = subscriptionColumns(subscription, plan && prices ? prices[plan].productName : null);
  const change = suspensionChange(
    previousStatus ?? account.subscription_status,
    toSubscriptionStatus(subscription.status),
    subscription.cancellation_details?.reason ?? null,
  );
  const workspace = await findWorkspaceById(db, account.workspace_id);
  if (!workspace) throw new Error(`No workspace ${account.workspace_id} for its billing account`);
  // Another subscription's news (an older, replaced one) does not overwrite the current one's.
  const replaced =
    account.subscription_id !== null && account.subscription_id !== subscription.id && hasLiveSubscription(account);
  if (replaced) return;
  await updateSubscription(db, account.workspace_id, columns, isoNow(ctx));
  if (change === 'suspend' && workspace.status === 'active')
    await setWorkspaceStatus(db, account.workspace_id, 'suspended');
  if (change === 'reactivate' && workspace.status === 'suspended')
    await setWorkspaceStatus(db, account.workspace_id, 'active');
}

async function storeAndForget(ctx: ServerContext, account: BillingAccountRow, subscription: Stripe.Subscription) {
  await ctx.database.db.transaction().execute((trx) => storeSubscription(ctx, trx, account, subscription, null));
  callersOf(ctx).forgetWorkspace(account.workspace_id);
}

// ---- seats ----

/** Refuses a seat count below the members and pending invites in use. */
function requireSeatsFor(quantity: number, used: number): void {
  if (quantity < used)
    throw badRequest(`The workspace uses ${used} seats (members and pending invites); buy at least ${used}`, {
      quantity: [`At least ${used} seats are in use`],
    });
}

function requireSeatCount(plan: PlanId, quantity: number): void {
  const error = seatCountError(plan, quantity);
  if (error) throw badRequest(error, { quantity: [error] });
}

/**
 * With billing on, a workspace's members plus pending invites fit its seats: taking `adding` more (an invite,
 * a new member by single sign-on) past the limit is 402 naming it. Call inside the writing transaction.
 */
export async function requireFreeSeats(ctx: ServerContext, db: Db, workspaceId: string, adding: number): Promise<void> {
  if (!ctx.config.stripe) return;
  await lockWorkspaceSeats(db, workspaceId);
  const [row, used] = await Promise.all([findBillingAccount(db, workspaceId), countSeatsUsed(db, workspaceId)]);
  const limit = limitOf(ctx, row);
  if (limit !== null && used + adding > limit) throw new HttpError(402, seatLimitMessage(limit));
}

// ---- payment methods ----

function toPaymentMethod(method: Stripe.PaymentMethod, defaultId: string | null): PaymentMethod {
  const card = method.card;
  return {
    id: method.id,
    default: method.id === defaultId,
    card: {
      brand: card?.brand ?? 'unknown',
      last4: card?.last4 ?? '',
      exp_month: card?.exp_month ?? 0,
      exp_year: card?.exp_year ?? 0,
    },
  };
}

export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

async function defaultPaymentMethodId(stripe: Stripe, customerId: string): Promise<string | null> {
  const customer = await stripe.customers.retrieve(customerId);
  if (customer.deleted) return null;
  return idOf(customer.invoice_settings.default_payment_method);
}

/** One of this workspace's cards; another customer's card is not found. */
async function ownPaymentMethod(stripe: Stripe, account: BillingAccountRow | undefined, id: string) {
  if (!account) throw notFound(NO_PAYMENT_METHOD);
  const method = await stripe.paymentMethods.retrieve(id).catch((error: unknown) => {
    if (error instanceof Stripe.errors.StripeInvalidRequestError) throw notFound(NO_PAYMENT_METHOD);
    throw error;
  });
  if (idOf(method.customer) !== account.customer_id) throw notFound(NO_PAYMENT_METHOD);
  return method;
}

/** Attaches a card from Stripe.js to the customer and makes it the default for future invoices. */
async function attachAsDefault(stripe: Stripe, account: BillingAccountRow, paymentMethodId: string): Promise<string> {
  const method = await stripe.paymentMethods.attach(paymentMethodId, { customer: account.customer_id });
  await stripe.customers.update(account.customer_id, {
    invoice_settings: { default_payment_method: method.id },
  });
  return method.id;
}

async function paymentMethodsOf(stripe: Stripe, account: BillingAccountRow): Promise<PaymentMethod[]> {
  const [methods, defaultId] = await Promise.all([
    stripe.customers.listPaymentMethods(account.customer_id, { type: 'card', limit: 100 }),
    defaultPaymentMethodId(stripe, account.customer_id),
  ]);
  return methods.data.map((method) => toPaymentMethod(method, defaultId));
}

export async function listPaymentMethods(ctx: ServerContext, caller: Caller): Promise<PaymentMethod[]> {
  requireBillingAdmin(caller);
  const { stripe } = stripeOf(ctx);
  const account = await findBillingAccount(ctx.database.db, caller.workspace.id);
  if (!account) return [];
  return viaStripe(ctx, () => paymentMethodsOf(stripe, account));
}

export async function retrievePaymentMethod(ctx: ServerContext, caller: Caller, id: string): Promise<PaymentMethod> {
  requireBillingAdmin(caller);
  const { stripe } = stripeOf(ctx);
  const account = await findBillingAccount(ctx.database.db, caller.workspace.id);
  return viaStripe(ctx, async () => {
    const method = await ownPaymentMethod(stripe, account, id);
    return toPaymentMethod(method, await defaultPaymentMethodId(stripe, account!.customer_id));
  });
}

export async function setDefaultPaymentMethod(ctx: ServerContext, caller: Caller, id: string) {
  requireBillingAdmin(caller);
  const { stripe } = stripeOf(ctx);
  const account = await findBillingAccount(ctx.database.db, caller.workspace.id);
  return viaStripe(ctx, async () => {
    await ownPaymentMethod(stripe, account, id);
    await stripe.customers.update(account!.customer_id, { invoice_settings: { default_payment_method: id } });
    if (hasLiveSubscription(account))
      await stripe.subscriptions.update(account.subscription_id, { default_payment_method: id });
    return paymentMethodsOf(stripe, account!);
  });
}

export async function detachPaymentMethod(ctx: ServerContext, caller: Caller, id: string): Promise<void> {
  requireBillingAdmin(caller);
  const { stripe } = stripeOf(ctx);
  const account = await findBillingAccount(ctx.database.db, caller.workspace.id);
  await viaStripe(ctx, async () => {
    await ownPaymentMethod(stripe, account, id);
    if (hasLiveSubscription(account) && (await defaultPaymentMethodId(stripe, account.customer_id)) === id)
      throw conflict('This card pays the subscription; make another card the default before removing it');
    await stripe.paymentMethods.detach(id);
  });
}

// ---- subscriptions ----

export async function createSubscription(
  ctx: ServerContext,
  caller: Caller,
  input: { plan: PlanId; payment_method_id: string; quantity: number },
): Promise<BillingAccount> {
  requireBillingAdmin(caller);
  const { config, stripe } = stripeOf(ctx);
  requireSeatCount(input.plan, input.quantity);
  const { db } = ctx.database;
  requireSeatsFor(input.quantity, await countSeatsUsed(db, caller.workspace.id));
  if (hasLiveSubscription(await findBillingAccount(db, caller.workspace.id)))
    throw conflict('This workspace already has a subscription; change it instead');
  await viaStripe(ctx, async () => {
    const prices = await planPrices(config);
    const account = await ensureCustomer(ctx, caller);
    const paymentMethod = await attachAsDefault(stripe, account, input.payment_method_id);
    const subscription = await stripe.subscriptions
      .create({
        customer: account.customer_id,
        items: [{ price: prices[input.plan].priceId, quantity: input.quantity }],
        default_payment_method: paymentMethod,
        metadata: { workspace_id: caller.workspace.id },
      })
      .catch(async (error: unknown) => {
        // The first payment failed: nothing was bought, and the card that failed is not kept.
        await stripe.paymentMethods.detach(paymentMethod).catch(() => undefined);
        throw error;
      });
    if (subscription.status === 'incomplete') {
      await stripe.subscriptions.cancel(subscription.id);
      await stripe.paymentMethods.detach(paymentMethod).catch(() => undefined);
      throw new HttpError(402, 'Your card was declined');
    }
    await storeAndForget(ctx, account, subscription);
  });
  return accountOf(ctx, caller.workspace.id);
}

async function liveAccount(ctx: ServerContext, caller: Caller) {
  const account = await findBillingAccount(ctx.database.db, caller.workspace.id);
  if (!hasLiveSubscription(account)) throw notFound(NO_SUBSCRIPTION);
  return account;
}

export async function changeSubscription(
  ctx: ServerContext,
  caller: Caller,
  input: { plan: PlanId; quantity: number; payment_method_id?: string | undefined },
): Promise<BillingAccount> {
  requireBillingAdmin(caller);
  const { config, stripe } = stripeOf(ctx);
  requireSeatCount(input.plan, input.quantity);
  const account = await liveAccount(ctx, caller);
  requireSeatsFor(input.quantity, await countSeatsUsed(ctx.database.db, caller.workspace.id));
  await viaStripe(ctx, async () => {
    const prices = await planPrices(config);
    const paymentMethod = input.payment_method_id
      ? await attachAsDefault(stripe, account, input.payment_method_id)
      : undefined;
    const subscription = await stripe.subscriptions.update(account.subscription_id, {
      items: [{ id: account.subscription_item_id!, price: prices[input.plan].priceId, quantity: input.quantity }],
      // The change is charged (or credited) at once, prorated for the rest of the period.
      proration_behavior: 'always_invoice',
      cancel_at_period_end: false,
      ...(paymentMethod ? { default_payment_method: paymentMethod } : {}),
    });
    await storeAndForget(ctx, account, subscription);
  });
  return accountOf(ctx, caller.workspace.id);
}

/** Cancels at the end of the paid period (spec: 'Subscription Cancelled' until then, then the free plan). */
export async function cancelSubscription(ctx: ServerContext, caller: Caller): Promise<BillingAccount> {
  requireBillingAdmin(caller);
  const { stripe } = stripeOf(ctx);
  const account = await liveAccount(ctx, caller);
  await viaStripe(ctx, async () => {
    const subscription = await stripe.subscriptions.update(account.subscription_id, { cancel_at_period_end: true });
    await storeAndForget(ctx, account, subscription);
  });
  return accountOf(ctx, caller.workspace.id);
}

function cardOf(method: Stripe.PaymentMethod | string | null): SubscriptionInformation['card'] {
  if (!method || typeof method === 'string' || !method.card) return null;
  return { brand: method.card.brand, last4: method.card.last4 };
}

export async function subscriptionInformation(ctx: ServerContext, caller: Caller): Promise<SubscriptionInformation> {
  requireBillingAdmin(caller);
  const { config, stripe } = stripeOf(ctx);
  const account = await findBillingAccount(ctx.database.db, caller.workspace.id);
  if (!account?.subscription_id) throw notFound(NO_SUBSCRIPTION);
  return viaStripe(ctx, async () => {
    const subscription = await stripe.subscriptions.retrieve(account.subscription_id!, {
      expand: ['latest_invoice', 'default_payment_method'],
    });
    const plan = planOfLookupKey(subscriptionItem(subscription).price.lookup_key);
    if (!plan) throw new Error(`Stripe subscription ${subscription.id} is not on a Beacon plan`);
    const latest = subscription.latest_invoice;
    const running = LIVE.includes(toSubscriptionStatus(subscription.status)) && !subscription.cancel_at_period_end;
    const upcoming = running
      ? await stripe.invoices.createPreview({ customer: account.customer_id, subscription: subscription.id })
      : null;
    let card = cardOf(subscription.default_payment_method);
    if (!card) {
      const defaultId = await defaultPaymentMethodId(stripe, account.customer_id);
      card = defaultId ? cardOf(await stripe.paymentMethods.retrieve(defaultId)) : null;
    }
    return {
      current_quantity: subscriptionItem(subscription).quantity ?? 0,
      plan,
      product_description: (await planPrices(config))[plan].productDescription,
      latest_invoice:
        latest && typeof latest !== 'string'
          ? { id: latest.id, amount_due: latest.amount_due, status: latest.status ?? null }
          : null,
      upcoming_invoice: upcoming
        ? { amount_due: upcoming.amount_due, next_payment_attempt: upcoming.next_payment_attempt ?? null }
        : null,
      card,
    };
  });
}

export async function upcomingInvoice(
  ctx: ServerContext,
  caller: Caller,
  input: { plan: PlanId; quantity: number },
): Promise<UpcomingInvoice> {
  requireBillingAdmin(caller);
  const { config, stripe } = stripeOf(ctx);
  requireSeatCount(input.plan, input.quantity);
  const account = await findBillingAccount(ctx.database.db, caller.workspace.id);
  // Nothing bought yet: the first invoice is the plan's price for the seats, charged at once.
  if (!hasLiveSubscription(account))
    return { amount_due: monthlyCost(input.plan, input.quantity), next_payment_attempt: null };
  return viaStripe(ctx, async () => {
    const prices = await planPrices(config);
    const preview = await stripe.invoices.createPreview({
      customer: account.customer_id,
      subscription: account.subscription_id,
      subscription_details: {
        items: [{ id: account.subscription_item_id!, price: prices[input.plan].priceId, quantity: input.quantity }],
      },
    });
    return { amount_due: preview.amount_due, next_payment_attempt: preview.next_payment_attempt ?? null };
  });
}

// ---- invoices ----

function toInvoice(invoice: Stripe.Invoice): Invoice {
  return {
    id: invoice.id ?? '',
    created: invoice.created,
    amount_due: invoice.amount_due,
    status: invoice.status ?? null,
    hosted_invoice_url: invoice.hosted_invoice_url ?? null,
  };
}

export async function listInvoices(ctx: ServerContext, caller: Caller): Promise<Invoice[]> {
  requireBillingAdmin(caller);
  const { stripe } = stripeOf(ctx);
  const account = await findBillingAccount(ctx.database.db, caller.workspace.id);
  if (!account) return [];
  return viaStripe(ctx, async () => {
    const invoices = await stripe.invoices.list({ customer: account.customer_id, limit: 100 });
    return invoices.data.map(toInvoice);
  });
}

/** Pays an open invoice with a card (which becomes the default); the webhooks then bring the workspace back. */
export async function retryInvoice(
  ctx: ServerContext,
  caller: Caller,
  input: { invoice_id: string; payment_method_id: string },
): Promise<Invoice> {
  requireBillingAdmin(caller);
  const { stripe } = stripeOf(ctx);
  const account = await findBillingAccount(ctx.database.db, caller.workspace.id);
  if (!account) throw notFound('Invoice not found');
  return viaStripe(ctx, async () => {
    const invoice = await stripe.invoices.retrieve(input.invoice_id);
    if (idOf(invoice.customer) !== account.customer_id) throw notFound('Invoice not found');
    const owned = await stripe.paymentMethods.retrieve(input.payment_method_id).catch(() => null);
    const paymentMethod =
      owned && idOf(owned.customer) === account.customer_id
        ? owned.id
        : await attachAsDefault(stripe, account, input.payment_method_id);
    const paid = await stripe.invoices.pay(invoice.id!, { payment_method: paymentMethod });
    if (hasLiveSubscription(account))
      await storeAndForget(ctx, account, await stripe.subscriptions.retrieve(account.subscription_id));
    return toInvoice(paid);
  });
}
