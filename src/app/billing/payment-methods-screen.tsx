import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { RadioButton } from 'primereact/radiobutton';
import { useState } from 'react';
import type { PaymentMethod } from '../../contract/billing.js';
import { billingOperations } from '../../contract/operations/billing.js';
import { cardBrandName, formatCardExpiry } from '../../domain/billing.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { ConfirmDelete } from '../components/confirm-delete.js';
import { Spinner } from '../components/status-screens.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { useSnackbar } from '../components/snackbars.js';
import { getPaymentMethodsQueryOptions, refusalReason } from './billing-api.js';
import { BillingLoadFailed } from './billing-parts.js';
import { LinkButton } from '../components/link-button.js';

export const DEFAULT_CARD_CHANGED = 'Your default card has been changed';
export const CARD_REMOVED = 'Your card has been removed';
export const CARDS_FAILED = 'There was an error while updating your payment methods';

export function cardLabel(method: PaymentMethod): string {
  return `${cardBrandName(method.card.brand)} ending in ${method.card.last4}`;
}

function PaymentMethodItem({
  method,
  busy,
  onSetDefault,
  onDelete,
}: {
  method: PaymentMethod;
  busy: boolean;
  onSetDefault: () => void;
  onDelete: () => Promise<unknown>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const id = `payment-method-${method.id}`;
  return (
    <li className="flex flex-wrap align-items-center gap-3 py-3 border-bottom-1 surface-border">
      <div className="flex align-items-center gap-2 flex-1" style={{ minWidth: '12rem' }}>
        <RadioButton
          inputId={id}
          name="default-payment-method"
          value={method.id}
          checked={method.default}
          disabled={busy}
          onChange={() => !method.default && onSetDefault()}
        />
        <label htmlFor={id} className="flex flex-wrap gap-2">
          <span className="font-semibold">{cardBrandName(method.card.brand)}</span>
          <span>ending in {method.card.last4}</span>
          <span className="text-600">{formatCardExpiry(method.card.exp_month, method.card.exp_year)}</span>
          {method.default && <span className="text-600">(default)</span>}
        </label>
      </div>
      {!method.default && (
        <div className="flex flex-wrap gap-2">
          <ConfirmDelete
            label="Delete"
            question={`Remove the card ${cardLabel(method)}?`}
            open={confirming}
            onOpenChange={setConfirming}
            pending={deleting}
            disabled={busy}
            onDelete={() => {
              setDeleting(true);
              void onDelete().finally(() => {
                setDeleting(false);
                setConfirming(false);
              });
            }}
          />
          <Button
            type="button"
            label="Set as Default"
            icon="pi pi-check"
            outlined
            disabled={busy}
            onClick={onSetDefault}
          />
        </div>
      )}
    </li>
  );
}

/** /billing/manage-payment-methods (spec/platform.md "Billing"): the workspace's cards, one of them the default. */
export function PaymentMethodsScreen() {
  useBreadcrumb({ name: 'Billing', to: '/billing', crumbs: [{ label: 'Payment Methods' }] });
  const api = useApi();
  const client = useQueryClient();
  const { enqueue } = useSnackbar();
  const methods = useQuery(getPaymentMethodsQueryOptions(api));
  const failed = (error: unknown) => {
    const reason = refusalReason(error);
    enqueue(reason ? `${CARDS_FAILED}: ${reason}` : CARDS_FAILED, 'error');
  };
  const setDefault = useMutation({
    mutationFn: (id: string) => api.call(billingOperations.updateDefaultPaymentMethod, { body: { id } }),
    onSuccess: async (list) => {
      client.setQueryData(keys.billingPaymentMethods(), list);
      enqueue(DEFAULT_CARD_CHANGED);
      await client.invalidateQueries({ queryKey: keys.billingSubscription() });
    },
    onError: failed,
  });
  const detach = useMutation({
    mutationFn: (id: string) => api.call(billingOperations.detachPaymentMethod, { body: { id } }),
    onSuccess: (_nothing, id) => {
      client.setQueryData(keys.billingPaymentMethods(), (list: PaymentMethod[] | undefined) =>
        list?.filter((method) => method.id !== id),
      );
      enqueue(CARD_REMOVED);
    },
    onError: failed,
  });
  const list = methods.data ?? [];
  return (
    <div className="flex flex-column gap-3">
      <div className="flex flex-wrap align-items-center justify-content-between gap-2">
        <h1 className="text-2xl font-semibold m-0">Payment Methods</h1>
        <LinkButton to="/billing" label="Back to Billing" icon="pi pi-arrow-left" outlined />
      </div>
      <Card>
        {methods.isPending ? (
          <Spinner label="Loading payment methods" />
        ) : !methods.data ? (
          <BillingLoadFailed what="The payment methods" />
        ) : list.length === 0 ? (
          <p className="m-0 text-600">No cards yet. A card is added when you subscribe or change your plan.</p>
        ) : (
          <div role="radiogroup" aria-label="Default payment method">
            <ul className="list-none p-0 m-0" aria-label="Payment methods">
              {list.map((method) => (
                <PaymentMethodItem
                  key={method.id}
                  method={method}
                  busy={setDefault.isPending || detach.isPending}
                  onSetDefault={() => setDefault.mutate(method.id)}
                  onDelete={() => detach.mutateAsync(method.id).catch(() => undefined)}
                />
              ))}
            </ul>
          </div>
        )}
      </Card>
    </div>
  );
}
