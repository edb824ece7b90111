import { eq } from 'drizzle-orm';
import { findCurrency } from '../../../domain/currencies.ts';
import { formatMoney } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { orders } from '../../db/schema/orders.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { monthlyPriceIn } from '../../lib/maintenance-price.ts';

// The price of the maintenance plan as support mentions it (the refusal after the window, the
// 30-day e-mail): the plan's own price rule (lib/maintenance-price.ts), with its label.

export interface PlanOffer {
  currency: string;
  /** Minor units of `currency`. */
  monthlyPrice: number;
  /** "$49.00" */
  priceLabel: string;
  /** GST is added to the price for buyers paying in INR. */
  plusGst: boolean;
}

/** The plan's monthly price in the order's currency. */
export async function maintenanceOffer(deps: AppDeps, db: Db | Tx, orderId: string): Promise<PlanOffer> {
  const [order] = await db.select({ currency: orders.currency }).from(orders).where(eq(orders.id, orderId)).limit(1);
  return maintenanceOfferIn(deps, order?.currency ?? '');
}

/** The offer for an order whose currency the caller has read already. */
export function maintenanceOfferIn(deps: AppDeps, orderCurrency: string): PlanOffer {
  const { amount, currency } = monthlyPriceIn(deps, orderCurrency);
  const ctx = moneyContext(deps);
  return { currency, monthlyPrice: amount, priceLabel: formatMoney(amount, findCurrency(currency, ctx.currencies) ?? ctx.defaultCurrency), plusGst: currency === 'INR' };
}
