import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canAddSeat,
  canRemoveSeat,
  cardBrandName,
  clampSeats,
  FREE_PLAN_SEATS,
  formatBillingDate,
  formatCardExpiry,
  formatCents,
  monthlyCost,
  overviewCase,
  PLAN_IDS,
  PLANS,
  planOfLookupKey,
  seatCountError,
  seatLimit,
  suspensionChange,
  toSubscriptionStatus,
} from '../../../src/domain/billing.js';

/** Spec/platform.md billing, sections 5 and 9; docs/decisions.md#integrations. */
describe('seats on the payment form', () => {
  it('adds up to the team plan’s 20 seats, without limit on business, and never goes under 1', () => {
    expect(canAddSeat('team', 19)).toBe(true);
    expect(canAddSeat('team', 20)).toBe(false);
    expect(canAddSeat('business', 500)).toBe(true);
    expect(canRemoveSeat(1)).toBe(false);
    expect(canRemoveSeat(2)).toBe(true);
  });

  it('clamps down to the new plan’s maximum when the plan changes', () => {
    expect(clampSeats('team', 35)).toBe(20);
    expect(clampSeats('business', 35)).toBe(35);
    expect(clampSeats('team', 0)).toBe(1);
    fc.assert(
      fc.property(fc.constantFrom(...PLAN_IDS), fc.integer({ min: -10, max: 1000 }), (plan, seats) => {
        const clamped = clampSeats(plan, seats);
        expect(seatCountError(plan, clamped)).toBeNull();
        expect(clampSeats(plan, clamped)).toBe(clamped);
      }),
    );
  });

  it('names what is wrong with a seat count', () => {
    expect(seatCountError('team', 0)).toBe('Seats must be a whole number of at least 1');
    expect(seatCountError('team', 1.5)).toBe('Seats must be a whole number of at least 1');
    expect(seatCountError('team', 21)).toBe('The Team plan has at most 20 seats');
    expect(seatCountError('business', 21)).toBeNull();
  });
});

describe('the seat limit', () => {
  it('is unlimited with billing off, the free plan’s without a standing subscription, else the seats bought', () => {
    expect(seatLimit(false, { status: 'active', seats: 3 })).toBeNull();
    expect(seatLimit(true, null)).toBe(FREE_PLAN_SEATS);
    expect(seatLimit(true, { status: 'active', seats: 12 })).toBe(12);
    expect(seatLimit(true, { status: 'past_due', seats: 12 })).toBe(12);
    expect(seatLimit(true, { status: 'canceled', seats: 12 })).toBe(FREE_PLAN_SEATS);
    expect(seatLimit(true, { status: 'incomplete', seats: 12 })).toBe(FREE_PLAN_SEATS);
  });
});

describe('suspension', () => {
  it('suspends when unpaid, or cancelled after a failed payment; pays back to active', () => {
    expect(suspensionChange('past_due', 'unpaid')).toBe('suspend');
    expect(suspensionChange('past_due', 'canceled')).toBe('suspend');
    expect(suspensionChange('unpaid', 'canceled')).toBe('suspend');
    expect(suspensionChange(null, 'canceled', 'payment_failed')).toBe('suspend');
    expect(suspensionChange('active', 'canceled', 'cancellation_requested')).toBeNull();
    expect(suspensionChange('active', 'past_due')).toBeNull();
    expect(suspensionChange('unpaid', 'active')).toBe('reactivate');
  });

  it('reads a status Stripe adds later as one that holds no seats', () => {
    expect(toSubscriptionStatus('past_due')).toBe('past_due');
    expect(toSubscriptionStatus('something_new')).toBe('incomplete');
  });
});

describe('the overview', () => {
  const now = 1_800_000_000;
  it('has three cases: none, cancelled but running until period_end, active', () => {
    expect(overviewCase(null, now)).toBe('none');
    const base = { status: 'active' as const, cancel_at_period_end: false, period_end: now + 100 };
    expect(overviewCase(base, now)).toBe('active');
    expect(overviewCase({ ...base, cancel_at_period_end: true }, now)).toBe('cancelled');
    expect(overviewCase({ ...base, cancel_at_period_end: true, period_end: now - 1 }, now)).toBe('none');
    expect(overviewCase({ ...base, status: 'canceled' }, now)).toBe('none');
  });
});

describe('how billing is shown', () => {
  it('shows cents in dollars, dates MM/DD/YYYY, expiry MM/YY and card brands', () => {
    expect(formatCents(6000)).toBe('$60.00');
    expect(formatCents(1234)).toBe('$12.34');
    expect(formatCents(-500)).toBe('-$5.00');
    expect(formatBillingDate(Date.UTC(2026, 10, 3, 12) / 1000)).toBe('11/03/2026');
    expect(formatCardExpiry(4, 2030)).toBe('04/30');
    expect(cardBrandName('visa')).toBe('Visa');
    expect(cardBrandName('amex')).toBe('American Express');
    expect(cardBrandName('newcard')).toBe('Newcard');
  });

  it('finds a plan by its Stripe lookup key', () => {
    expect(planOfLookupKey('beacon_team')).toBe('team');
    expect(planOfLookupKey('beacon_business')).toBe('business');
    expect(planOfLookupKey('other')).toBeNull();
    expect(planOfLookupKey(null)).toBeNull();
  });
});

describe('monthlyCost', () => {
  it('is the plan’s price per seat times the seats (spec: team 20, business 30 per user per month)', () => {
    expect(monthlyCost('team', 3)).toBe(6000);
    expect(formatCents(monthlyCost('team', 3))).toBe('$60.00');
    expect(monthlyCost('business', 25)).toBe(75000);
  });

  it('grows by one seat’s price per seat, on every plan', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PLAN_IDS), fc.integer({ min: 1, max: 500 }), (plan, seats) => {
        const clamped = clampSeats(plan, seats);
        expect(monthlyCost(plan, clamped + 1) - monthlyCost(plan, clamped)).toBe(PLANS[plan].unitAmount);
      }),
    );
  });
});
