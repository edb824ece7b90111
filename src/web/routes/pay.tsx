import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../lib/session.tsx';
import { siteConfig } from '../lib/site-config.ts';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../lib/api.ts';
import { operationQuery, useOperation, useWrite } from '../lib/use-operation.ts';
import { Spinner } from '../components/ui/spinner.tsx';
import { PromoBanner } from '../features/promotion/promo-banner.tsx';
import { buttonClass } from '../components/ui/button.tsx';
import { AdvancePayment } from '../features/orders/advance-payment.tsx';
import { RemainingPayment } from '../features/orders/remaining-payment.tsx';
import { BillingDetailsForm } from '../features/invoices/billing-details-form.tsx';
import { type CheckoutResult, checkoutResultFromSearch, verifyPayment } from '../lib/checkout.ts';
import { keepCoupon } from '../features/orders/kept-coupon.ts';
import { OrderInProgressQuestion, findOrderInProgress } from '../features/orders/order-in-progress.tsx';
import { getStatusGetStatusOrderById } from '../../contract/tracker.ts';
import { getOrderGetAllOrdersUser, postOrderCreateOrder } from '../../contract/orders.ts';

interface PayState {
  isAdvance?: boolean;
  orderId?: string;
  totalAmount?: number;
}

type Outcome =
  | { kind: 'verifying' }
  | { kind: 'checking' }
  | { kind: 'advance-paid'; orderId: string }
  | { kind: 'duplicate'; orderId: string; installment: 'advance' | 'remaining' | 'change' }
  | { kind: 'failed'; message: string };

