import { type Currency, floorMajor, formatMoney, toMinor } from './money.ts';

// The maintenance plan as every page and message describes it (docs/decisions/267-maintenance-price-everywhere.md):
// one wording of what it covers and one way to write its price, so the Support tab, /pricing, the
// FAQ, the terms and the assistant cannot drift apart. The price itself is configuration
// (MAINTENANCE_MONTHLY_PRICE), never written here.

/** What the plan covers, as one sentence. */
export const MAINTENANCE_COVERAGE = 'fixes, small changes and answers to your questions, as during the included support';

/** The monthly price of `base` (MAINTENANCE_MONTHLY_PRICE, major units of the base currency) in one currency, in minor units. */
export const maintenanceMinorIn = (base: number, currency: Currency) => toMinor(floorMajor(base * currency.factor), currency);

/**
 * The price as the public pages print it: "$49.00 a month (₹4,165.00 + GST in India)" — the base
 * currency, and the rupee price with GST when rupees are sold (GST is added for buyers in India,
 * docs/decisions/220-gst-tax-rules.md). `gst`: the seller is registered for GST.
 */
export function maintenancePriceText(base: number, currencies: readonly Currency[], gst: boolean): string {
  const [first] = currencies;
  if (!first) return '';
  const inr = currencies.find((c) => c.code === 'INR');
  const rupees = inr ? formatMoney(maintenanceMinorIn(base, inr), inr) + (gst ? ' + GST' : '') : '';
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
