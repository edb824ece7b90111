import { formatMoney } from '../../../domain/money.ts';
import { findCurrency } from '../../../domain/currencies.ts';
import { formatStageDate } from '../../../domain/tracker.ts';

/** Spec §2 date format (en-US, long month, 12-hour, UTC) for every admin timestamp. */
export const formatWhen = (iso: string | null | undefined) => (iso ? `${formatStageDate(iso)} UTC` : '—');

/** Minor units with the currency's symbol when we know it, else the ISO code. */
export function formatMinor(minor: number, currency: string): string {
  const c = findCurrency(currency);
  return c ? formatMoney(minor, c) : `${(minor / 100).toFixed(2)} ${currency}`;
}

/** "Nov 3" from "2026-11-03" (UTC). */
export function shortDay(isoDate: string): string {
  return new Date(`${isoDate}T00:00:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' });
}

/**
 * This month where the agency is, YYYY-MM: the back office's monthly pages (the tax return, the
 * payouts) open on it. India's calendar, the server's INVOICE_TIME_ZONE default.
 */
export function thisMonth(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit' }).format(new Date()).slice(0, 7);
}
