import { eq } from 'drizzle-orm';
import { findCurrency } from '../../../domain/currencies.ts';
import { floorMajor, formatMoney, toMinor } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { orders } from '../../db/schema/orders.ts';
import { moneyContext } from '../../lib/money-context.ts';

// The price of the maintenance plan as support mentions it (the refusal after the window, the
// 30-day e-mail). The plan itself belongs to features/maintenance, which adds
// MAINTENANCE_MONTHLY_PRICE to the configuration; until it does, the default (49 in the
// base currency) applies. Converted like every other price: base × the currency's factor, whole
// units (domain/pricing.ts), in the order's currency.

const DEFAULT_MONTHLY_PRICE = 49;

/** The monthly price in the base currency, as configured (or the default). */
export function monthlyBasePrice(config: AppDeps['config']): number {
  const configured = Number((config as { MAINTENANCE_MONTHLY_PRICE?: unknown }).MAINTENANCE_MONTHLY_PRICE);
  return Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_MONTHLY_PRICE;
}

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
  const monthlyPrice = toMinor(floorMajor(monthlyBasePrice(deps.config) * currency.factor), currency);
  return { currency: currency.code, monthlyPrice, priceLabel: formatMoney(monthlyPrice, currency) };
}
