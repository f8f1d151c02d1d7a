import { z } from 'zod';
import { line } from './common.js';
import { MIN_SEATS, PLAN_IDS, SUBSCRIPTION_STATUSES } from '../domain/billing.js';

/**
 * Billing (spec/platform.md billing and sections 3, 7; docs/decisions.md#integrations). Amounts in cents, times in
 * epoch seconds.
 */

export const planId = z.enum(PLAN_IDS);

const subscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);

/** The workspace's subscription as Stripe last told us (spec: `stripe.subscription` with seats, product, period_end). */
export const accountSubscription = z
  .object({
    id: z.string(),
    status: subscriptionStatus,
    plan: planId,
    seats: z.number().int(),
    product: z.object({ name: z.string() }),
    period_end: z.number().int(),
    cancel_at_period_end: z.boolean(),
  })
  .meta({ id: 'AccountSubscription' });
export type AccountSubscription = z.infer<typeof accountSubscription>;

/** `GET /account`: whether billing is on (with Stripe's publishable key), the seats, and the subscription. */
export const billingAccount = z
  .object({
    billing: z.object({ configured: z.boolean(), publishable_key: z.string().nullable() }),
    /** The seats: `limit` null when billing is off (nothing is limited); `used` counts members and pending invites. */
    seats: z.object({ limit: z.number().int().nullable(), used: z.number().int() }),
    stripe: z.object({ subscription: accountSubscription.nullable() }),
  })
  .meta({ id: 'BillingAccount' });
export type BillingAccount = z.infer<typeof billingAccount>;

export const card = z.object({
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
});

export const paymentMethod = z.object({ id: z.string(), default: z.boolean(), card }).meta({ id: 'PaymentMethod' });
export type PaymentMethod = z.infer<typeof paymentMethod>;

export const invoice = z
  .object({
    id: z.string(),
    created: z.number().int(),
    amount_due: z.number().int(),
    status: z.string().nullable(),
    hosted_invoice_url: z.string().nullable(),
  })
  .meta({ id: 'Invoice' });
export type Invoice = z.infer<typeof invoice>;

export const upcomingInvoice = z
  .object({ amount_due: z.number().int(), next_payment_attempt: z.number().int().nullable() })
  .meta({ id: 'UpcomingInvoice' });
export type UpcomingInvoice = z.infer<typeof upcomingInvoice>;

/** Spec section 3: what the active overview shows. */
export const subscriptionInformation = z
  .object({
    current_quantity: z.number().int(),
    plan: planId,
    product_description: z.string(),
    latest_invoice: z
      .object({ id: z.string(), amount_due: z.number().int(), status: z.string().nullable() })
      .nullable(),
    upcoming_invoice: upcomingInvoice.nullable(),
    card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  })
  .meta({ id: 'SubscriptionInformation' });
export type SubscriptionInformation = z.infer<typeof subscriptionInformation>;

const stripeId = (prefix: string) =>
  line()
    .min(1)
    .max(255)
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9_]+$`), `Must be a Stripe ${prefix}_ id`);
const quantity = z.number().int().min(MIN_SEATS).max(100000);

export const emptyBody = z.strictObject({});
export const createSubscriptionBody = z.strictObject({
  plan: planId,
  payment_method_id: stripeId('pm'),
  quantity,
});
/** A new card entered on the update screen (`payment_method_id`) becomes the default. */
export const updateSubscriptionBody = z.strictObject({
  plan: planId,
  quantity,
  payment_method_id: stripeId('pm').optional(),
});
export const paymentMethodIdBody = z.strictObject({ payment_method_id: stripeId('pm') });
export const listPaymentMethodsBody = z.strictObject({ payment_method_id: stripeId('pm').optional() });
export const paymentMethodBody = z.strictObject({ id: stripeId('pm') });
export const retryInvoiceBody = z.strictObject({ invoice_id: stripeId('in'), payment_method_id: stripeId('pm') });
export const upcomingInvoiceBody = z.strictObject({ plan: planId, quantity });
