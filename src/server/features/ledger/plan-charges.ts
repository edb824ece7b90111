import type { AppDeps } from '../../deps.ts';

type Query = AppDeps['database']['query'];

/**
 * The maintenance months an order's account was charged between `from` and `until`, one per
 * document (its value, tax included): what the monthly care report lists (docs/decisions/320-order-ledger.md).
 */
export async function planChargesOf(q: Query, orderId: string, from: Date, until: Date) {
  const rows = await q<{ number: string; at: Date | string; amount: number; currency: string }>(
    `select l.document_number as number, min(l.at) as at, sum(l.amount)::float8 as amount, l.currency
       from order_ledger l
      where l.order_id = $1 and l.source like 'maintenance:%' and l.kind in ('charge', 'tax')
        and l.at >= $2::timestamptz and l.at < $3::timestamptz
      group by l.source, l.document_number, l.currency
      order by min(l.at)`,
    [orderId, from.toISOString(), until.toISOString()],
  );
  return rows.map((r) => ({ number: r.number, issuedAt: new Date(r.at).toISOString(), amount: Number(r.amount), currency: r.currency }));
}
