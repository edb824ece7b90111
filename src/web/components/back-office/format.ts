import { formatMoney } from '../../../domain/money.ts';
import { findCurrency } from '../../../domain/currencies.ts';
import { formatDay, formatWhen as formatInstant, monthIn } from '../../../domain/when.ts';

/** Every back-office timestamp: the one formatter, in the viewer's zone (docs/decisions/335-one-rule-for-times.md). */
export const formatWhen = (iso: string | null | undefined) => (iso ? formatInstant(iso) : '—');

/** Minor units with the currency's symbol when we know it, else the ISO code. */
export function formatMinor(minor: number, currency: string): string {
  const c = findCurrency(currency);
  return c ? formatMoney(minor, c) : `${(minor / 100).toFixed(2)} ${currency}`;
}

/** "Nov 3" from the calendar day "2026-11-03". */
export const shortDay = (isoDate: string) => formatDay(isoDate, 'monthDay');

/**
 * This month where the agency is, YYYY-MM: the back office's monthly pages (the tax return, the
 * payouts) open on it. India's calendar, the server's INVOICE_TIME_ZONE default.
 */
export function thisMonth(): string {
  return monthIn(new Date(), 'Asia/Kolkata');
}
