import type { Database } from '../../db/client.ts';

// Money moved, from the order accounts (docs/decisions/320-order-ledger.md): payments received and
// refunds made, per currency and day by the date the money moved, with their INR value at each
// document's rate. Test-mode money moved nothing and is counted apart.

export interface MoneyMoved {
  perCurrency: { currency: string; received: number; refunded: number; net: number; perDay: number[]; changes: number }[];
  /** Paise: every currency at its documents' rates. */
  inr: { received: number; refunded: number; net: number };
  testLeftOut: { payments: number; refunds: number; perCurrency: { currency: string; received: number; refunded: number }[] };
}

interface Row {
  currency: string;
  day: string;
  test_mode: boolean;
  received: number;
  refunded: number;
  received_inr: number;
  refunded_inr: number;
  changes: number;
  payments: number;
  refunds: number;
}

// The INR value of a line: its own (a document in another currency), or the amount itself in rupees.
const inr = `coalesce(l.inr_amount, case when l.currency = 'INR' then l.amount else 0 end)`;

/** Payments and refunds on or after `days[0]` (UTC dates), spread over `days`. */
export async function moneyMoved(database: Database, days: string[]): Promise<MoneyMoved> {
  const rows = await database.query<Row>(
    `select l.currency, to_char(l.at at time zone 'UTC', 'YYYY-MM-DD') as day, l.test_mode,
            coalesce(-sum(l.amount) filter (where l.kind = 'payment'), 0)::float8 as received,
            coalesce(sum(l.amount) filter (where l.kind = 'refund'), 0)::float8 as refunded,
            coalesce(-sum(${inr}) filter (where l.kind = 'payment'), 0)::float8 as received_inr,
            coalesce(sum(${inr}) filter (where l.kind = 'refund'), 0)::float8 as refunded_inr,
            coalesce(-sum(l.amount) filter (where l.kind = 'payment' and exists (
              select 1 from order_ledger c where c.invoice_id = l.invoice_id and c.order_id = l.order_id and c.source like 'change:%')), 0)::float8 as changes,
            (count(*) filter (where l.kind = 'payment'))::int as payments,
            (count(*) filter (where l.kind = 'refund'))::int as refunds
       from order_ledger l
      where l.kind in ('payment', 'refund') and l.at >= ($1::date)::timestamp at time zone 'UTC'
      group by 1, 2, 3`,
    [days[0]],
  );
  const live = rows.filter((r) => !r.test_mode);
  const test = rows.filter((r) => r.test_mode);
  const currencies = [...new Set(live.map((r) => r.currency))].sort();
  const add = (xs: Row[], k: keyof Row) => xs.reduce((s, r) => s + Number(r[k]), 0);
  const perCurrency = currencies.map((currency) => {
    const mine = live.filter((r) => r.currency === currency);
    const byDay = new Map(mine.map((r) => [r.day, Number(r.received) - Number(r.refunded)]));
    const received = add(mine, 'received');
    const refunded = add(mine, 'refunded');
    return {
      currency,
      received,
      refunded,
      net: received - refunded,
      perDay: days.map((d) => byDay.get(d) ?? 0),
      changes: add(mine, 'changes'),
    };
  });
  const received = add(live, 'received_inr');
  const refunded = add(live, 'refunded_inr');
  const testCurrencies = [...new Set(test.map((r) => r.currency))].sort();
  return {
    perCurrency,
    inr: { received, refunded, net: received - refunded },
    testLeftOut: {
      payments: add(test, 'payments'),
      refunds: add(test, 'refunds'),
      perCurrency: testCurrencies.map((currency) => {
        const mine = test.filter((r) => r.currency === currency);
        return { currency, received: add(mine, 'received'), refunded: add(mine, 'refunded') };
      }),
    },
  };
}
