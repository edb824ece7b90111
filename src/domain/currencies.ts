import type { Currency } from './money.ts';

// The spec gives only USD ($, factor 1). The other factors are the configured defaults
// (docs/decisions/ explain them); the server may override the table from configuration.
export const DEFAULT_CURRENCY: Currency = { code: 'USD', symbol: '$', factor: 1, minorDigits: 2 };

export const CURRENCIES: readonly Currency[] = [
  DEFAULT_CURRENCY,
  { code: 'INR', symbol: '₹', factor: 85, minorDigits: 2 },
  { code: 'EUR', symbol: '€', factor: 0.95, minorDigits: 2 },
  { code: 'GBP', symbol: '£', factor: 0.8, minorDigits: 2 },
  { code: 'AED', symbol: 'AED ', factor: 3.67, minorDigits: 2 },
];

export function findCurrency(code: string | undefined, table: readonly Currency[] = CURRENCIES): Currency | undefined {
  if (!code) return undefined;
  return table.find((c) => c.code === code.toUpperCase());
}
