import { CURRENCIES, findCurrency, parseCurrencyTable } from '../../domain/currencies.ts';
import type { Currency } from '../../domain/money.ts';
import type { AppDeps } from '../deps.ts';
import { badRequest } from './app-error.ts';
import type { PaymentProvider } from '../integrations/payments/provider.ts';
import { createRazorpayProvider } from '../integrations/payments/razorpay.ts';
import { createTestCheckoutProvider } from '../integrations/payments/test-checkout.ts';

/** What the money features share per app instance: provider, currency table, referral end. */
export interface MoneyContext {
  provider: PaymentProvider;
  currencies: readonly Currency[];
  defaultCurrency: Currency;
  referralValidUntil: Date | null;
}

// Keyed by deps so that each app built (tests build many) gets its own provider and secret, while
// services keep the `(deps, …)` signature other features call them with.
const contexts = new WeakMap<AppDeps, MoneyContext>();

export function moneyContext(deps: AppDeps): MoneyContext {
  let ctx = contexts.get(deps);
  if (!ctx) {
    const c = deps.config;
    const currencies = c.CURRENCY_TABLE ? parseCurrencyTable(c.CURRENCY_TABLE) : CURRENCIES;
    const provider =
      c.RAZORPAY_KEY_ID && c.RAZORPAY_KEY_SECRET
        ? createRazorpayProvider({
            apiUrl: c.RAZORPAY_API_URL,
            keyId: c.RAZORPAY_KEY_ID,
            keySecret: c.RAZORPAY_KEY_SECRET,
            timeoutMs: c.RAZORPAY_TIMEOUT_MS,
          })
        : createTestCheckoutProvider(c.TEST_PAYMENTS_SECRET);
    ctx = {
      provider,
      currencies,
      defaultCurrency: currencies[0]!,
      referralValidUntil: c.REFERRAL_VALID_UNTIL ? new Date(c.REFERRAL_VALID_UNTIL) : null,
    };
    contexts.set(deps, ctx);
  }
  return ctx;
}

/** The configured currency for a code (default when absent); 400 for one we do not sell in. */
export function resolveCurrency(ctx: MoneyContext, code: string | undefined): Currency {
  if (!code) return ctx.defaultCurrency;
  const c = findCurrency(code, ctx.currencies);
  if (!c) throw badRequest(`We do not accept payments in ${code.toUpperCase().slice(0, 3)}.`);
  return c;
}

/** Display data for an order's currency, even if it was later removed from the table. */
export function displayCurrency(ctx: MoneyContext, code: string) {
  const c = findCurrency(code, ctx.currencies);
  return { symbol: c?.symbol ?? `${code} `, minorDigits: c?.minorDigits ?? 2 };
}
