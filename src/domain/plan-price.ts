import { type Currency, floorMajor, percentOf, toMinor } from './money.ts';

// The plan and its prices (spec §9 "Pricing and payment"), apart from the quote's tax rules in
// pricing.ts: the prerendered /pricing shows them and must not load the GST tables (its page-JS
// budget, decision 115).
export const PLAN = {
  id: 'website-standard',
  listPrice: 999,
  price: 899,
} as const;

export const ADVANCE_PERCENT = 20;
export const PLATFORM_FEE_PERCENT = 2;

/** List and plan price in a currency: base price × factor, rounded down to whole units. */
export function planPrices(currency: Currency) {
  return {
    listPrice: toMinor(floorMajor(PLAN.listPrice * currency.factor), currency),
    price: toMinor(floorMajor(PLAN.price * currency.factor), currency),
  };
}

/** The platform fee on the plan price without a discount: what /pricing shows under the price. */
export const planFee = (currency: Currency) => percentOf(planPrices(currency).price, PLATFORM_FEE_PERCENT);
