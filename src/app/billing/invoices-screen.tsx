import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { useEffect } from 'react';
import type { Invoice } from '../../contract/billing.js';
import { billingOperations } from '../../contract/operations/billing.js';
import { formatBillingDate, formatCents } from '../../domain/billing.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { Spinner } from '../components/status-screens.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { useSnackbar } from '../components/snackbars.js';
import {
  getInvoicesQueryOptions,
  getPaymentMethodsQueryOptions,
  INVOICE_PAID,
  INVOICES_FAILED,
  PAY_FAILED,
  refusalReason,
} from './billing-api.js';
import { BillingLoadFailed } from './billing-parts.js';
import { LinkButton } from '../components/link-button.js';

const statusLabel = (status: string | null) => (status ? status.charAt(0).toUpperCase() + status.slice(1) : '—');

/** Pays an open invoice with the workspace's default card (spec: retry invoice). */
function PayButton({ invoice }: { invoice: Invoice }) {
  const api = useApi();
  const client = useQueryClient();
  const { enqueue } = useSnackbar();
  const methods = useQuery(getPaymentMethodsQueryOptions(api));
  const defaultCard = methods.data?.find((method) => method.default);
  const pay = useMutation({
    mutationFn: (paymentMethodId: string) =>
      api.call(billingOperations.retryInvoice, {
        body: { invoice_id: invoice.id, payment_method_id: paymentMethodId },
      }),
    onSuccess: async (paid) => {
      client.setQueryData(keys.billingInvoices(), (list: Invoice[] | undefined) =>
        list?.map((item) => (item.id === paid.id ? paid : item)),
      );
      enqueue(INVOICE_PAID);
      await client.invalidateQueries({ queryKey: keys.billing() });
    },
    onError: (error) => {
      const reason = refusalReason(error);
      enqueue(reason ? `${PAY_FAILED}: ${reason}` : PAY_FAILED, 'error');
    },
  });
  return (
    <Button
      type="button"
      label="Pay"
      size="small"
      icon="pi pi-credit-card"
      aria-label={`Pay invoice of ${formatBillingDate(invoice.created)}`}
      loading={pay.isPending}
      disabled={!defaultCard}
      tooltip={methods.data && !defaultCard ? 'Add a card first' : undefined}
      onClick={() => defaultCard && pay.mutate(defaultCard.id)}
    />
  );
}

/** /billing/invoices (spec/platform.md "Billing"): the invoices, newest first, each opening Stripe's page. */
export function InvoicesScreen() {
  useBreadcrumb({ name: 'Billing', to: '/billing', crumbs: [{ label: 'Invoices' }] });
  const api = useApi();
  const { enqueue } = useSnackbar();
  const invoices = useQuery(getInvoicesQueryOptions(api));
  useEffect(() => {
    if (invoices.isError) enqueue(INVOICES_FAILED, 'error');
  }, [invoices.isError, enqueue]);
  const list = invoices.data ?? [];
  return (
    <div className="flex flex-column gap-3">
      <div className="flex flex-wrap align-items-center justify-content-between gap-2">
        <h1 className="text-2xl font-semibold m-0">Invoices</h1>
        <LinkButton to="/billing" label="Back to Billing" icon="pi pi-arrow-left" outlined />
      </div>
      <Card>
        {invoices.isPending ? (
          <Spinner label="Loading invoices" />
        ) : !invoices.data ? (
          <BillingLoadFailed what="The invoices" />
        ) : list.length === 0 ? (
          <p className="m-0 text-600">No Invoices</p>
        ) : (
          // The table scrolls inside its card on a narrow screen rather than widening the page.
          <div className="overflow-x-auto">
            <table className="w-full" style={{ borderCollapse: 'collapse' }} aria-label="Invoices">
              <thead>
                <tr className="text-left text-600 text-sm">
                  <th className="py-2 pr-2 font-semibold">Date</th>
                  <th className="py-2 pr-2 font-semibold">Amount</th>
                  <th className="py-2 pr-2 font-semibold">Status</th>
                  <th className="py-2 font-semibold">
                    <span className="p-hidden-accessible">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((invoice) => (
                  <tr key={invoice.id} className="border-top-1 surface-border">
                    <td className="py-2 pr-2 white-space-nowrap">{formatBillingDate(invoice.created)}</td>
                    <td className="py-2 pr-2 white-space-nowrap">{formatCents(invoice.amount_due)}</td>
                    <td className="py-2 pr-2">{statusLabel(invoice.status)}</td>
                    <td className="py-2">
                      <div className="flex flex-wrap align-items-center justify-content-end gap-2">
                        {invoice.status === 'open' && <PayButton invoice={invoice} />}
                        {invoice.hosted_invoice_url && (
                          <a href={invoice.hosted_invoice_url} target="_blank" rel="noopener noreferrer">
                            View Invoice
                          </a>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
