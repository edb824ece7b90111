import { useCallback, useEffect, useState } from 'react';
import type { CurrenciesResponse } from '../../../contract/pricing.ts';
import { currencyForCountry, DEFAULT_CURRENCY, findCurrency } from '../../../domain/currencies.ts';
import type { Currency } from '../../../domain/money.ts';
import { api } from '../../lib/api.ts';
import { useWeather } from '../geo/use-weather.ts';

const STORAGE_KEY = 'currency';
let table: Promise<CurrenciesResponse | null> | null = null;

function readChoice(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * The visitor's currency (issue 5 "Pricing and currency"): their own choice if they made one,
 * else the one for the country of the location lookup, else the configured default. The server's
 * table is the source of truth; the browser only displays with it.
 */
export function useCurrency() {
  const weather = useWeather();
  const [data, setData] = useState<CurrenciesResponse | null>(null);
  // Read after mount: prerendered pages are built without storage, and hydration must match them.
  const [choice, setChoice] = useState<string | null>(null);

  useEffect(() => {
    setChoice(readChoice());
    let alive = true;
    table ??= api<CurrenciesResponse>('GET', 'pricing/currencies').catch(() => {
      table = null;
      return null;
    });
    void table.then((d) => alive && setData(d));
    return () => {
      alive = false;
    };
  }, []);

  const currencies: readonly Currency[] = data?.currencies ?? [DEFAULT_CURRENCY];
  const currency = findCurrency(choice ?? undefined, currencies) ?? currencyForCountry(weather.country, currencies);

  const setCurrency = useCallback((code: string) => {
    setChoice(code);
    try {
      localStorage.setItem(STORAGE_KEY, code);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
  }, []);

  return { currencies, currency, setCurrency, isReady: data !== null };
}
