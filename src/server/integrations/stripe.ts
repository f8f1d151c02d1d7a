/**
 * Stripe through its own SDK (docs/decisions.md#integrations), pointed at BEACON_STRIPE_API_URL (a local stand-in in
 * the tests). The plans are Stripe prices found by lookup key and created when missing.
 */
import Stripe from 'stripe';
import { PLAN_IDS, PLANS, planOfLookupKey, type PlanId } from '../../domain/billing.js';
import type { StripeConfig } from '../config.js';

const clients = new WeakMap<StripeConfig, Stripe>();

export function stripeClient(config: StripeConfig): Stripe {
  let client = clients.get(config);
  if (!client) {
    const https = config.apiUrl.protocol === 'https:';
    client = new Stripe(config.secretKey, {
      host: config.apiUrl.hostname,
      port: Number(config.apiUrl.port || (https ? 443 : 80)),
      protocol: https ? 'https' : 'http',
      // One retry, with the SDK's idempotency key, so a retried POST is never applied twice.
      maxNetworkRetries: 1,
      timeout: 15_000,
      telemetry: false,
    });
    clients.set(config, client);
  }
  return client;
}

export interface PlanPrice {
  priceId: string;
  productName: string;
  productDescription: string;
}

const prices = new WeakMap<StripeConfig, Promise<Record<PlanId, PlanPrice>>>();

function productOf(price: Stripe.Price): { name: string; description: string } | null {
  const product = price.product;
  if (typeof product === 'string' || product.deleted) return null;
  return { name: product.name, description: product.description ?? '' };
}

async function findOrCreatePrices(stripe: Stripe): Promise<Record<PlanId, PlanPrice>> {
  const lookupKeys = PLAN_IDS.map((id) => PLANS[id].lookupKey);
  const found = await stripe.prices.list({ lookup_keys: lookupKeys, active: true, expand: ['data.product'] });
  const byPlan = new Map<PlanId, PlanPrice>();
  for (const price of found.data) {
    const plan = planOfLookupKey(price.lookup_key);
    const product = productOf(price);
    if (plan && product)
      byPlan.set(plan, { priceId: price.id, productName: product.name, productDescription: product.description });
  }
  for (const id of PLAN_IDS) {
    if (byPlan.has(id)) continue;
    const plan = PLANS[id];
    const description = describePlan(id);
    const product = await stripe.products.create({ name: plan.name, description });
    const price = await stripe.prices.create({
      product: product.id,
      unit_amount: plan.unitAmount,
      currency: 'usd',
      recurring: { interval: 'month' },
      lookup_key: plan.lookupKey,
      // Another process creating it at the same moment: the key moves to the newest, both work.
      transfer_lookup_key: true,
    });
    byPlan.set(id, { priceId: price.id, productName: product.name, productDescription: description });
  }
  return Object.fromEntries(PLAN_IDS.map((id) => [id, byPlan.get(id)!])) as Record<PlanId, PlanPrice>;
}

export function describePlan(id: PlanId): string {
  const plan = PLANS[id];
  const seats = plan.maxSeats === null ? 'unlimited users' : `up to ${plan.maxSeats} users`;
  return `${plan.name} plan: $${plan.unitAmount / 100} per user per month, ${seats}`;
}

/** The plans' prices, looked up once per process (again after a failure). */
export function planPrices(config: StripeConfig): Promise<Record<PlanId, PlanPrice>> {
  let pending = prices.get(config);
  if (!pending) {
    pending = findOrCreatePrices(stripeClient(config));
    pending.catch(() => prices.delete(config));
    prices.set(config, pending);
  }
  return pending;
}

/** The subscription's one item: Beacon sells one plan at a time, its quantity the seats. */
export function subscriptionItem(subscription: Stripe.Subscription): Stripe.SubscriptionItem {
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Stripe subscription ${subscription.id} has no items`);
  return item;
}

export { Stripe };
