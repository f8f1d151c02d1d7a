import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Dialog } from 'primereact/dialog';
import { useState, type ReactNode } from 'react';
import type { AccountSubscription, BillingAccount } from '../../contract/billing.js';
import { billingOperations } from '../../contract/operations/billing.js';
import { cardBrandName, formatBillingDate, formatCents, overviewCase } from '../../domain/billing.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { Spinner } from '../components/status-screens.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { useSnackbar } from '../components/snackbars.js';
import {
  CANCEL_FAILED,
  getBillingAccountQueryOptions,
  getSubscriptionInformationQueryOptions,
  SUBSCRIPTION_CANCELLED,
} from './billing-api.js';
import { BillingLoadFailed, BillingNotConfigured } from './billing-parts.js';
import { LinkButton } from '../components/link-button.js';

const title = (text: string) => <h2 className="text-xl font-semibold m-0">{text}</h2>;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-content-between gap-2 py-2 border-bottom-1 surface-border">
      <span className="text-600">{label}</span>
      <span className="font-semibold">{children}</span>
    </div>
  );
}

/** Seats used of the limit (members and pending invites, docs/decisions.md#integrations). */
function SeatUsage({ seats }: { seats: BillingAccount['seats'] }) {
  return (
    <p className="m-0 text-700 flex align-items-center gap-2" aria-label="Seats in use">
      <i className="pi pi-users" aria-hidden="true" />
      <span>
        {seats.limit === null
          ? `${seats.used} seats in use (no limit)`
          : `${seats.used} of ${seats.limit} seats in use (members and pending invites)`}
      </span>
    </p>
  );
}

function NotSubscribed() {
  return (
    <Card title={title('Subscription')}>
      <div className="flex flex-column gap-3 align-items-start">
        <p className="m-0">You are currently not subscribed to any plan</p>
        <LinkButton to="/billing/create-subscription" label="Select Plan" icon="pi pi-shopping-cart" />
      </div>
    </Card>
  );
}

/** Cancelled but running until period_end; choosing a plan again resumes it (an update, not a new one). */
function Cancelled({ subscription }: { subscription: AccountSubscription }) {
  return (
    <Card title={title('Subscription Cancelled')}>
      <div className="flex flex-column gap-3">
        <div>
          <Fact label="Plan">{subscription.product.name}</Fact>
          <Fact label="Seats">{subscription.seats}</Fact>
          <Fact label="Ends on">{formatBillingDate(subscription.period_end)}</Fact>
        </div>
        <p className="m-0 text-700">Your workspace returns to the free plan at the end of the paid period.</p>
        <div className="flex flex-wrap gap-2">
          <LinkButton to="/billing/update-subscription" label="Select Plan" icon="pi pi-shopping-cart" />
          <LinkButton to="/billing/invoices" label="View Previous Invoices" icon="pi pi-file" outlined />
        </div>
      </div>
    </Card>
  );
}

function CancelSubscriptionCard() {
  const api = useApi();
  const client = useQueryClient();
  const { enqueue } = useSnackbar();
  const [open, setOpen] = useState(false);
  const cancel = useMutation({
    mutationFn: () => api.call(billingOperations.cancelSubscription, { body: {} }),
    onSuccess: async (account) => {
      setOpen(false);
      client.setQueryData(keys.billingAccount(), account);
      enqueue(SUBSCRIPTION_CANCELLED);
      await client.invalidateQueries({ queryKey: keys.billing() });
    },
    onError: () => enqueue(CANCEL_FAILED, 'error'),
  });
  return (
    <Card className="h-full" title={title('End Subscription')}>
      <div className="flex flex-column gap-3 align-items-start">
        <p className="m-0">Upon cancelling, you will return to the free plan.</p>
        <Button
          type="button"
          label="Cancel Subscription"
          severity="danger"
          outlined
          icon="pi pi-times"
          onClick={() => setOpen(true)}
        />
      </div>
      <Dialog
        header="Cancel Subscription"
        visible={open}
        onHide={() => setOpen(false)}
        style={{ width: '28rem', maxWidth: '95vw' }}
        footer={
          <div className="flex flex-wrap justify-content-end gap-2">
            <Button
              type="button"
              label="Keep Subscription"
              text
              disabled={cancel.isPending}
              onClick={() => setOpen(false)}
            />
            <Button
              type="button"
              label="Cancel Subscription"
              severity="danger"
              loading={cancel.isPending}
              onClick={() => cancel.mutate()}
            />
          </div>
        }
      >
        <p className="m-0">
          The subscription ends at the end of the paid period, and the workspace then returns to the free plan.
        </p>
      </Dialog>
    </Card>
  );
}