/** Spec §2 "Payment page": 'Pay Advance' or 'Pay Remaining'; logged-out visitors go to /. */
export default function PayPage() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const state = (location.state ?? {}) as PayState;
  const orderId = state.orderId ?? search.get('order') ?? undefined;
  const isAdvance = state.isAdvance !== false && !orderId;
  const returned = useRef(checkoutResultFromSearch(search));
  // After the advance the address is /pay?paid=ORDER, so a reload (or Back to it) shows the order is
  // paid instead of a fresh form for a new order.
  const paidOrder = search.get('paid');
  const [outcome, setOutcome] = useState<Outcome | null>(() =>
    returned.current ? { kind: 'verifying' } : paidOrder ? { kind: 'checking' } : null,
  );
  const isCancelled = search.get('cancelled') === '1';
  const [billingVersion, setBillingVersion] = useState(0);
  // An order already paid and in progress: asked about before a second one is paid
  // (docs/decisions/273-second-order-question.md). `orderAnother` is the customer's answer.
  const signedIn = !session.loading && session.isLoggedIn;
  // Read once, when the form is first shown (the My Orders read: one cached answer); not known → Pay asks again before paying.
  const orders = useOperation(getOrderGetAllOrdersUser, signedIn && isAdvance && !outcome ? {} : null);
  const [checkedInProgress, setInProgress] = useState<string | null | undefined>(undefined);
  const inProgress = checkedInProgress !== undefined ? checkedInProgress : orders.data ? findOrderInProgress(orders.data.orders) : null;
  const [orderAnother, setOrderAnother] = useState(false);
  const asking = isAdvance && inProgress !== null && !orderAnother;
  const client = useQueryClient();
  // The order a verified advance created: My Orders has one more.
  const { mutateAsync: createOrder } = useWrite(postOrderCreateOrder, { invalidates: [getOrderGetAllOrdersUser] });

  useEffect(() => {
    if (!session.loading && !session.isLoggedIn) navigate('/', { replace: true });
  }, [session.loading, session.isLoggedIn, navigate]);

  async function finish(r: CheckoutResult) {
    setOutcome({ kind: 'verifying' });
    try {
      const v = await verifyPayment(r);
      if (v.duplicate) {
        // Paid again (a second tab): say so and that this charge goes back.
        setOutcome({ kind: 'duplicate', orderId: v.orderId, installment: v.kind });
        return;
      }
      if (v.kind === 'change') {
        // A change is paid from its order page and goes back there (decision 250).
        navigate(`/status/${encodeURIComponent(v.orderId)}`, { replace: true, state: { justPaid: 'change' } });
        return;
      }
      if (v.kind === 'remaining') {
        // The order page says so at its top: the customer is not left guessing.
        navigate(`/status/${encodeURIComponent(v.orderId)}`, { replace: true, state: { justPaid: 'remaining' } });
        return;
      }
      // Spec order flow: after the advance the client "creates" the order; ours returns the one
      // the verified payment created (idempotent, client totals ignored).
      await createOrder({ body: { razorpay_order_id: r.razorpay_order_id } }).catch(() => console.log('order creation failed'));
      keepCoupon(null); // used: the next order starts without it
      navigate(`/pay?paid=${encodeURIComponent(v.orderId)}`, { replace: true, state: null });
      setOutcome({ kind: 'advance-paid', orderId: v.orderId });
    } catch (err) {
      // Spec §8 wording first; the server's reason only when it adds something.
      const reason = errorMessage(err);
      setOutcome({ kind: 'failed', message: reason === 'Payment verification failed' ? reason : `Payment verification failed. ${reason}` });
    }
  }

  useEffect(() => {
    if (session.loading || !session.isLoggedIn || !returned.current) return;
    const r = returned.current;
    returned.current = null;
    // Drop the signed fields from the address so a reload does not resend them.
    navigate('/pay', { replace: true, state: null });
    void finish(r);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session.loading, session.isLoggedIn]);

  // Reloaded after paying: the order's own state decides; anything else shows the form again.
  const paid = useOperation(
    getStatusGetStatusOrderById,
    signedIn && outcome?.kind === 'checking' && paidOrder ? { params: { id: paidOrder } } : null,
  );
  useEffect(() => {
    if (outcome?.kind !== 'checking' || (!paid.data && !paid.error)) return;
    const next = paid.data?.advance.state === 'paid' ? { kind: 'advance-paid' as const, orderId: paid.data.order_id } : null;
    if (!next) navigate('/pay', { replace: true });
    setOutcome(next);
  }, [outcome?.kind, paid.data, paid.error, navigate]);

  /** Right before paying: another tab may have paid an order since this page opened. */
  const beforePay = async () => {
    if (orderAnother) return true;
    const { queryKey, queryFn } = operationQuery(getOrderGetAllOrdersUser, {});
    const id = await client
      // Asked of the server whatever the cache holds: the point is what happened since it was read.
      .fetchQuery({ queryKey, queryFn, staleTime: 0 })
      .then((r) => findOrderInProgress(r.orders))
      .catch(() => null);
    setInProgress(id);
    return id === null;
  };

  if (session.loading || !session.isLoggedIn) {
    return (
      <div className="flex min-h-screen items-center justify-center">
        <Spinner />
      </div>
    );
  }

  return (
    <>
      {/* Spec §2: the top banner can show on /, /pricing and /pay. */}
      <PromoBanner />
      <section className="mx-auto flex min-h-screen max-w-xl flex-col gap-6 px-4 py-10 sm:py-16">
        {/* Pay Remaining belongs to an order: back goes to it. */}
        {isAdvance || !orderId ? (
          <Link to="/" className="text-sm text-muted hover:text-white">
            ← Home
          </Link>
        ) : (
          <Link to={`/status/${encodeURIComponent(orderId)}`} className="text-sm text-muted hover:text-white">
            ← Back to your order
          </Link>
        )}
        <h1 className="text-3xl font-bold text-white sm:text-4xl">
          {outcome?.kind === 'verifying' || outcome?.kind === 'checking' || outcome?.kind === 'advance-paid'
            ? 'Payment'
            : isAdvance
              ? 'Pay Advance'
              : 'Pay Remaining'}
        </h1>
        {outcome?.kind === 'verifying' ? (
          <p className="flex items-center gap-3 text-ink">
            <Spinner label="Verifying your payment" /> Verifying your payment…
          </p>
        ) : outcome?.kind === 'checking' ? (
          <Spinner label="Loading your order" />
        ) : outcome?.kind === 'duplicate' ? (
          <div
            className="flex flex-col gap-4 rounded-2xl border border-amber-400/60 bg-card p-6"
            role="alert"
            data-testid="duplicate-payment"
          >
            <h2 className="text-xl font-semibold text-white">This order was already paid</h2>
            <p className="text-ink">
              The {outcome.installment === 'advance' ? 'advance' : outcome.installment === 'change' ? 'change' : 'remaining payment'} of
              order <strong className="break-all text-white">{outcome.orderId}</strong> had already been paid, so this second charge will be
              refunded to you in full. You don't need to do anything; we have been told and the refund usually reaches your account within
              5–7 working days.
            </p>
            <div className="flex flex-wrap gap-3">
              <Link to={`/status/${encodeURIComponent(outcome.orderId)}`} className={buttonClass('primary')}>
                See your order
              </Link>
            </div>
          </div>
        ) : outcome?.kind === 'advance-paid' ? (
          <div className="flex flex-col gap-4 rounded-2xl border border-success/40 bg-card p-6" role="status">
            <h2 className="text-xl font-semibold text-white">Payment received — thank you!</h2>
            <p className="text-ink" data-testid="advance-paid">
              The advance of order <strong className="whitespace-nowrap text-white">{outcome.orderId}</strong> is paid: your order is
              confirmed and design starts now. A receipt is on its way to your inbox.
            </p>
            <div className="flex flex-wrap gap-3">
              <Link to={`/status/${encodeURIComponent(outcome.orderId)}`} className={buttonClass('primary')}>
                Follow your order
              </Link>
              <Link to="/dashboard" className={buttonClass('secondary')}>
                Go to dashboard
              </Link>
            </div>
          </div>
        ) : asking ? (
          <OrderInProgressQuestion orderId={inProgress} onOrderAnother={() => setOrderAnother(true)} />
        ) : (
          <>
            {outcome?.kind === 'failed' && (
              <p role="alert" className="rounded-xl border border-danger/40 bg-danger/10 px-4 py-3 text-sm text-danger">
                {outcome.message}
              </p>
            )}
            {isCancelled && !outcome && (
              <p role="status" className="rounded-xl border border-line bg-card px-4 py-3 text-sm text-ink">
                Payment cancelled. Nothing was charged.
              </p>
            )}
            <p className="text-sm text-muted" data-testid="tax-note">
              {siteConfig().taxNote}
            </p>
            {/* The billing details come first: they decide the place of supply, and so the quote's tax. */}
            <BillingDetailsForm onSaved={() => setBillingVersion((v) => v + 1)} />
            {isAdvance ? (
              <AdvancePayment onPaid={finish} refreshKey={billingVersion} beforePay={beforePay} />
            ) : (
              <RemainingPayment orderId={orderId!} onPaid={finish} />
            )}
            <p className="text-xs text-muted">
              By paying you agree to our{' '}
              <Link to="/termsandconditions" className="text-accent-soft underline underline-offset-2 hover:text-white">
                Terms and conditions
              </Link>
              .
            </p>
          </>
        )}
      </section>
    </>
  );
}
