import { findCurrency } from '../../../domain/currencies.ts';
import type { BuyerLocation } from '../../../domain/gst.ts';
import { formatMoney } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { monthlyQuoteFor, planBuyer, planBuyerOf } from '../../lib/maintenance-price.ts';

// The price of the maintenance plan as support mentions it (the Support tab's offer, the refusal
// after the window, the 30-day e-mail): the plan's monthly quote for the order's buyer
// (domain maintenanceQuote, docs/decisions/322-maintenance-plan-gst.md), with its labels.

export interface PlanOffer {
  currency: string;
  /** Minor units of `currency`: the plan's price before tax. */
  monthlyPrice: number;
  /** "₹4,165.00" */
  priceLabel: string;
  /** GST is added to the price for this buyer ("+ GST"). */
  plusGst: boolean;
  /** PRICES_INCLUDE_TAX: the GST is inside the price. */
  gstIncluded: boolean;
  /** What is charged each month, tax included, and its label ("₹4,914.70"). */
  total: number;
  totalLabel: string;
  taxableValue: number;
  taxes: { kind: 'CGST' | 'SGST' | 'IGST'; rate: number; amount: number; label: string }[];
}

/** The plan's monthly offer for an order's buyer as recorded now. */
export async function maintenanceOffer(deps: AppDeps, db: Db | Tx, orderId: string): Promise<PlanOffer> {
  const who = await planBuyer(db, orderId);
  return maintenanceOfferIn(deps, who?.currency ?? '', who?.buyer ?? planBuyerOf({ billing: null, orderBuyer: null }, ''));
}

/** The offer for an order whose currency and buyer the caller has read already. */
export function maintenanceOfferIn(deps: AppDeps, orderCurrency: string, buyer: BuyerLocation): PlanOffer {
  const q = monthlyQuoteFor(deps, orderCurrency, buyer);
  const ctx = moneyContext(deps);
  const currency = findCurrency(q.currency, ctx.currencies) ?? ctx.defaultCurrency;
  const label = (minor: number) => formatMoney(minor, currency);
  return {
    currency: q.currency,
    monthlyPrice: q.price,
    priceLabel: label(q.price),
    plusGst: q.taxAdded,
    gstIncluded: !q.taxAdded && q.taxes.length > 0,
    total: q.total,
    totalLabel: label(q.total),
    taxableValue: q.taxableValue,
    taxes: q.taxes.map((t) => ({ ...t, label: label(t.amount) })),
  };
}
