import { type Quote, quote } from '../../../domain/pricing.ts';
import type { Currency } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import { type CouponRow, checkCoupon } from '../coupons/check-coupon.ts';
import { moneyContext, resolveCurrency } from '../../lib/money-context.ts';

export interface AdvanceQuote {
  currency: Currency;
  quote: Quote;
  coupon: CouponRow | null;
  couponError?: string;
}

/** The server's quote for a new order: plan × currency factor, the one code, fee, installments. */
export async function quoteAdvance(deps: AppDeps, input: { userId: string; currency?: string; couponCode?: string }): Promise<AdvanceQuote> {
  const ctx = moneyContext(deps);
  const currency = resolveCurrency(ctx, input.currency);
  let coupon: CouponRow | null = null;
  let couponError: string | undefined;
  if (input.couponCode?.trim()) {
    const check = await checkCoupon(deps.db, { userId: input.userId, code: input.couponCode, referralValidUntil: ctx.referralValidUntil });
    if (check.ok) coupon = check.coupon;
    else couponError = check.message;
  }
  return { currency, quote: quote(currency, coupon?.percent ?? 0), coupon, couponError };
}
