import { Card } from 'primereact/card';
import { MessageCard } from '../components/status-screens.js';

export function BillingLoadFailed({ what }: { what: string }) {
  return (
    <p className="m-0 p-error" role="alert">
      {what} could not be loaded. Try again in a moment.
    </p>
  );
}

/** docs/decisions.md#integrations: without Stripe's variables billing is off, and nothing is limited. */
export function BillingNotConfigured() {
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Billing is not configured</h2>}>
      <p className="m-0 text-700 flex align-items-center gap-2">
        <i className="pi pi-info-circle" aria-hidden="true" />
        <span>Billing is not configured on this server, so nothing is limited: invite as many people as you like.</span>
      </p>
    </Card>
  );
}

/** Billing is online-only (docs/decisions.md#integrations): nothing of it is kept on the device, nothing is queued. */
export const BILLING_OFFLINE = 'Billing is not available offline';

export function BillingOffline() {
  return (
    <MessageCard title={BILLING_OFFLINE} icon="pi-wifi">
      Billing needs a connection: plans, invoices and cards are never kept on this device. It will load once you are
      back online.
    </MessageCard>
  );
}