function Active({ subscription }: { subscription: AccountSubscription }) {
  const api = useApi();
  const info = useQuery(getSubscriptionInformationQueryOptions(api));
  if (info.isPending) return <Spinner label="Loading subscription" />;
  if (!info.data) return <BillingLoadFailed what="The subscription" />;
  const { current_quantity, product_description, latest_invoice, upcoming_invoice, card } = info.data;
  const late = subscription.status === 'past_due' || subscription.status === 'unpaid';
  return (
    <div className="flex flex-column gap-3">
      {late && (
        <p className="m-0 p-3 border-round bg-red-50 text-red-700 flex align-items-center gap-2" role="alert">
          <i className="pi pi-exclamation-triangle" aria-hidden="true" />
          <span>The last payment failed. Pay the open invoice or change the card to keep your seats.</span>
        </p>
      )}
      <div className="grid">
        <div className="col-12 lg:col-6">
          <Card className="h-full" title={title('Plan Details')}>
            <div className="flex flex-column gap-3 align-items-stretch">
              <div>
                <Fact label="Plan">{subscription.product.name}</Fact>
                <Fact label="Seats">{current_quantity}</Fact>
              </div>
              <p className="m-0 text-700">{product_description}</p>
              <div>
                <LinkButton to="/billing/update-subscription" label="Change Plan" icon="pi pi-pencil" />
              </div>
            </div>
          </Card>
        </div>
        <div className="col-12 lg:col-6">
          <Card className="h-full" title={title('Payments')}>
            <div className="flex flex-column gap-3">
              <div>
                <Fact label="Last payment">{latest_invoice ? formatCents(latest_invoice.amount_due) : 'None'}</Fact>
                <Fact label="Next payment">
                  {upcoming_invoice
                    ? `${formatCents(upcoming_invoice.amount_due)}${
                        upcoming_invoice.next_payment_attempt
                          ? ` on ${formatBillingDate(upcoming_invoice.next_payment_attempt)}`
                          : ''
                      }`
                    : 'None'}
                </Fact>
              </div>
              <div>
                <LinkButton to="/billing/invoices" label="View Invoices" icon="pi pi-file" outlined />
              </div>
            </div>
          </Card>
        </div>
        <div className="col-12 lg:col-6">
          <Card className="h-full" title={title('Payment Method')}>
            <div className="flex flex-column gap-3">
              <p className="m-0 flex align-items-center gap-2">
                <i className="pi pi-credit-card text-600" aria-hidden="true" />
                <span>{card ? `${cardBrandName(card.brand)} ending in ${card.last4}` : 'No card on file'}</span>
              </p>
              <div>
                <LinkButton
                  to="/billing/manage-payment-methods"
                  label="Manage Payment Methods"
                  icon="pi pi-wallet"
                  outlined
                />
              </div>
            </div>
          </Card>
        </div>
        <div className="col-12 lg:col-6">
          <CancelSubscriptionCard />
        </div>
      </div>
    </div>
  );
}

/** /billing (spec/platform.md "Billing"): the three cases of the subscription, and the seats in use. */
export function BillingOverview() {
  useBreadcrumb({ name: 'Billing' });
  const api = useApi();
  const account = useQuery(getBillingAccountQueryOptions(api));
  let body: ReactNode;
  if (account.isPending) body = <Spinner label="Loading subscription" />;
  else if (!account.data) body = <BillingLoadFailed what="Billing" />;
  else if (!account.data.billing.configured) body = <BillingNotConfigured />;
  else {
    const subscription = account.data.stripe.subscription;
    const shown = overviewCase(subscription, Math.floor(Date.now() / 1000));
    body =
      shown === 'active' && subscription ? (
        <Active subscription={subscription} />
      ) : shown === 'cancelled' && subscription ? (
        <Cancelled subscription={subscription} />
      ) : (
        <NotSubscribed />
      );
  }
  return (
    <div className="flex flex-column gap-3">
      <h1 className="text-2xl font-semibold m-0">Billing</h1>
      {account.data && <SeatUsage seats={account.data.seats} />}
      {body}
    </div>
  );
}
