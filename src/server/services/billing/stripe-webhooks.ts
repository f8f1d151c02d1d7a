/**
 * Stripe's webhooks (docs/decisions.md#integrations): the signature checked against the raw bytes, each event applied
 * once, the subscription's state stored and the suspension rule applied to the workspace (services/billing/billing.ts).
 */
import { toSubscriptionStatus, type SubscriptionStatus } from '../../../domain/billing.js';
import { isoNow, type ServerContext } from '../../context.js';
import { findBillingAccount, findBillingAccountByCustomer, recordStripeEvent } from '../../db/repositories/billing.js';
import { badRequest, notFound } from '../../errors.js';
import { stripeClient, type Stripe } from '../../integrations/stripe.js';
import { idOf, NOT_CONFIGURED, storeSubscription, viaStripe } from './billing.js';
import { callersOf } from '../../cache/caller-cache.js';

/** The subscription an invoice belongs to (API basil and later: under `parent`). */
function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription ?? null);
}

/**
 * Applies one of Stripe's webhook events, its signature checked against the raw bytes; a redelivered event
 * is applied once. Subscription events carry the state and, when the status changed, the one before it.
 */
export async function applyStripeWebhook(
  ctx: ServerContext,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ received: true }> {
  const config = ctx.config.stripe;
  if (!config) throw notFound(NOT_CONFIGURED);
  if (!config.webhookSecret) throw badRequest('Stripe webhooks are not configured on this server');
  if (!signature) throw badRequest('The Stripe-Signature header is missing');
  const stripe = stripeClient(config);
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret);
  } catch (error) {
    throw badRequest(`The webhook signature does not match: ${(error as Error).message}`);
  }

  // Webhooks may arrive late and out of order: the state stored is the subscription as Stripe has it now; the
  // event's own transition (its previous status) counts only while it is still the current one.
  let subscriptionId: string | null = null;
  let customerId: string | null = null;
  let previousStatus: SubscriptionStatus | null = null;
  let eventStatus: SubscriptionStatus | null = null;
  if (event.type.startsWith('customer.subscription.')) {
    const reported = event.data.object as Stripe.Subscription;
    subscriptionId = reported.id;
    customerId = idOf(reported.customer);
    eventStatus = toSubscriptionStatus(reported.status);
    const previous = event.data.previous_attributes as { status?: SubscriptionStatus } | undefined;
    previousStatus = previous?.status ?? null;
  } else if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
    const invoice = event.data.object as Stripe.Invoice;
    customerId = idOf(invoice.customer);
    subscriptionId = subscriptionOfInvoice(invoice);
  }
  const subscription = subscriptionId
    ? await viaStripe(ctx, () => stripe.subscriptions.retrieve(subscriptionId))
    : null;
  if (!subscription || toSubscriptionStatus(subscription.status) !== eventStatus) previousStatus = null;
  const account = customerId ? await findBillingAccountByCustomer(ctx.database.db, customerId) : undefined;

  const applied = await ctx.database.db.transaction().execute(async (trx) => {
    const fresh = await recordStripeEvent(trx, {
      id: event.id,
      type: event.type,
      workspace_id: account?.workspace_id ?? null,
      received_at: isoNow(ctx),
    });
    if (!fresh || !account || !subscription) return false;
    const current = (await findBillingAccount(trx, account.workspace_id))!;
    await storeSubscription(ctx, trx, current, subscription, previousStatus);
    return true;
  });
  if (applied && account) callersOf(ctx).forgetWorkspace(account.workspace_id);
  return { received: true };
}
