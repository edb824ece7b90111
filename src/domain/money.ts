// Money is an integer number of minor units (cents, paise) plus its currency.
// Nothing here does I/O: the browser and the server import the same arithmetic.

export interface Currency {
  /** ISO 4217 code, e.g. 'USD'. */
  code: string;
  symbol: string;
  /** Multiplier applied to the base (USD) price list (spec §9 "currencyChange"). */
  factor: number;
  /** Digits after the decimal point: 2 for USD and INR. */
  minorDigits: number;
}

export interface Money {
  amount: number; // integer minor units
  currency: string;
}

export const minorUnit = (c: Pick<Currency, 'minorDigits'>) => 10 ** c.minorDigits;

/** Floors a floating major amount to whole major units, tolerant of binary noise (899 × 1.1). */
export const floorMajor = (value: number) => Math.floor(value + 1e-9);

export const toMinor = (major: number, c: Pick<Currency, 'minorDigits'>) => Math.round(major * minorUnit(c));
export const toMajor = (minor: number, c: Pick<Currency, 'minorDigits'>) => minor / minorUnit(c);

/** Integer percentage of an integer amount, rounded half up to the minor unit. */
export const percentOf = (minor: number, percent: number) => Math.round((minor * percent) / 100);

/** "916.98" — fixed to the currency's digits, no symbol. */
export const formatAmount = (minor: number, c: Pick<Currency, 'minorDigits'>) => toMajor(minor, c).toFixed(c.minorDigits);

// One formatter per number of digits: toLocaleString with options builds a new Intl.NumberFormat on
// every call (3 % of a signed-in support read, docs/decisions/291-signed-in-reads-one-statement.md). Same output.
const amountFormats = new Map<number, Intl.NumberFormat>();
function amountFormat(digits: number): Intl.NumberFormat {
  let f = amountFormats.get(digits);
  if (!f) amountFormats.set(digits, (f = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })));
  return f;
}

/** "$916.98" */
export const formatMoney = (minor: number, c: Pick<Currency, 'minorDigits' | 'symbol'>) =>
  `${c.symbol}${amountFormat(c.minorDigits).format(toMajor(minor, c))}`;

/** "₹8,000" rather than "₹8,000.00" when the amount is whole (quotes, add-ons and their totals). */
export function formatMoneyWhole(minor: number, c: Pick<Currency, 'minorDigits' | 'symbol'>): string {
  const s = formatMoney(minor, c);
  return s.endsWith('.00') ? s.slice(0, -3) : s;
}
