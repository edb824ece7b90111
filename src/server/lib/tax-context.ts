import { eq } from 'drizzle-orm';
import type { OrderTax } from '../../contract/pricing.ts';
import { findCurrency, CURRENCIES } from '../../domain/currencies.ts';
import { type BuyerLocation, type TaxSettings, addTax, placeOfSupply, takeOutTax, taxRates } from '../../domain/gst.ts';
import type { Quote, TaxContext } from '../../domain/pricing.ts';
import type { Currency } from '../../domain/money.ts';
import type { AppDeps } from '../deps.ts';
import type { Db, Tx } from '../db/client.ts';
import { billingDetails } from '../db/schema/invoices.ts';

// The operator's tax settings and the buyer's place of supply, as the quote and the documents use
// them (docs/decisions/220-gst-tax-rules.md). Shared by payments, invoices and the overview.

/** Whether the LUT covers `at`: its last valid day is a calendar day in India, inclusive. */
export function lutValidAt(config: AppDeps['config'], at: Date): boolean {
  if (!config.GST_LUT_ARN || !config.GST_LUT_VALID_UNTIL) return false;
  return at.getTime() < Date.parse(`${config.GST_LUT_VALID_UNTIL}T00:00:00+05:30`) + 24 * 3600_000;
}

export function taxSettings(config: AppDeps['config'], at: Date = new Date()): TaxSettings {
  return {
    regime: config.TAX_REGIME,
    rate: config.TAX_REGIME === 'gst' ? config.GST_RATE : 0,
    sellerStateCode: config.SELLER_STATE_CODE ?? '29',
    lutValid: lutValidAt(config, at),
    pricesIncludeTax: config.TAX_REGIME === 'gst' && config.PRICES_INCLUDE_TAX,
  };
}

/**
 * The buyer's location from their billing details. Without any: an Indian buyer in the seller's
 * state when paying in rupees (IGST Act s.12(2)(b)(ii): no address on record), a buyer abroad otherwise.
 */
export async function buyerLocation(db: Db | Tx, userId: string, currency: string): Promise<BuyerLocation> {
  const [row] = await db
    .select({ country: billingDetails.country, stateCode: billingDetails.stateCode, gstin: billingDetails.gstin })
    .from(billingDetails)
    .where(eq(billingDetails.userId, userId))
    .limit(1);
  if (row?.country) return { country: row.country, stateCode: row.stateCode, gstin: row.gstin };
  return { country: currency === 'INR' ? 'IN' : 'ZZ' };
}

export async function taxContextFor(deps: AppDeps, userId: string, currency: string): Promise<TaxContext> {
  return { settings: taxSettings(deps.config), buyer: await buyerLocation(deps.db, userId, currency) };
}

/** What an order keeps of its quote's tax (orders.tax). */
export function orderTaxOf(q: Quote, ctx: TaxContext): OrderTax {
  return {
    regime: ctx.settings.regime,
    rate: ctx.settings.rate,
    pricesIncludeTax: ctx.settings.pricesIncludeTax,
    sellerStateCode: ctx.settings.regime === 'gst' ? ctx.settings.sellerStateCode : null,
    lutValid: ctx.settings.lutValid,
    supplyType: q.supplyType,
    placeOfSupply: q.placeOfSupply,
    taxableValue: q.taxableValue,
    taxes: q.taxes,
    buyer: { country: ctx.buyer.country, stateCode: ctx.buyer.stateCode ?? null, gstin: ctx.buyer.gstin ?? null },
  };
}

/** An order from before GST documents (orders.tax null): not registered, the total untaxed. */
export function orderTaxOrNone(tax: OrderTax | null, total: number): OrderTax {
  return (
    tax ?? {
      regime: 'none',
      rate: 0,
      pricesIncludeTax: false,
      sellerStateCode: null,
      lutValid: false,
      supplyType: 'none',
      placeOfSupply: { code: '', name: '' },
      taxableValue: total,
      taxes: [],
      buyer: { country: '', stateCode: null, gstin: null },
    }
  );
}

const settingsOfOrder = (t: OrderTax): TaxSettings => ({
  regime: t.regime,
  rate: t.rate,
  sellerStateCode: t.sellerStateCode ?? '',
  lutValid: t.lutValid,
  pricesIncludeTax: t.pricesIncludeTax,
});

/** The order's tax applied to a new taxable value (a code withdrawn after the advance). */
export function retax(t: OrderTax, taxable: number) {
  const rates = taxRates(settingsOfOrder(t), t.supplyType);
  return t.pricesIncludeTax ? takeOutTax(taxable, rates) : addTax(taxable, rates);
}

/** The tax inside an amount paid that includes it (the advance, a refund): same rates as the order. */
export function taxInside(t: OrderTax, gross: number) {
  return takeOutTax(gross, taxRates(settingsOfOrder(t), t.supplyType));
}

/** The tax of a one-off supply at a price without tax, for a buyer now (a maintenance month, a paid change). */
export async function taxOfCharge(deps: AppDeps, tx: Tx, userId: string, currency: string, price: number, at: Date): Promise<OrderTax> {
  const settings = taxSettings(deps.config, at);
  const buyer = await buyerLocation(tx, userId, currency);
  const supply = placeOfSupply(settings, buyer, currency);
  const taxed = settings.pricesIncludeTax
    ? takeOutTax(price, taxRates(settings, supply.supplyType))
    : addTax(price, taxRates(settings, supply.supplyType));
  return taxOfSupply(settings, supply, taxed, buyer);
}

/** What a document keeps of a supply's tax (the OrderTax shape): the settings, the place of supply, the taxed amounts, the buyer. */
export function taxOfSupply(
  settings: TaxSettings,
  supply: { supplyType: OrderTax['supplyType']; placeOfSupply: OrderTax['placeOfSupply'] },
  taxed: { taxableValue: number; taxes: OrderTax['taxes'] },
  buyer: BuyerLocation,
): OrderTax {
  return {
    regime: settings.regime,
    rate: settings.rate,
    pricesIncludeTax: settings.pricesIncludeTax,
    sellerStateCode: settings.regime === 'gst' ? settings.sellerStateCode : null,
    lutValid: settings.lutValid,
    supplyType: supply.supplyType,
    placeOfSupply: supply.placeOfSupply,
    taxableValue: taxed.taxableValue,
    taxes: taxed.taxes,
    buyer: { country: buyer.country, stateCode: buyer.stateCode ?? null, gstin: buyer.gstin ?? null },
  };
}

/**
 * Rupees per unit of `currency` from CURRENCY_TABLE (both are factors of the same base price list),
 * and the INR value in paise of an amount in that currency's minor units.
 */
export function inrRate(currencies: readonly Currency[], currency: Currency): number {
  const inr = findCurrency('INR', currencies) ?? CURRENCIES.find((c) => c.code === 'INR')!;
  return inr.factor / currency.factor;
}
export function inrValueOf(minor: number, currency: Currency, rate: number): number {
  return Math.round((minor * rate * 100) / 10 ** currency.minorDigits);
}

/** The full currency of a document, even one since removed from CURRENCY_TABLE (then the built-in table's, else factor 1). */
export function currencyOf(currencies: readonly Currency[], code: string): Currency {
  return findCurrency(code, currencies) ?? findCurrency(code) ?? { code, symbol: `${code} `, factor: 1, minorDigits: 2 };
}
