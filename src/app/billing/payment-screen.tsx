import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { RadioButton } from 'primereact/radiobutton';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { BillingAccount } from '../../contract/billing.js';
import { billingOperations } from '../../contract/operations/billing.js';
import {
  canAddSeat,
  canRemoveSeat,
  clampSeats,
  DEFAULT_PLAN,
  DEFAULT_SEATS,
  formatBillingDate,
  formatCents,
  monthlyCost,
  overviewCase,
  PLAN_IDS,
  PLANS,
  seatCountError,
  type PlanId,
} from '../../domain/billing.js';
import { ApiError } from '../api/client.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { Spinner } from '../components/status-screens.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { useSnackbar } from '../components/snackbars.js';
import {
  CREATE_FAILED,
  getBillingAccountQueryOptions,
  getPaymentMethodsQueryOptions,
  getUpcomingInvoiceQueryOptions,
  refusalReason,
  STRIPE_LOAD_FAILED,
  SUBSCRIPTION_UPDATED,
  UPCOMING_FAILED,
  UPDATE_FAILED,
} from './billing-api.js';
import { BillingLoadFailed, BillingNotConfigured } from './billing-parts.js';
import { LinkButton } from '../components/link-button.js';
import { cardLabel } from './payment-methods-screen.js';
import { stripeFor } from './stripe.js';

type Mode = 'create' | 'update';
/** The card that pays: a saved one (its id) or a new one typed into Stripe's card field. */
const NEW_CARD = 'new';

function PlanPicker({ plan, onChange }: { plan: PlanId; onChange: (plan: PlanId) => void }) {
  return (
    <div className="grid" role="group" aria-label="Plans">
      {PLAN_IDS.map((id) => {
        const chosen = id === plan;
        return (
          <div key={id} className="col-12 md:col-6">
            <section
              className={`h-full border-round p-3 flex flex-column gap-2 ${
                chosen ? 'border-2 border-primary' : 'border-1 surface-border'
              }`}
              aria-label={`${PLANS[id].name} plan`}
            >
              <h3 className="text-lg font-semibold m-0">{PLANS[id].name}</h3>
              <p className="m-0">
                <span className="text-xl font-semibold">{formatCents(PLANS[id].unitAmount)}</span>
                <span className="text-600"> per user per month</span>
              </p>
              <p className="m-0 text-700 flex align-items-center gap-2">
                <i className="pi pi-users" aria-hidden="true" />
                <span>{PLANS[id].feature}</span>
              </p>
              <div>
                <Button
                  type="button"
                  label={chosen ? 'selected' : 'select'}
                  icon={chosen ? 'pi pi-check' : undefined}
                  outlined={!chosen}
                  aria-pressed={chosen}
                  onClick={() => onChange(id)}
                />
              </div>
            </section>
          </div>
        );
      })}
    </div>
  );
}

function SeatCounter({
  plan,
  seats,
  onChange,
  used,
}: {
  plan: PlanId;
  seats: number;
  onChange: (seats: number) => void;
  used: number;
}) {
  const id = useId();
  const [text, setText] = useState(String(seats));
  useEffect(() => setText(String(seats)), [seats]);
  const max = PLANS[plan].maxSeats;
  return (
    <div className="flex flex-column gap-2">
      <label htmlFor={id} className="font-semibold">
        Seats
      </label>
      <div className="flex align-items-center gap-2">
        <Button
          type="button"
          icon="pi pi-minus"
          outlined
          aria-label="Remove a seat"
          disabled={!canRemoveSeat(seats)}
          onClick={() => onChange(clampSeats(plan, seats - 1))}
        />
        <input
          id={id}
          className="p-inputtext p-component text-center"
          style={{ width: '5rem' }}
          type="number"
          inputMode="numeric"
          min={1}
          max={max ?? undefined}
          required
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            const value = Number(event.target.value);
            if (event.target.value !== '' && Number.isInteger(value)) onChange(value);
          }}
          onBlur={() => onChange(clampSeats(plan, Number(text) || 0))}
        />
        <Button
          type="button"
          icon="pi pi-plus"
          outlined
          aria-label="Add a seat"
          disabled={!canAddSeat(plan, seats)}
          onClick={() => onChange(clampSeats(plan, seats + 1))}
        />
      </div>
      <small className="text-600">
        {max === null ? 'Unlimited seats' : `Up to ${max} seats`} · your workspace uses {used}{' '}
        {used === 1 ? 'seat' : 'seats'} (members and pending invites)
      </small>
    </div>
  );
}

