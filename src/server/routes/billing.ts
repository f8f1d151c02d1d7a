import type { FastifyInstance } from 'fastify';
import { billingOperations, stripeWebhookOperations } from '../../contract/operations/billing.js';
import type { ServerContext } from '../context.js';
import { route, routes } from '../operations.js';
import {
  cancelSubscription,
  changeSubscription,
  createSubscription,
  detachPaymentMethod,
  getAccount,
  listInvoices,
  listPaymentMethods,
  retrievePaymentMethod,
  retryInvoice,
  setDefaultPaymentMethod,
  subscriptionInformation,
  upcomingInvoice,
} from '../services/billing/billing.js';
import { applyStripeWebhook } from '../services/billing/stripe-webhooks.js';

/**
 * The billing account, the subscription actions (owners and admins) and Stripe's webhook
 * (docs/decisions.md#integrations).
 */
export function billingRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) => {
    routes(ctx, app, billingOperations, {
      getAccount: ({ caller }) => getAccount(ctx, caller),
      listInvoices: ({ caller }) => listInvoices(ctx, caller),
      retrieveSubscriptionInformation: ({ caller }) => subscriptionInformation(ctx, caller),
      createSubscription: ({ caller, body }) => createSubscription(ctx, caller, body),
      updateSubscription: ({ caller, body }) => changeSubscription(ctx, caller, body),
      cancelSubscription: ({ caller }) => cancelSubscription(ctx, caller),
      listPaymentMethods: ({ caller }) => listPaymentMethods(ctx, caller),
      retrievePaymentMethod: ({ caller, body }) => retrievePaymentMethod(ctx, caller, body.payment_method_id),
      updateDefaultPaymentMethod: ({ caller, body }) => setDefaultPaymentMethod(ctx, caller, body.id),
      detachPaymentMethod: async ({ caller, body }) => {
        await detachPaymentMethod(ctx, caller, body.id);
        return null;
      },
      retryInvoice: ({ caller, body }) => retryInvoice(ctx, caller, body),
      retrieveUpcomingInvoice: ({ caller, body }) => upcomingInvoice(ctx, caller, body),
    });
    // The signature is over the exact bytes Stripe sent: this route alone reads JSON as a raw buffer.
    await app.register(async (webhook) => {
      webhook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
        done(null, body),
      );
      route(ctx, webhook, stripeWebhookOperations.receiveStripeWebhook, ({ request }) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['stripe-signature'];
        return applyStripeWebhook(ctx, raw, typeof signature === 'string' ? signature : undefined);
      });
    });
  };
}
