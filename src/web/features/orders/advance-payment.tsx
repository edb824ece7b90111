import { useCallback, useEffect, useState } from 'react';
import type { CreatePaymentOrderResponse } from '../../../contract/payments.ts';
import type { QuoteResponse } from '../../../contract/pricing.ts';
import { formatMoney, toMajor } from '../../../domain/money.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { api, errorMessage } from '../../lib/api.ts';
import { CouponField, type CouponState } from './coupon-field.tsx';
import { CurrencySelect } from './currency-select.tsx';
import { QuoteTable } from './quote-table.tsx';
import { useCurrency } from './use-currency.ts';
import { type CheckoutResult, openCheckout } from './checkout.ts';

/** /pay with isAdvance: the coupon, the server's quote and 'Pay' for the 20% advance. */
export function AdvancePayment({ onPaid }: { onPaid(r: CheckoutResult): void }) {
  const { currencies, currency, setCurrency, isReady } = useCurrency();
  const [code, setCode] = useState('');
  const [applied, setApplied] = useState<string | undefined>(undefined);
  const [couponState, setCouponState] = useState<CouponState>('idle');
  const [couponMessage, setCouponMessage] = useState<string | null>(null);
  const [quote, setQuote] = useState<QuoteResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isPaying, setIsPaying] = useState(false);

  const load = useCallback(
    async (couponCode: string | undefined) => {
      const q = await api<QuoteResponse>('POST', 'pricing/quote', { currency: currency.code, ...(couponCode ? { couponCode } : {}) });
      setQuote(q);
      return q;
    },
    [currency.code],
  );

  useEffect(() => {
    if (!isReady) return;
    load(applied).catch((err) => setError(errorMessage(err)));
  }, [isReady, load, applied]);

  async function apply() {
    setCouponState('checking');
    try {
      const q = await load(code.trim());
      if (q.coupon) {
        setApplied(q.coupon.code);
        setCouponState('applied');
        setCouponMessage(`${q.coupon.percent}% off${q.coupon.kind === 'referral' ? ' with a referral code' : ''}.`);
      } else {
        // Spec §4: an invalid coupon gives discount 0.
        setApplied(undefined);
        setCouponState('invalid');
        setCouponMessage(q.couponError ?? 'This code cannot be used.');
      }
    } catch (err) {
      setCouponState('invalid');
      setCouponMessage(errorMessage(err));
    }
  }

  async function pay() {
    if (!quote) return;
    setIsPaying(true);
    setError(null);
    try {
      const order = await api<CreatePaymentOrderResponse>('POST', 'payment/create-order', {
        kind: 'advance',
        currency: currency.code,
        ...(applied ? { couponCode: applied } : {}),
        amount: toMajor(quote.quote.advance, quote),
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
        onChange={(v) => {
          setCode(v);
          if (couponState !== 'checking') {
            setCouponState('idle');
            setCouponMessage(null);
          }
        }}
        onApply={apply}
      />
      {quote ? <QuoteTable quote={quote.quote} fmt={quote} due="advance" /> : !error && <Spinner label="Loading your quote" />}
      {error && (
        <p role="alert" className="rounded-xl border border-danger/40 bg-danger/10 px-4 py-3 text-sm text-danger">
          {error}
        </p>
      )}
      <Button onClick={pay} disabled={!quote || isPaying} className="w-full py-3 text-base">
        {isPaying ? <Spinner label="Opening the checkout" className="h-4 w-4" /> : null}
        {quote ? `Pay ${formatMoney(quote.quote.advance, quote)}` : 'Pay'}
      </Button>
      <p className="text-xs text-muted">
        20% now starts the design; the remaining 80% is paid from your order page before the website link is delivered. Payments are non-refundable once development has begun.
      </p>
    </div>
  );
}
