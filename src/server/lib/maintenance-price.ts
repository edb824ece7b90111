import { maintenanceMinorIn } from '../../domain/maintenance-plan.ts';
import { findCurrency } from '../../domain/currencies.ts';
import type { AppDeps } from '../deps.ts';
import { moneyContext } from './money-context.ts';

/**
 * The plan's monthly price in an order's currency, in minor units: MAINTENANCE_MONTHLY_PRICE (base
 * currency) × the currency's factor, rounded down to whole units — the rule of every other price
 * (domain/pricing planPrices). An order in a currency no longer sold is charged in the default one.
 * In lib/ because the plan (features/maintenance) and the support offer (features/support) both
 * name it, and maintenance already depends on support.
 */
export function monthlyPriceIn(deps: AppDeps, currencyCode: string): { amount: number; currency: string } {
  const ctx = moneyContext(deps);
  const currency = findCurrency(currencyCode, ctx.currencies) ?? ctx.defaultCurrency;
  return { amount: maintenanceMinorIn(deps.config.MAINTENANCE_MONTHLY_PRICE, currency), currency: currency.code };
}
