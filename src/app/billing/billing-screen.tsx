import { Route, Routes } from 'react-router-dom';
import { isAdminRole } from '../../domain/roles.js';
import { NotFound } from '../components/status-screens.js';
import { useOnline } from '../components/use-online.js';
import { useAuth } from '../session/auth-context.js';
import { BillingOffline } from './billing-parts.js';
import { BillingOverview } from './billing-overview.js';
import { InvoicesScreen } from './invoices-screen.js';
import { PaymentMethodsScreen } from './payment-methods-screen.js';
import { PaymentScreen } from './payment-screen.js';

/**
 * The billing area (spec/platform.md "Billing"; docs/decisions.md#integrations): owners and admins only (the only ones
 * a suspended workspace lets in). Online-only: offline it says so rather than showing anything stale.
 */
export default function BillingScreen() {
  const { state } = useAuth();
  const online = useOnline();
  if (!isAdminRole(state.user?.role ?? 'guest')) return <NotFound />;
  if (!online) return <BillingOffline />;
  return (
    <Routes>
      <Route index element={<BillingOverview />} />
      <Route path="create-subscription" element={<PaymentScreen mode="create" />} />
      <Route path="update-subscription" element={<PaymentScreen mode="update" />} />
      <Route path="invoices" element={<InvoicesScreen />} />
      <Route path="manage-payment-methods" element={<PaymentMethodsScreen />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
