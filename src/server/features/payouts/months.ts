// Months as the agency counts them (INVOICE_TIME_ZONE), for the payouts' pages, their reads of
// Razorpay and the 5-day rule (docs/decisions/323-razorpay-settlements.md).

const DAY_MS = 86_400_000;

/** YYYY-MM-DD of `at` where the agency is. */
export function localDay(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** YYYY-MM of `at` where the agency is. */
export const localMonth = (at: Date, timeZone: string) => localDay(at, timeZone).slice(0, 7);

/** The month before YYYY-MM. */
export function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** UTC instants safely around a month, a day either side; the local date then decides. */
export function aroundMonth(month: string): { from: Date; to: Date } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(y, m - 1, 1) - DAY_MS), to: new Date(Date.UTC(y, m, 1) + DAY_MS) };
}
