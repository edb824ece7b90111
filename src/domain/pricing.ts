import { type Currency, floorMajor, minorUnit, percentOf, toMinor } from './money.ts';

// Spec §9 "Pricing and payment" and docs/architecture.md "Money".
export const PLAN = {
  id: 'website-standard',
  listPrice: 999,
  price: 899,
} as const;

export const ADVANCE_PERCENT = 20;
export const PLATFORM_FEE_PERCENT = 2;

export interface Quote {
  currency: string;
  /** All amounts in integer minor units. */
  listPrice: number;
  price: number;
  discountPercent: number;
  discount: number;
  afterDiscount: number;
  fee: number;
  total: number;
  advance: number;
  remaining: number;
}

/** List and plan price in a currency: base price × factor, rounded down to whole units. */
export function planPrices(currency: Currency) {
  return {
    listPrice: toMinor(floorMajor(PLAN.listPrice * currency.factor), currency),
    price: toMinor(floorMajor(PLAN.price * currency.factor), currency),
  };
}

/**
 * The whole quote for one order. The advance is 20% of the total with the fractional part
 * dropped; the remaining is total − advance so that the two installments add up exactly.
 */
export function quote(currency: Currency, discountPercent = 0): Quote {
  if (!Number.isFinite(discountPercent) || discountPercent < 0 || discountPercent > 100) {
    throw new RangeError('discountPercent must be between 0 and 100');
  }
  const { listPrice, price } = planPrices(currency);
  const discount = percentOf(price, discountPercent);
  const afterDiscount = price - discount;
  const fee = percentOf(afterDiscount, PLATFORM_FEE_PERCENT);
  const total = afterDiscount + fee;
  const unit = minorUnit(currency);
  const advance = Math.floor((total * ADVANCE_PERCENT) / 100 / unit) * unit;
  return {
    currency: currency.code,
    listPrice,
    price,
    discountPercent,
    discount,
    afterDiscount,
    fee,
    total,
    advance,
    remaining: total - advance,
  };
}

/**
 * An order whose code was taken back after its advance was paid: the plan price
 * without discount, the fee on it, and the remaining installment carrying the whole difference.
 */
export function withoutDiscount(price: number, advancePaid: number) {
  const fee = percentOf(price, PLATFORM_FEE_PERCENT);
  const total = price + fee;
  return { discountPercent: 0, discount: 0, afterDiscount: price, fee, total, remaining: total - advancePaid };
}