function UpcomingInvoiceLine({ plan, seats }: { plan: PlanId; seats: number }) {
  const api = useApi();
  const { enqueue } = useSnackbar();
  const valid = seatCountError(plan, seats) === null;
  const upcoming = useQuery({
    ...getUpcomingInvoiceQueryOptions(api, plan, seats),
    enabled: valid,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const refused = upcoming.error instanceof ApiError && upcoming.error.status === 400;
  useEffect(() => {
    if (upcoming.isError && !refused) enqueue(UPCOMING_FAILED, 'error');
  }, [upcoming.isError, refused, enqueue]);
  if (!valid) return null;
  if (refused) return <p className="m-0 text-600">{refusalReason(upcoming.error)}</p>;
  if (!upcoming.data)
    return upcoming.isFetching ? <p className="m-0 text-600">Working out your next invoice…</p> : null;
  const { amount_due, next_payment_attempt } = upcoming.data;
  return (
    <p className="m-0" aria-live="polite">
      Next invoice with this change: <strong>{formatCents(amount_due)}</strong>
      {next_payment_attempt ? ` on ${formatBillingDate(next_payment_attempt)}` : ''}
    </p>
  );
}

function PaymentForm({ mode, account, stripeFailed }: { mode: Mode; account: BillingAccount; stripeFailed: boolean }) {
  const api = useApi();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { enqueue } = useSnackbar();
  const stripe = useStripe();
  const elements = useElements();
  const subscription = account.stripe.subscription;
  const [plan, setPlan] = useState<PlanId>(mode === 'update' && subscription ? subscription.plan : DEFAULT_PLAN);
  const [seats, setSeats] = useState(mode === 'update' && subscription ? subscription.seats : DEFAULT_SEATS);
  const methods = useQuery({ ...getPaymentMethodsQueryOptions(api), retry: false });
  const saved = methods.data ?? [];
  const defaultCard = saved.find((method) => method.default);
  const [choice, setChoice] = useState<string | null>(null);
  const card = choice ?? defaultCard?.id ?? NEW_CARD;
  const [cardError, setCardError] = useState<string | null>(null);
  const [reason, setReason] = useState<string | null>(null);
  const [creatingCard, setCreatingCard] = useState(false);

  const save = useMutation({
    mutationFn: (paymentMethodId: string | undefined) =>
      mode === 'create'
        ? api.call(billingOperations.createSubscription, {
            body: { plan, payment_method_id: paymentMethodId!, quantity: seats },
          })
        : api.call(billingOperations.updateSubscription, {
            body: { plan, quantity: seats, ...(paymentMethodId ? { payment_method_id: paymentMethodId } : {}) },
          }),
    onSuccess: (updated) => {
      client.setQueryData(keys.billingAccount(), updated);
      void client.invalidateQueries({ queryKey: keys.billing() });
      enqueue(SUBSCRIPTION_UPDATED);
      navigate('/billing');
    },
    onError: (error) => {
      enqueue(mode === 'create' ? CREATE_FAILED : UPDATE_FAILED, 'error');
      setReason(refusalReason(error));
    },
  });

  const seatError = seatCountError(plan, seats);
  const busy = creatingCard || save.isPending;
  const newCardUnavailable = card === NEW_CARD && (stripeFailed || !stripe || !elements);

  async function pay(event: FormEvent) {
    event.preventDefault();
    if (busy || seatError) return;
    setReason(null);
    if (card !== NEW_CARD) {
      // A saved card that is already the default need not be sent again.
      save.mutate(mode === 'update' && card === defaultCard?.id ? undefined : card);
      return;
    }
    const element = elements?.getElement(CardElement);
    if (!stripe || !element) return;
    setCreatingCard(true);
    try {
      const result = await stripe.createPaymentMethod({ type: 'card', card: element });
      if (result.error) {
        setCardError(result.error.message ?? 'This card cannot be used');
        return;
      }
      save.mutate(result.paymentMethod.id);
    } catch {
      setCardError('Stripe could not check this card; try again in a moment');
    } finally {
      setCreatingCard(false);
    }
  }

  return (
    <form className="flex flex-column gap-3" onSubmit={(event) => void pay(event)} noValidate>
      <Card title={<h2 className="text-xl font-semibold m-0">Plan</h2>}>
        <div className="flex flex-column gap-3">
          <PlanPicker
            plan={plan}
            onChange={(next) => {
              setPlan(next);
              setSeats(clampSeats(next, seats));
            }}
          />
          <SeatCounter plan={plan} seats={seats} onChange={setSeats} used={account.seats.used} />
          {seatError && (
            <small className="p-error" role="alert">
              {seatError}
            </small>
          )}
          <p className="m-0">
            Total: <strong>{formatCents(monthlyCost(plan, seats))}</strong> per month
          </p>
          {mode === 'update' && subscription && <UpcomingInvoiceLine plan={plan} seats={seats} />}
        </div>
      </Card>
      <Card title={<h2 className="text-xl font-semibold m-0">Payment</h2>}>
        <div className="flex flex-column gap-3">
          {saved.length > 0 && (
            <div className="flex flex-column gap-2" role="radiogroup" aria-label="Card to pay with">
              {saved.map((method) => (
                <div key={method.id} className="flex align-items-center gap-2">
                  <RadioButton
                    inputId={`pay-with-${method.id}`}
                    name="pay-with"
                    value={method.id}
                    checked={card === method.id}
                    onChange={() => setChoice(method.id)}
                  />
                  <label htmlFor={`pay-with-${method.id}`}>
                    {cardLabel(method)}
                    {method.default ? ' (default)' : ''}
                  </label>
                </div>
              ))}
              <div className="flex align-items-center gap-2">
                <RadioButton
                  inputId="pay-with-new"
                  name="pay-with"
                  value={NEW_CARD}
                  checked={card === NEW_CARD}
                  onChange={() => setChoice(NEW_CARD)}
                />
                <label htmlFor="pay-with-new">Use a new card</label>
              </div>
            </div>
          )}
          {card === NEW_CARD &&
            (stripeFailed ? (
              <p className="m-0 p-error flex align-items-center gap-2">
                <i className="pi pi-exclamation-circle" aria-hidden="true" />
                <span>Card entry is unavailable: Stripe could not be reached. Reload the page to try again.</span>
              </p>
            ) : (
              <div className="flex flex-column gap-2">
                <span className="font-semibold">Card</span>
                <div className="border-1 surface-border border-round p-3 min-w-0">
                  {stripe ? null : <Spinner label="Loading card entry" />}
                  <CardElement
                    options={{ hidePostalCode: true }}
                    onChange={(event) => {
                      setCardError(event.error?.message ?? null);
                      setReason(null);
                    }}
                  />
                </div>
              </div>
            ))}
          {cardError && (
            <small className="p-error" role="alert">
              {cardError}
            </small>
          )}
          {reason && (
            <p className="m-0 p-error" role="alert">
              {reason}
            </p>
          )}
        </div>
      </Card>
      <div className="flex flex-wrap gap-2 justify-content-end">
        <Button type="button" label="Cancel" text disabled={busy} onClick={() => navigate('/billing')} />
        <Button
          type="submit"
          label="Pay"
          icon="pi pi-lock"
          loading={busy}
          disabled={Boolean(seatError) || newCardUnavailable}
        />
      </div>
    </form>
  );
}

/**
 * The payment form (spec/platform.md "Billing"): a plan, seats and a card, to subscribe (create) or to change the
 * subscription (update). Stripe.js is loaded from Stripe here, never before; if it cannot be, the page stays usable
 * (a saved card still pays; Cancel goes back).
 */
function PaymentWithStripe({ mode, account }: { mode: Mode; account: BillingAccount }) {
  const { enqueue } = useSnackbar();
  const key = account.billing.publishable_key;
  const [failed, setFailed] = useState(false);
  // Elements takes the promise once; a failed load resolves to null here (no Stripe) and is reported below.
  const [stripePromise] = useState<Promise<Stripe | null>>(() =>
    key
      ? stripeFor(key).catch(() => {
          setFailed(true);
          return null;
        })
      : Promise.resolve(null),
  );
  useEffect(() => {
    if (failed) enqueue(STRIPE_LOAD_FAILED, 'error');
  }, [failed, enqueue]);
  return (
    <Elements stripe={stripePromise}>
      <PaymentForm mode={mode} account={account} stripeFailed={failed || !key} />
    </Elements>
  );
}

export function PaymentScreen({ mode }: { mode: Mode }) {
  useBreadcrumb({ name: 'Billing', to: '/billing', crumbs: [{ label: 'Susbcription' }] });
  const api = useApi();
  const account = useQuery(getBillingAccountQueryOptions(api));
  const data = account.data;
  const shown = data ? overviewCase(data.stripe.subscription, Math.floor(Date.now() / 1000)) : null;
  return (
    <div className="flex flex-column gap-3">
      <h1 className="text-2xl font-semibold m-0">Subscription Details</h1>
      {account.isPending ? (
        <Spinner label="Loading subscription" />
      ) : !data ? (
        <BillingLoadFailed what="Billing" />
      ) : !data.billing.configured ? (
        <BillingNotConfigured />
      ) : mode === 'create' && shown !== 'none' ? (
        <Card>
          <div className="flex flex-column gap-3 align-items-start">
            <p className="m-0">This workspace already has a subscription. Change its plan or seats instead.</p>
            <LinkButton to="/billing/update-subscription" label="Change Plan" icon="pi pi-pencil" />
          </div>
        </Card>
      ) : mode === 'update' && shown === 'none' ? (
        <Card>
          <div className="flex flex-column gap-3 align-items-start">
            <p className="m-0">You are currently not subscribed to any plan</p>
            <LinkButton to="/billing/create-subscription" label="Select Plan" icon="pi pi-shopping-cart" />
          </div>
        </Card>
      ) : (
        <PaymentWithStripe mode={mode} account={data} />
      )}
    </div>
  );
}
