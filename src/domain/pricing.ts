import { type Currency, minorUnit, percentOf } from './money.ts';
import { type BuyerLocation, type IndianState, type SupplyType, type TaxLine, type TaxSettings, placeOfSupply, taxSupply } from './gst.ts';
import { ADVANCE_PERCENT, PLATFORM_FEE_PERCENT, planPrices } from './plan-price.ts';

// Spec §9 "Pricing and payment" and docs/architecture.md "Money". The plan's prices are in
// plan-price.ts (the public /pricing page needs them without the tax rules).
export { ADVANCE_PERCENT, PLAN, PLATFORM_FEE_PERCENT, planFee, planPrices } from './plan-price.ts';

export interface Quote {
  currency: string;
  /** All amounts in integer minor units. */
  listPrice: number;
  price: number;
  discountPercent: number;
  discount: number;
  afterDiscount: number;
  fee: number;
  /** What tax is charged on: the price after discount plus the fee (the whole consideration), without tax. */
  taxableValue: number;
  taxes: TaxLine[];
  supplyType: SupplyType;
  placeOfSupply: IndianState;
  /** Taxable value plus the taxes. */
  total: number;
  advance: number;
  remaining: number;
}

/** Who is taxed how: the operator's settings and the buyer's billing location (docs/decisions/220-gst-tax-rules.md). */
export interface TaxContext {
  settings: TaxSettings;
  buyer: BuyerLocation;
}

/** Not registered: no tax lines (TAX_REGIME=none, the default). */
export const NO_TAX: TaxContext = {
  settings: { regime: 'none', rate: 0, sellerStateCode: '29', lutValid: false, pricesIncludeTax: false },
  buyer: { country: 'IN' },
};

/**
 * The whole quote for one order. The advance is 20% of the total with the fractional part
 * dropped; the remaining is total − advance so that the two installments add up exactly.
 */
export function quote(currency: Currency, discountPercent = 0, tax: TaxContext = NO_TAX): Quote {
  if (!Number.isFinite(discountPercent) || discountPercent < 0 || discountPercent > 100) {
    throw new RangeError('discountPercent must be between 0 and 100');
  }
  const { listPrice, price } = planPrices(currency);
  const discount = percentOf(price, discountPercent);
  const afterDiscount = price - discount;
  const fee = percentOf(afterDiscount, PLATFORM_FEE_PERCENT);
  const supply = placeOfSupply(tax.settings, tax.buyer, currency.code);
  const taxed = taxSupply(tax.settings, supply.supplyType, afterDiscount + fee);
  const total = taxed.total;
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
    taxableValue: taxed.taxableValue,
    taxes: taxed.taxes,
    supplyType: supply.supplyType,
    placeOfSupply: supply.placeOfSupply,
    total,
    advance,
    remaining: total - advance,
  };
}

/**
 * An order whose code was taken back after its advance was paid: the plan price
 * without discount, the fee on it, and the remaining installment carrying the whole difference.
 */
export function withoutDiscount(
  price: number,
  advancePaid: number,
  tax: (taxable: number) => { taxableValue: number; taxes: TaxLine[]; total: number } = (v) => ({ taxableValue: v, taxes: [], total: v }),
) {
  const fee = percentOf(price, PLATFORM_FEE_PERCENT);
  const taxed = tax(price + fee);
  return {
    discountPercent: 0,
    discount: 0,
    afterDiscount: price,
    fee,
    taxableValue: taxed.taxableValue,
    taxes: taxed.taxes,
    total: taxed.total,
    remaining: taxed.total - advancePaid,
  };
}
