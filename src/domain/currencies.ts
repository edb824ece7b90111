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

// Which currency a visitor sees first, from the country of the location lookup (ISO 3166 alpha-2).
// Countries not listed get the default (USD).
const EURO_COUNTRIES = [
  'AT',
  'BE',
  'CY',
  'DE',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PT',
  'SI',
  'SK',
];
export const COUNTRY_CURRENCY: Readonly<Record<string, string>> = {
  IN: 'INR',
  GB: 'GBP',
  AE: 'AED',
  ...Object.fromEntries(EURO_COUNTRIES.map((c) => [c, 'EUR'])),
};

// The location lookup may report English names (ip-api's `country`) instead of codes.
const NAME_TO_CODE: Readonly<Record<string, string>> = {
  india: 'IN',
  'united kingdom': 'GB',
  'united arab emirates': 'AE',
  austria: 'AT',
  belgium: 'BE',
  cyprus: 'CY',
  germany: 'DE',
  estonia: 'EE',
  spain: 'ES',
  finland: 'FI',
  france: 'FR',
  greece: 'GR',
  croatia: 'HR',
  ireland: 'IE',
  italy: 'IT',
  lithuania: 'LT',
  luxembourg: 'LU',
  latvia: 'LV',
  malta: 'MT',
  netherlands: 'NL',
  'the netherlands': 'NL',
  portugal: 'PT',
  slovenia: 'SI',
  slovakia: 'SK',
};

/** The currency for a country given as an ISO alpha-2 code or an English name. */
export function currencyForCountry(country: string | undefined | null, table: readonly Currency[] = CURRENCIES): Currency {
  const key = country?.trim() ?? '';
  const iso = key.length === 2 ? key.toUpperCase() : NAME_TO_CODE[key.toLowerCase()];
  const code = iso ? COUNTRY_CURRENCY[iso] : undefined;
  return findCurrency(code, table) ?? table[0] ?? DEFAULT_CURRENCY;
}

/** Checks a configured currency table (JSON from the environment); throws a readable message. */
export function parseCurrencyTable(json: string): Currency[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error('must be JSON: [{"code":"USD","symbol":"$","factor":1,"minorDigits":2}, …]');
  }
  if (!Array.isArray(raw) || raw.length === 0) throw new Error('must be a non-empty JSON array');
  const seen = new Set<string>();
  return raw.map((item, i) => {
    const c = item as Partial<Currency>;
    const ok =
      typeof c.code === 'string' &&
      /^[A-Z]{3}$/.test(c.code) &&
      typeof c.symbol === 'string' &&
      c.symbol.length > 0 &&
      c.symbol.length <= 5 &&
      typeof c.factor === 'number' &&
      Number.isFinite(c.factor) &&
      c.factor > 0 &&
      c.factor <= 100000 &&
      (c.minorDigits === 0 || c.minorDigits === 2 || c.minorDigits === 3);
    if (!ok) throw new Error(`entry ${i} needs code (3 capitals), symbol, factor > 0 and minorDigits 0, 2 or 3`);
    if (seen.has(c.code!)) throw new Error(`currency ${c.code} is listed twice`);
    seen.add(c.code!);
    return { code: c.code!, symbol: c.symbol!, factor: c.factor!, minorDigits: c.minorDigits! };
  });
}
