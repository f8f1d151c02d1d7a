import { z } from 'zod';
import {
  billingAccount,
  createSubscriptionBody,
  emptyBody,
  invoice,
  listPaymentMethodsBody,
  paymentMethod,
  paymentMethodBody,
  paymentMethodIdBody,
  retryInvoiceBody,
  subscriptionInformation,
  upcomingInvoice,
  upcomingInvoiceBody,
  updateSubscriptionBody,
} from '../billing.js';
import { defineOperations } from '../operation.js';

const tags = ['billing'];
const action = (name: string) => `/account/subscriptions/actions/${name}`;
/** Stripe refusing a card or an invoice payment is 402 with Stripe's message. */
const stripeErrors = [400, 401, 402, 403, 409, 503] as const;

/**
 * The billing account and the spec's subscription actions (spec/platform.md section 7; docs/decisions.md#integrations):
 * owners and admins only, one Stripe customer per workspace. 409 when billing is not configured on this server.
 */
export const billingOperations = defineOperations({
  getAccount: {
    method: 'GET',
    path: '/account',
    summary: "The workspace's billing: whether it is on, its seats and its subscription (owners and admins)",
    tags,
    access: 'user',
    response: billingAccount,
    errors: [401, 403],
  },
  listInvoices: {
    method: 'GET',
    path: '/account/invoices',
    summary: "The workspace's invoices, newest first (owners and admins)",
    tags,
    access: 'user',
    response: z.array(invoice),
    errors: [401, 403, 409],
  },
  retrieveSubscriptionInformation: {
    method: 'POST',
    path: action('retrieve-subscription-information'),
    summary: 'Seats, plan, the last and next payment and the default card of the subscription',
    tags,
    access: 'user',
    body: emptyBody.optional(),
    response: subscriptionInformation,
    errors: [400, 401, 403, 404, 409],
  },
  createSubscription: {
    method: 'POST',
    path: action('create-subscription'),
    summary: 'Subscribe to a plan with a number of seats, paying with a card (it becomes the default)',
    tags,
    access: 'user',
    body: createSubscriptionBody,
    response: billingAccount,
    status: 201,
    errors: stripeErrors,
  },
  updateSubscription: {
    method: 'POST',
    path: action('update-subscription'),
    summary: 'Change plan or seats (prorated); never below the seats in use',
    tags,
    access: 'user',
    body: updateSubscriptionBody,
    response: billingAccount,
    errors: [...stripeErrors, 404],
  },
  cancelSubscription: {
    method: 'POST',
    path: action('cancel-subscription'),
    summary: 'Cancel at the end of the paid period; the workspace then returns to the free plan',
    tags,
    access: 'user',
    body: emptyBody.optional(),
    response: billingAccount,
    errors: [400, 401, 403, 404, 409],
  },
  listPaymentMethods: {
    method: 'POST',
    path: action('list-payment-methods'),
    summary: "The workspace's cards, the default one marked",
    tags,
    access: 'user',
    body: listPaymentMethodsBody.optional(),
    response: z.array(paymentMethod),
    errors: [400, 401, 403, 409],
  },
  retrievePaymentMethod: {
    method: 'POST',
    path: action('retrieve-payment-method'),
    summary: 'One of the workspace’s cards',
    tags,
    access: 'user',
    body: paymentMethodIdBody,
    response: paymentMethod,
    errors: [400, 401, 403, 404, 409],
  },
  updateDefaultPaymentMethod: {
    method: 'POST',
    path: action('update-default-payment-method'),
    summary: 'Make one of the workspace’s cards the default; answers the cards',
    tags,
    access: 'user',
    body: paymentMethodBody,
    response: z.array(paymentMethod),
    errors: [400, 401, 403, 404, 409],
  },
  detachPaymentMethod: {
    method: 'POST',
    path: action('detach-payment-method'),
    summary: 'Remove a card that is not the default',
    tags,
    access: 'user',
    body: paymentMethodBody,
    response: null,
    errors: [400, 401, 403, 404, 409],
  },
  retryInvoice: {
    method: 'POST',
    path: action('retry-invoice'),
    summary: 'Pay an open invoice again with a card (it becomes the default)',
    tags,
    access: 'user',
    body: retryInvoiceBody,
    response: invoice,
    errors: [...stripeErrors, 404],
  },
  retrieveUpcomingInvoice: {
    method: 'POST',
    path: action('retrieve-upcoming-invoice'),
    summary: 'What the next invoice would be with this plan and seats (a preview, prorated)',
    tags,
    access: 'user',
    body: upcomingInvoiceBody,
    response: upcomingInvoice,
    errors: [400, 401, 403, 404, 409],
  },
});

/** Stripe's webhook endpoint (docs/decisions.md#integrations): the raw JSON event, its `Stripe-Signature` checked. */
export const stripeWebhookOperations = defineOperations({
  receiveStripeWebhook: {
    method: 'POST',
    path: '/stripe/webhook',
    summary: "Stripe's events: subscription and invoice state, signed with the webhook secret; each applied once",
    tags,
    access: 'public',
    response: z.object({ received: z.literal(true) }),
    errors: [400, 404, 503],
  },
});
