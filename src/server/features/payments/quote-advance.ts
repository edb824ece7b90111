import { type Quote, quote } from '../../../domain/pricing.ts';
import type { Currency } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import { type CouponRow, checkCoupon } from '../coupons/check-coupon.ts';
import { moneyContext, resolveCurrency } from '../../lib/money-context.ts';
import { orderTaxOf, taxContextFor } from '../../lib/tax-context.ts';
import type { OrderTax } from '../../../contract/pricing.ts';

export interface AdvanceQuote {
  currency: Currency;
  quote: Quote;
  /** The tax as the order keeps it (orders.tax). */
  tax: OrderTax;
  coupon: CouponRow | null;
  couponError?: string;
}

/**
 * The server's quote for a new order: plan × currency factor, the one code, fee, the tax for the
 * buyer's billing details on record (never for amounts or rates a client sends), installments.
 */
export async function quoteAdvance(
  deps: AppDeps,
  input: { userId: string; currency?: string; couponCode?: string },
): Promise<AdvanceQuote> {
  const ctx = moneyContext(deps);
  const currency = resolveCurrency(ctx, input.currency);
  let coupon: CouponRow | null = null;
  let couponError: string | undefined;
  if (input.couponCode?.trim()) {
    const check = await checkCoupon(deps.db, { userId: input.userId, code: input.couponCode, referralValidUntil: ctx.referralValidUntil });
    if (check.ok) coupon = check.coupon;
    else couponError = check.message;
  }
  const tax = await taxContextFor(deps, input.userId, currency.code);
  const q = quote(currency, coupon?.percent ?? 0, tax);
  return { currency, quote: q, tax: orderTaxOf(q, tax), coupon, couponError };
}
