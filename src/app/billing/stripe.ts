/**
 * Stripe.js, loaded from Stripe only when a payment screen needs it (docs/decisions.md#integrations): the `pure` entry
 * injects the script on the first `loadStripe` call, not on import, and only this lazily loaded billing chunk
 * imports it, so the shell, /login and the offline pages never touch js.stripe.com.
 */
import type { Stripe } from '@stripe/stripe-js';
// The `pure` entry: no script is injected on import, only on the first call.
import { loadStripe } from '@stripe/stripe-js/pure';

const loads = new Map<string, Promise<Stripe | null>>();

/**
 * Stripe for a publishable key, once per key while it loads or has loaded. Rejects when the script cannot be
 * loaded; the next call then tries again (`loadStripe` forgets a failed load).
 */
export function stripeFor(publishableKey: string): Promise<Stripe | null> {
  const loading = loads.get(publishableKey);
  if (loading) return loading;
  const load = loadStripe(publishableKey);
  loads.set(publishableKey, load);
  load.catch(() => loads.delete(publishableKey));
  return load;
}
