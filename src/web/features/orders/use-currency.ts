import { useCallback, useEffect, useState } from 'react';
import type { CurrenciesResponse } from '../../../contract/pricing.ts';
import { DEFAULT_CURRENCY } from '../../../domain/currencies.ts';
import type { Currency } from '../../../domain/money.ts';
import { useWeather } from '../geo/index.ts';
import { currencyTable, readCurrencyChoice, saveCurrencyChoice, visitorCurrency } from './visitor-currency.ts';

/**
 * The visitor's currency: their own choice if they made one,
 * else the one for the country of the location lookup, else the configured default. The server's
 * table is the source of truth; the browser only displays with it.
 */
export function useCurrency() {
  const weather = useWeather();
  const [data, setData] = useState<CurrenciesResponse | null>(null);
  // Read after mount: prerendered pages are built without storage, and hydration must match them.
  const [choice, setChoice] = useState<string | null>(null);

  useEffect(() => {
    setChoice(readCurrencyChoice());
    let alive = true;
    void currencyTable().then((d) => alive && setData(d));
    return () => {
      alive = false;
    };
  }, []);

  const currencies: readonly Currency[] = data?.currencies ?? [DEFAULT_CURRENCY];
  const currency = visitorCurrency(choice, weather.country, currencies);

  const setCurrency = useCallback((code: string) => {
    setChoice(code);
    saveCurrencyChoice(code);
  }, []);

  return { currencies, currency, setCurrency, isReady: data !== null };
}
