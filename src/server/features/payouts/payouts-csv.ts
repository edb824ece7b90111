import type { PayoutsResponse } from '../../../contract/payouts.ts';
import { toCsv } from '../../lib/csv.ts';
import { localDay } from './months.ts';

// The month's payouts for the accountant (docs/decisions/323-razorpay-settlements.md): one row per
// line a payout carried, with its payout's id, UTR and date; rupees with 2 decimals; the cells go
// through lib/csv.ts, which neutralises anything a spreadsheet would run as a formula.

const rupees = (paise: number) => (paise / 100).toFixed(2);

export const PAYOUTS_CSV_HEADER = [
  'Payout',
  'UTR',
  'Settled on',
  'Payout amount (INR)',
  'Type',
  'Payment',
  'Order',
  'Amount (INR)',
  'Razorpay fee incl. GST (INR)',
  'GST on fee - input tax credit (INR)',
  'Known here',
];

export function payoutsCsv(report: PayoutsResponse, timeZone: string): string {
  const rows = report.payouts.flatMap((p) =>
    p.items.map((i) => [
      p.id,
      p.utr,
      localDay(new Date(p.settledAt), timeZone),
      rupees(p.amount),
      i.type,
      i.paymentId,
      i.orderId,
      rupees(i.amount),
      rupees(i.fee),
      rupees(i.tax),
      i.type === 'adjustment' ? 'n/a' : i.orderId ? 'yes' : 'no',
    ]),
  );
  return toCsv(PAYOUTS_CSV_HEADER, rows);
}
