import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { QuoteResponse } from '../../../contract/pricing.ts';
import { formatMoney, toMajor } from '../../../domain/money.ts';
import { ADVANCE_PERCENT } from '../../../domain/pricing.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { call } from '../../lib/call.ts';
import { operationQuery, useOperation, useReloadOn } from '../../lib/use-operation.ts';
import { CouponField, type CouponState } from './coupon-field.tsx';
import { CurrencySelect } from './currency-select.tsx';
import { QuoteTable } from './quote-table.tsx';
import { useCurrency } from './use-currency.ts';
import { type CheckoutResult, openCheckout } from '../../lib/checkout.ts';
import { keepCoupon, keptCoupon } from './kept-coupon.ts';
import { usePromotion } from '../promotion/index.ts';
import { postPricingQuote } from '../../../contract/pricing.ts';
import { postPaymentCreateOrder } from '../../../contract/payments.ts';

/** /pay with isAdvance: the coupon, the server's quote and 'Pay' for the 20% advance. */
export function AdvancePayment({
  onPaid,
  refreshKey = 0,
  beforePay,
}: {
  onPaid(r: CheckoutResult): void;
  /** Changes when the billing details (and so the tax) change: quote again. */
  refreshKey?: number;
  /** Asked right before paying; false stops it (an order already in progress, asked about first). */
  beforePay?: () => Promise<boolean>;
}) {
  const { currencies, currency, setCurrency, isReady } = useCurrency();
  // A code applied before Cancel or Back is applied again, and the shopper is told.
  const [code, setCode] = useState(() => keptCoupon() ?? '');
  const [applied, setApplied] = useState<string | undefined>(() => keptCoupon() ?? undefined);
  const [couponState, setCouponState] = useState<CouponState>('idle');
  const [couponMessage, setCouponMessage] = useState<string | null>(null);
  const [payError, setError] = useState<string | null>(null);
  const [isPaying, setIsPaying] = useState(false);
  // The advance cannot be paid until the terms are accepted (recorded with the order).
  const [agreed, setAgreed] = useState(false);
  const promo = usePromotion();
  // The placeholder suggests the featured promotion only while it runs.
  const featured =
    promo.status === 'ready' && promo.promotion && (!promo.promotion.endsAt || Date.parse(promo.promotion.endsAt) > Date.now())
      ? promo.promotion.code
      : null;

  // The server's quote for the chosen currency and the applied code: a read (TanStack Query keys it
  // by its input, so an answer for an older currency or code never replaces the newest one).
  const quoteOf = (couponCode: string | undefined) => ({ body: { currency: currency.code, ...(couponCode ? { couponCode } : {}) } });
  const quoteRead = useOperation(postPricingQuote, isReady ? quoteOf(applied) : null);
  // The billing details changed (and so the tax): quote again.
  useReloadOn(refreshKey, quoteRead.reload);
  const quote: QuoteResponse | null = quoteRead.data;
  const error = payError ?? quoteRead.error;
  const client = useQueryClient();
  /** A code typed and applied: quoted at once (the answer is the cached read once the code is applied). */
  const load = (couponCode: string | undefined) => {
    const { queryKey, queryFn } = operationQuery(postPricingQuote, quoteOf(couponCode));
    return client.fetchQuery({ queryKey, queryFn });
  };
  // A quote in another currency than the one chosen is on its way out: nothing to pay yet.
  const current = quote && quote.quote.currency === currency.code ? quote : null;

  // The kept code, checked again on the first quote: still good → "Applied" and said so; gone → said so too.
  const keptChecked = useRef(false);
  useEffect(() => {
    if (keptChecked.current || !current) return;
    keptChecked.current = true;
    if (!applied || couponState !== 'idle') return;
    if (current.coupon) showApplied(current.coupon, true);
    else showInvalid(current.couponError ?? 'This code cannot be used.');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current]);

  function showApplied(c: NonNullable<QuoteResponse['coupon']>, isKept = false) {
    setApplied(c.code);
    keepCoupon(c.code);
    setCouponState('applied');
    const off = `${c.percent}% off${c.kind === 'referral' ? ' with a referral code' : ''}.`;
    setCouponMessage(isKept ? `${c.code} is still applied: ${off} It stays until you remove it.` : off);
  }

  function showInvalid(message: string) {
    // Spec §4: an invalid coupon gives discount 0.
    setApplied(undefined);
    keepCoupon(null);
    setCouponState('invalid');
    setCouponMessage(message);
  }

  async function apply() {
    setCouponState('checking');
    try {
      const q = await load(code.trim());
      if (q.coupon) showApplied(q.coupon);
      else showInvalid(q.couponError ?? 'This code cannot be used.');
    } catch (err) {
      setCouponState('invalid');
      setCouponMessage(errorMessage(err));
    }
  }

  function remove() {
    setCode('');
    setApplied(undefined);
    keepCoupon(null);
    setCouponState('idle');
    setCouponMessage(null);
  }

  async function pay() {
    if (!current) return;
    setIsPaying(true);
    setError(null);
    try {
      if (beforePay && !(await beforePay())) return setIsPaying(false);
      const order = await call(postPaymentCreateOrder, {
        body: {
          kind: 'advance',
          ...(agreed ? { acceptTerms: true } : {}),
          // The currency and amount of the quote on screen, always together.
          currency: current.quote.currency,
          ...(applied ? { couponCode: applied } : {}),
          amount: toMajor(current.quote.advance, current),
        },
      });
      const result = await openCheckout(order);
      if (result) onPaid(result);
      else setIsPaying(false);
    } catch (err) {
      setError(`Payment initiation failed. ${errorMessage(err)}`);
      setIsPaying(false);
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <CurrencySelect currencies={currencies} value={currency.code} onChange={setCurrency} className="self-end" />
      <CouponField
        value={code}
        state={couponState}
        message={couponMessage}
        placeholder={featured ? `e.g. ${featured}` : 'Enter your code'}
        onChange={(v) => {
          setCode(v);
          if (couponState !== 'checking') {
            setCouponState('idle');
            setCouponMessage(null);
          }
        }}
        onApply={apply}
        onRemove={applied ? remove : undefined}
      />
      {quote ? (
        <QuoteTable quote={quote.quote} lines={quote.lines} fmt={quote} due="advance" />
      ) : (
        !error && <Spinner label="Loading your quote" />
      )}
      {error && (
        <p role="alert" className="rounded-xl border border-danger/40 bg-danger/10 px-4 py-3 text-sm text-danger">
          {error}
        </p>
      )}
      <label className="flex items-start gap-3 text-sm text-muted">
        <input
          type="checkbox"
          checked={agreed}
          onChange={(e) => setAgreed(e.target.checked)}
          className="mt-0.5 h-5 w-5 shrink-0 accent-accent"
        />
        <span>
          I agree to the{' '}
          <a
            href="/termsandconditions"
            target="_blank"
            rel="noopener"
            className="text-accent-soft underline underline-offset-2 hover:text-white"
          >
            Terms and Conditions
          </a>
        </span>
      </label>
      <Button onClick={pay} disabled={!current || isPaying || !agreed} className="w-full py-3 text-base" data-primary-action>
        {isPaying ? <Spinner label="Opening the checkout" className="h-4 w-4" /> : null}
        {quote ? `Pay ${formatMoney(quote.quote.advance, quote)}` : 'Pay'}
      </Button>
      <p className="text-xs text-muted">
        20% now starts the design; the remaining 80% is paid from your order page before the website link is delivered. If the order is
        cancelled before design work starts, the advance is refunded in full; after that, payments are non-refundable.
        {quote && <AdvanceRounding quote={quote} />}
      </p>
    </div>
  );
}

/**
 * The advance is 20 % of the total rounded down to a whole unit of the currency (domain/pricing);
 * say so when it shows, so $183.00 of $916.98 reads as intended.
 */
function AdvanceRounding({ quote }: { quote: QuoteResponse }) {
  const { advance, remaining, total } = quote.quote;
  const exact = Math.floor((total * ADVANCE_PERCENT) / 100);
  if (exact === advance) return null;
  const money = (minor: number) => formatMoney(minor, quote);
  return (
    <span data-testid="advance-rounding">
      {' '}
      {ADVANCE_PERCENT}% of {money(total)} is {money(exact)}, rounded down to {money(advance)}; the remaining {money(remaining)} makes up
      the difference.
    </span>
  );
}
