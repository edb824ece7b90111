import { type Currency, floorMajor, formatMoney, toMinor } from './money.ts';
import { type IndianState, type SupplyType, type TaxLine, placeOfSupply, taxSupply } from './gst.ts';
import type { TaxContext } from './pricing.ts';

// The maintenance plan as every page and message describes it (docs/decisions/267-maintenance-price-everywhere.md):
// one wording of what it covers and one way to write its price, so the Support tab, /pricing, the
// FAQ, the terms and the assistant cannot drift apart. The price itself is configuration
// (MAINTENANCE_MONTHLY_PRICE), never written here.

/** What the plan covers, as one sentence. */
export const MAINTENANCE_COVERAGE = 'fixes, small changes and answers to your questions, as during the included support';

/** The monthly price of `base` (MAINTENANCE_MONTHLY_PRICE, major units of the base currency) in one currency, in minor units. */
export const maintenanceMinorIn = (base: number, currency: Currency) => toMinor(floorMajor(base * currency.factor), currency);

/** The plan's monthly quote for one buyer: what every page, the provider's plan and each month's invoice show. */
export interface MaintenanceQuote {
  currency: string;
  /** The plan's monthly price in this currency (maintenanceMinorIn), minor units. */
  price: number;
  /** What the tax is charged on: the price, or the price less the tax inside it (PRICES_INCLUDE_TAX). */
  taxableValue: number;
  taxes: TaxLine[];
  supplyType: SupplyType;
  placeOfSupply: IndianState;
  /** What is charged every month: taxable value plus taxes (the Razorpay plan's amount). */
  total: number;
  /** GST is added on top of the price ("+ GST"): registered, taxed, prices without tax. */
  taxAdded: boolean;
}

/**
 * The plan's monthly quote (docs/decisions/322-maintenance-plan-gst.md): the price of one month, a
 * continuous supply taxed like the order (docs/decisions/220-gst-tax-rules.md) — the buyer's place
 * of supply (IGST Act s.12(2)) makes it CGST + SGST in the seller's state or IGST across, an export
 * under a valid LUT has no tax, and PRICES_INCLUDE_TAX takes the tax out of the price instead of
 * adding it. The support page, the checkout, the provider's plan and each month's tax invoice all
 * read this one function.
 */
export function maintenanceQuote(price: number, currency: string, tax: TaxContext): MaintenanceQuote {
  const supply = placeOfSupply(tax.settings, tax.buyer, currency);
  const taxed = taxSupply(tax.settings, supply.supplyType, price);
  return {
    currency,
    price,
    taxableValue: taxed.taxableValue,
    taxes: taxed.taxes,
    supplyType: supply.supplyType,
    placeOfSupply: supply.placeOfSupply,
    total: taxed.total,
    taxAdded: !tax.settings.pricesIncludeTax && taxed.total !== price,
  };
}

/**
 * The month's price as the Support tab, the offer mail and the refusal after support write it, from
 * a quote's labels: "₹4,165.00 + GST = ₹4,914.70 a month" when GST is added, "₹4,165.00 a month incl.
 * GST" when PRICES_INCLUDE_TAX holds it, else "₹4,165.00 a month" (an export under a LUT, no GST).
 */
export function monthlyPriceLabel(o: { priceLabel: string; totalLabel: string; plusGst: boolean; gstIncluded: boolean }): string {
  if (o.plusGst) return `${o.priceLabel} + GST = ${o.totalLabel} a month`;
  return `${o.priceLabel} a month${o.gstIncluded ? ' incl. GST' : ''}`;
}

/**
 * The price as the public pages print it: "$49.00 a month (₹4,165.00 + GST in India)" — the base
 * currency, and the rupee price with GST when rupees are sold (GST is added for buyers in India,
 * docs/decisions/220-gst-tax-rules.md). `gst`: the seller is registered for GST; `pricesIncludeTax`
 * (PRICES_INCLUDE_TAX): the price already holds the tax, so nothing is added ("incl. GST").
 */
export function maintenancePriceText(base: number, currencies: readonly Currency[], gst: boolean, pricesIncludeTax = false): string {
  const [first] = currencies;
  if (!first) return '';
  const inr = currencies.find((c) => c.code === 'INR');
  const rupees = inr ? formatMoney(maintenanceMinorIn(base, inr), inr) + (gst ? (pricesIncludeTax ? ' incl. GST' : ' + GST') : '') : '';
  if (first.code === 'INR') return `${rupees} a month`;
  return `${formatMoney(maintenanceMinorIn(base, first), first)} a month${rupees ? ` (${rupees} in India)` : ''}`;
}

const monthYear = new Map<string, Intl.DateTimeFormat>();
/**
 * "Maintenance, Dec 2027": how a charge is listed — the month its period starts in, in the zone the
 * invoice is dated in (its financial year's zone), written like the app's other dates (en-US).
 */
export function maintenancePeriodLabel(periodStart: Date | string, timeZone = 'UTC'): string {
  let f = monthYear.get(timeZone);
  if (!f) monthYear.set(timeZone, (f = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone })));
  return `Maintenance, ${f.format(typeof periodStart === 'string' ? new Date(periodStart) : periodStart)}`;
}
