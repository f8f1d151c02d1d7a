/**
 * Billing's reads (spec/platform.md "Billing"; docs/decisions.md#integrations). Billing is online-only: nothing here is
 * stored in Dexie (`persist: false`) and every write goes straight to the server, never through the outbox.
 */
import { queryOptions } from '@tanstack/react-query';
import { billingOperations } from '../../contract/operations/billing.js';
import type { PlanId } from '../../domain/billing.js';
import { ApiError, type ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';

/** Spec section 8: the success and error notices of billing. */
export const SUBSCRIPTION_UPDATED = 'Your subscription has been updated';
export const SUBSCRIPTION_CANCELLED = 'Your subscription has been cancelled';
export const INVOICE_PAID = 'Invoice was successfully paid';
export const CREATE_FAILED = 'There was an error while creating your subscription';
export const UPDATE_FAILED = 'There was an error while updating your subscription';
export const CANCEL_FAILED = 'There was an error while cancelling your subscription';
export const PAY_FAILED = 'There was an error while paying your invoice';
export const UPCOMING_FAILED = 'There was an error while get your next invoice';
export const INVOICES_FAILED = 'There was an error while get your invoices';
export const STRIPE_LOAD_FAILED = 'There was an error while loading stripe';

const online = { meta: { persist: false }, networkMode: 'online' } as const;

export function getBillingAccountQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: keys.billingAccount(),
    queryFn: () => api.call(billingOperations.getAccount),
    ...online,
  });
}

export function getSubscriptionInformationQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: keys.billingSubscription(),
    queryFn: () => api.call(billingOperations.retrieveSubscriptionInformation, { body: {} }),
    ...online,
  });
}

export function getInvoicesQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: keys.billingInvoices(),
    queryFn: () => api.call(billingOperations.listInvoices),
    ...online,
  });
}

export function getPaymentMethodsQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: keys.billingPaymentMethods(),
    queryFn: () => api.call(billingOperations.listPaymentMethods, { body: {} }),
    ...online,
  });
}

export function getUpcomingInvoiceQueryOptions(api: ApiClient, plan: PlanId, quantity: number) {
  return queryOptions({
    queryKey: keys.billingUpcomingInvoice(plan, quantity),
    queryFn: () => api.call(billingOperations.retrieveUpcomingInvoice, { body: { plan, quantity } }),
    ...online,
  });
}

/**
 * Why Stripe or the server refused a billing write, for the user to read beside the spec's notice: the server's
 * message for a refusal the user can act on (a declined card is 402; too few seats for the members is 400 or 409).
 */
export function refusalReason(error: unknown): string | null {
  if (error instanceof ApiError && [400, 402, 409].includes(error.status)) return error.firstError();
  return null;
}
