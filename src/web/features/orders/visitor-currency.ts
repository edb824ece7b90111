import type { CurrenciesResponse } from '../../../contract/pricing.ts';
import { currencyForCountry, findCurrency } from '../../../domain/currencies.ts';
import type { Currency } from '../../../domain/money.ts';
import { getPricingCurrenciesEndpoint } from '../../../contract/endpoints.ts';
import { callEndpoint } from '../../lib/api.ts';

// The visitor's currency without React, shared by useCurrency()
// and the pricing plan's DOM island (decision 115).
const STORAGE_KEY = 'currency';
let table: Promise<CurrenciesResponse | null> | null = null;

/** The server's currency table (the source of truth), asked once per page load; null on failure. */
export function currencyTable(): Promise<CurrenciesResponse | null> {
  table ??= callEndpoint(getPricingCurrenciesEndpoint, {}).catch(() => {
    table = null;
    return null;
  });
  return table;
}

/** The visitor's own choice of currency, if they made one. */
export function readCurrencyChoice(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function saveCurrencyChoice(code: string) {
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

/** Their own choice if they made one, else the one for their country, else the configured default. */
export const visitorCurrency = (choice: string | null, country: string | null | undefined, currencies: readonly Currency[]): Currency =>
  findCurrency(choice ?? undefined, currencies) ?? currencyForCountry(country, currencies);

/** How a currency is offered in the pickers: 'INR (₹)'. */
export const currencyOptionLabel = (c: Currency) => `${c.code} (${c.symbol.trim()})`;
