/**
 * Per-seat billing (spec/platform.md billing, section 9; docs/decisions.md#integrations): the plans, the seat rules of
 * the payment form and the server, the free plan's limit, and how amounts, dates and card expiries are shown. Shared by
 * the server (validation, seat limits, suspension) and the app (the payment form, the overview).
 */

export const PLAN_IDS = ['team', 'business'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface Plan {
  id: PlanId;
  name: string;
  /** Price per seat and month, in cents. */
  unitAmount: number;
  /** The most seats the plan sells; null: unlimited. */
  maxSeats: number | null;
  /** The feature line on the plan card. */
  feature: string;
  /** Stripe finds the plan's price by this lookup key (docs/decisions.md#integrations). */
  lookupKey: string;
}

export const PLANS: Record<PlanId, Plan> = {
  team: {
    id: 'team',
    name: 'Team',
    unitAmount: 2000,
    maxSeats: 20,
    feature: '20 users',
    lookupKey: 'beacon_team',
  },
  business: {
    id: 'business',
    name: 'Business',
    unitAmount: 3000,
    maxSeats: null,
    feature: 'Unlimited users',
    lookupKey: 'beacon_business',
  },
};

export const DEFAULT_PLAN: PlanId = 'team';
export const DEFAULT_SEATS = 1;
export const MIN_SEATS = 1;
/** Members (with pending invites) a workspace without a paid subscription may have. */
export const FREE_PLAN_SEATS = 5;

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

export function planOfLookupKey(lookupKey: string | null | undefined): PlanId | null {
  return PLAN_IDS.find((id) => PLANS[id].lookupKey === lookupKey) ?? null;
}

/** Spec: plus is allowed only below the plan's maximum seats. */
export function canAddSeat(plan: PlanId, seats: number): boolean {
  const max = PLANS[plan].maxSeats;
  return max === null || seats < max;
}

export function canRemoveSeat(seats: number): boolean {
  return seats > MIN_SEATS;
}

/** Spec: changing plan clamps seats down to the new maximum (and never under the minimum). */
export function clampSeats(plan: PlanId, seats: number): number {
  const max = PLANS[plan].maxSeats;
  const whole = Number.isFinite(seats) ? Math.floor(seats) : MIN_SEATS;
  return Math.max(MIN_SEATS, max === null ? whole : Math.min(max, whole));
}

/** What a plan costs a month for a number of seats, in cents (before proration or tax). */
export function monthlyCost(plan: PlanId, seats: number): number {
  return PLANS[plan].unitAmount * seats;
}

/** Why a seat count cannot be bought on a plan, or null. */
export function seatCountError(plan: PlanId, seats: number): string | null {
  if (!Number.isInteger(seats) || seats < MIN_SEATS) return `Seats must be a whole number of at least ${MIN_SEATS}`;
  const max = PLANS[plan].maxSeats;
  if (max !== null && seats > max) return `The ${PLANS[plan].name} plan has at most ${max} seats`;
  return null;
}

/** Stripe's subscription statuses. */
export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** A status Stripe may add later counts as one that holds no seats and suspends nothing. */
export function toSubscriptionStatus(value: string): SubscriptionStatus {
  return (SUBSCRIPTION_STATUSES as readonly string[]).includes(value) ? (value as SubscriptionStatus) : 'incomplete';
}

/** Statuses under which the paid seats hold (a late payment keeps them until Stripe gives up). */
const SEATED: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due', 'unpaid'];

/**
 * The seats a workspace has: the paid quantity while its subscription stands, else the free plan's; with
 * billing off there is no limit (null).
 */
export function seatLimit(
  billingOn: boolean,
  subscription: { status: SubscriptionStatus; seats: number } | null,
): number | null {
  if (!billingOn) return null;
  if (subscription && SEATED.includes(subscription.status)) return subscription.seats;
  return FREE_PLAN_SEATS;
}

export function seatLimitMessage(limit: number): string {
  return `Your plan has ${limit} ${limit === 1 ? 'seat' : 'seats'} and all of them are taken by members and pending invites. Add seats in Billing to invite more people.`;
}

/**
 * docs/decisions.md#integrations: a subscription `unpaid`, or `canceled` after `past_due` (Stripe's dunning gave up:
 * its cancellation reason is `payment_failed`), suspends the workspace; one that is paid again (active or trialing)
 * makes it active. Anything else leaves the workspace as it is.
 */
export function suspensionChange(
  previous: SubscriptionStatus | null,
  next: SubscriptionStatus,
  cancellationReason: string | null = null,
): 'suspend' | 'reactivate' | null {
  if (next === 'unpaid') return 'suspend';
  if (
    next === 'canceled' &&
    (cancellationReason === 'payment_failed' || previous === 'past_due' || previous === 'unpaid')
  )
    return 'suspend';
  if (next === 'active' || next === 'trialing') return 'reactivate';
  return null;
}

/** The overview's three cases (spec): none, cancelled but running until period_end, or active. */
export type OverviewCase = 'none' | 'cancelled' | 'active';

export function overviewCase(
  subscription: { status: SubscriptionStatus; cancel_at_period_end: boolean; period_end: number } | null,
  nowSeconds: number,
): OverviewCase {
  if (!subscription || subscription.status === 'canceled' || subscription.status === 'incomplete_expired')
    return 'none';
  if (subscription.cancel_at_period_end) return subscription.period_end > nowSeconds ? 'cancelled' : 'none';
  return 'active';
}

/** Spec: amounts are cents, shown in dollars with a dollar sign. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  return `${sign}$${(Math.abs(cents) / 100).toFixed(2)}`;
}

/** Spec: MM/DD/YYYY, from Stripe's epoch seconds (UTC, as Stripe's own dashboard dates are). */
export function formatBillingDate(epochSeconds: number): string {
  const date = new Date(epochSeconds * 1000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()}`;
}

/** Spec: the expiry month and the year's last two digits (year minus 2000). */
export function formatCardExpiry(month: number, year: number): string {
  return `${String(month).padStart(2, '0')}/${String(year - 2000).padStart(2, '0')}`;
}

/** 'visa' → 'Visa', 'amex' → 'American Express', as the card brands are written. */
export function cardBrandName(brand: string): string {
  const names: Record<string, string> = {
    amex: 'American Express',
    diners: 'Diners Club',
    discover: 'Discover',
    jcb: 'JCB',
    mastercard: 'Mastercard',
    unionpay: 'UnionPay',
    visa: 'Visa',
  };
  return names[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1);
}
