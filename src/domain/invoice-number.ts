// Invoice numbering: which financial year a moment belongs to, and how a number is
// written. Pure functions, so the server and tests share them.

/** "2026-27" for a moment in India's April–March year (start month and time zone configurable). */
export function financialYear(at: Date, opts: { startMonth?: number; timeZone?: string } = {}): string {
  const startMonth = opts.startMonth ?? 4;
  // The calendar date where the business is, not UTC: 31 March 23:00 UTC is already 1 April in India.
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: opts.timeZone ?? 'Asia/Kolkata',
    year: 'numeric',
    month: 'numeric',
  }).formatToParts(at);
  const year = Number(parts.find((p) => p.type === 'year')!.value);
  const month = Number(parts.find((p) => p.type === 'month')!.value);
  if (startMonth === 1) return String(year);
  const first = month >= startMonth ? year : year - 1;
  return `${first}-${String((first + 1) % 100).padStart(2, '0')}`;
}

/**
 * Invoices of payments taken in test mode (decision 120): their own series, so the tax-invoice
 * series stays gap-free from the first real payment. Not configurable: it must never look real.
 */
export const TEST_INVOICE_NUMBER_FORMAT = 'TEST/{fy}/{seq:4}';

/** Receipt vouchers for advances (CGST rule 50) and refund vouchers (rule 51): series of their own (docs/decisions/221-gst-documents.md). */
export const RECEIPT_VOUCHER_NUMBER_FORMAT = 'RV/{fy}/{seq:4}';
export const REFUND_VOUCHER_NUMBER_FORMAT = 'RF/{fy}/{seq:4}';

/** Tokens: {fy} the financial year, {seq} the number, {seq:N} zero-padded to N digits. */
export function formatInvoiceNumber(format: string, fy: string, sequence: number): string {
  return format
    .replace(/\{fy\}/g, fy)
    .replace(/\{seq(?::(\d))?\}/g, (_m, pad?: string) => String(sequence).padStart(pad ? Number(pad) : 0, '0'));
}

/** A format must contain {seq} (else every number would collide) and {fy} (numbers restart each year). */
export function isValidInvoiceFormat(format: string): boolean {
  return /\{seq(?::\d)?\}/.test(format) && /\{fy\}/.test(format) && format.length <= 40;
}
