import { eq } from 'drizzle-orm';
import type { OrderTax } from '../../contract/pricing.ts';
import { type MaintenanceQuote, maintenanceMinorIn, maintenanceQuote } from '../../domain/maintenance-plan.ts';
import { findCurrency } from '../../domain/currencies.ts';
import type { BuyerLocation } from '../../domain/gst.ts';
import type { AppDeps } from '../deps.ts';
import type { Db, Tx } from '../db/client.ts';
import { billingDetails } from '../db/schema/invoices.ts';
import { orders } from '../db/schema/orders.ts';
import { moneyContext } from './money-context.ts';
import { taxOfSupply, taxSettings } from './tax-context.ts';

/**
 * The plan's monthly price in an order's currency, in minor units: MAINTENANCE_MONTHLY_PRICE (base
 * currency) × the currency's factor, rounded down to whole units — the rule of every other price
 * (domain/pricing planPrices). An order in a currency no longer sold is charged in the default one.
 * In lib/ because the plan (features/maintenance), the support offer (features/support) and the
 * month's invoice (features/invoices) all name it, and maintenance already depends on support.
 */
export function monthlyPriceIn(deps: AppDeps, currencyCode: string): { amount: number; currency: string } {
  const ctx = moneyContext(deps);
  const currency = findCurrency(currencyCode, ctx.currencies) ?? ctx.defaultCurrency;
  return { amount: maintenanceMinorIn(deps.config.MAINTENANCE_MONTHLY_PRICE, currency), currency: currency.code };
}

/** Billing details as stored (any field may be null) and the buyer an order was quoted for (orders.tax.buyer). */
export interface PlanBuyerSources {
  billing: { country: string | null; stateCode: string | null; gstin: string | null } | null;
  orderBuyer: OrderTax['buyer'] | null | undefined;
}

/**
 * Who the plan's buyer is for the place of supply (docs/decisions/322-maintenance-plan-gst.md): the
 * billing details now (each month is its own supply, CGST Act s.31(5)), else the location the order
 * was quoted for, else — nothing on record — an Indian buyer in the seller's state when paying in
 * rupees and a buyer abroad otherwise (lib/tax-context buyerLocation's rule).
 */
export function planBuyerOf(s: PlanBuyerSources, currency: string): BuyerLocation {
  if (s.billing?.country) return { country: s.billing.country, stateCode: s.billing.stateCode, gstin: s.billing.gstin };
  if (s.orderBuyer?.country) return { country: s.orderBuyer.country, stateCode: s.orderBuyer.stateCode, gstin: s.orderBuyer.gstin };
  return { country: currency === 'INR' ? 'IN' : 'ZZ' };
}

/** The plan's buyer of one order, read from the database. */
export async function planBuyer(db: Db | Tx, orderId: string): Promise<{ userId: string; currency: string; buyer: BuyerLocation } | null> {
  const [row] = await db
    .select({
      userId: orders.userId,
      currency: orders.currency,
      tax: orders.tax,
      country: billingDetails.country,
      stateCode: billingDetails.stateCode,
      gstin: billingDetails.gstin,
    })
    .from(orders)
    .leftJoin(billingDetails, eq(billingDetails.userId, orders.userId))
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!row) return null;
  return { userId: row.userId, currency: row.currency, buyer: planBuyerOf({ billing: row, orderBuyer: row.tax?.buyer }, row.currency) };
}

/**
 * The plan's monthly quote (domain maintenanceQuote) for a buyer in an order's currency, with the
 * tax settings at `at` (the LUT's validity). `price`: a subscription's own price before tax, when
 * it was sold at another one than today's MAINTENANCE_MONTHLY_PRICE.
 */
export function monthlyQuoteFor(
  deps: AppDeps,
  currencyCode: string,
  buyer: BuyerLocation,
  at: Date = new Date(),
  price?: number,
): MaintenanceQuote {
  if (price !== undefined) return maintenanceQuote(price, currencyCode, { settings: taxSettings(deps.config, at), buyer });
  const monthly = monthlyPriceIn(deps, currencyCode);
  return maintenanceQuote(monthly.amount, monthly.currency, { settings: taxSettings(deps.config, at), buyer });
}

/** The same for an order's buyer as recorded now (null: no such order). */
export async function monthlyQuoteOfOrder(
  deps: AppDeps,
  db: Db | Tx,
  orderId: string,
  at: Date = new Date(),
  price?: number,
): Promise<MaintenanceQuote | null> {
  const who = await planBuyer(db, orderId);
  return who && monthlyQuoteFor(deps, who.currency, who.buyer, at, price);
}

/** A month's quote as the tax a document is issued with (the OrderTax shape of issue-invoice's documentTax). */
export function taxOfMonthlyQuote(deps: AppDeps, q: MaintenanceQuote, buyer: BuyerLocation, at: Date): OrderTax {
  return taxOfSupply(taxSettings(deps.config, at), q, q, buyer);
}
