import { eq } from 'drizzle-orm';
import { findCurrency } from '../../../domain/currencies.ts';
import { floorMajor, formatMoney, toMinor } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { orders } from '../../db/schema/orders.ts';
import { moneyContext } from '../../lib/money-context.ts';

// The price of the maintenance plan as support mentions it (the refusal after the window, the
// 30-day e-mail): MAINTENANCE_MONTHLY_PRICE (base currency, default 49) converted like every other
// price — base × the currency's factor, whole units (domain/pricing.ts) — in the order's currency.
// The plan itself belongs to features/maintenance (which imports support, so not the other way).

export interface PlanOffer {
  currency: string;
  /** Minor units of `currency`. */
  monthlyPrice: number;
  /** "$49.00" */
  priceLabel: string;
}

/** The plan's monthly price in the order's currency. */
export async function maintenanceOffer(deps: AppDeps, db: Db | Tx, orderId: string): Promise<PlanOffer> {
  const [order] = await db.select({ currency: orders.currency }).from(orders).where(eq(orders.id, orderId)).limit(1);
  const ctx = moneyContext(deps);
  const currency = findCurrency(order?.currency, ctx.currencies) ?? ctx.defaultCurrency;
  const monthlyPrice = toMinor(floorMajor(deps.config.MAINTENANCE_MONTHLY_PRICE * currency.factor), currency);
  return { currency: currency.code, monthlyPrice, priceLabel: formatMoney(monthlyPrice, currency) };
}
