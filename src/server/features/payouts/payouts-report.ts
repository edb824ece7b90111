import type { PayoutItem, PayoutsResponse, UnknownSettled, UnsettledPayment } from '../../../contract/payouts.ts';
import type { AppDeps } from '../../deps.ts';
import { aroundMonth, localMonth } from './months.ts';

// The month's payouts as the owner and the accountant read them (docs/decisions/323-razorpay-settlements.md):
// Razorpay's settlements of the month with every line each carried, each line matched to the app's
// payment or refund by Razorpay's id when read (so a refund recorded after the read still matches);
// the lines the app does not know; and the app's live payments no payout carried 5 days on.

/**
 * A live payment not in any payout this long after it was paid is listed: Razorpay settles in T+2 working days
 * (T+7 abroad is listed too, on purpose: it is worth a look).
 */
export const UNSETTLED_AFTER_DAYS = 5;
const DAY_MS = 86_400_000;

/**
 * Every payment the app took, by Razorpay's payment id: the installments' paying attempts (advance,
 * remaining, changes, and duplicates to refund), an installment paid without an attempt, and the
 * maintenance plan's charges; with the order's public id and whether it was taken in test mode.
 */
const KNOWN_PAYMENTS = `
  select pa.provider_payment_id as payment_id, i.order_id, pa.amount, pa.currency, pa.paid_at, pa.test_mode
    from payment_attempts pa join installments i on i.id = pa.installment_id
   where pa.provider_payment_id is not null and pa.state in ('paid', 'duplicate')
  union all
  select i.provider_payment_id, i.order_id, i.amount, i.currency, i.paid_at, false
    from installments i
   where i.provider_payment_id is not null and i.state = 'paid'
     and not exists (select 1 from payment_attempts pa where pa.provider_payment_id = i.provider_payment_id)
  union all
  select mc.provider_payment_id, ms.order_id, mc.amount, mc.currency, mc.charged_at, ms.test_mode
    from maintenance_charges mc join maintenance_subscriptions ms on ms.id = mc.subscription_id`;

interface ItemRow {
  entity_id: string;
  type: string;
  settlement_id: string;
  settlement_utr: string | null;
  amount: number;
  fee: number;
  tax: number;
  net: number;
  settled_at: Date | string;
  provider_order_id: string | null;
  payment_id: string | null;
  /** The order's public id when the app knows the line (a payment or a refund; an adjustment by its payment). */
  order_public_id: string | null;
}

/** Razorpay's settled lines around the month, or of the named settlements, each with the app's order when known. */
async function itemsOf(deps: AppDeps, settlementIds: string[], from: Date, to: Date): Promise<ItemRow[]> {
  return deps.database.query<ItemRow>(
    `select s.entity_id, s.type, s.settlement_id, s.settlement_utr, s.amount::float8 as amount, s.fee::float8 as fee, s.tax::float8 as tax,
            (s.credit - s.debit)::float8 as net, s.settled_at, s.provider_order_id, s.payment_id,
            case when s.type = 'refund' then refunded.public_id else paid.public_id end as order_public_id
       from razorpay_settlement_items s
       left join lateral (
         select o.public_id from (${KNOWN_PAYMENTS}) k join orders o on o.id = k.order_id
          where k.payment_id = case when s.type = 'payment' then s.entity_id else s.payment_id end
          limit 1
       ) paid on s.type <> 'refund'
       left join lateral (
         select o.public_id from payment_refunds r join orders o on o.id = r.order_id where r.provider_refund_id = s.entity_id limit 1
       ) refunded on s.type = 'refund'
      where s.settlement_id = any($1::text[]) or (s.settled_at >= $2 and s.settled_at < $3)
      order by s.settled_at, case s.type when 'payment' then 0 when 'refund' then 1 else 2 end, s.type, s.entity_id`,
    [settlementIds, from, to],
  );
}

const iso = (at: Date | string) => new Date(at).toISOString();
const itemType = (type: string): PayoutItem['type'] => (type === 'payment' || type === 'refund' ? type : 'adjustment');
/** The lines the app should know and does not: payments and refunds without a match, and what it never makes (transfers, disputes). */
const isUnknown = (r: ItemRow) => r.order_public_id === null && r.type !== 'adjustment';

/** The month's payouts (YYYY-MM, INVOICE_TIME_ZONE); `now` is the clock of the 5-day rule. */
export async function payoutsOfMonth(deps: AppDeps, month: string, now: Date): Promise<PayoutsResponse> {
  const tz = deps.config.INVOICE_TIME_ZONE;
  const { from, to } = aroundMonth(month);
  const settlements = (
    await deps.database.query<{ id: string; utr: string | null; amount: number; fees: number; tax: number; created_at: Date | string }>(
      `select id, utr, amount::float8 as amount, fees::float8 as fees, tax::float8 as tax, created_at
         from razorpay_settlements where created_at >= $1 and created_at < $2 and status <> 'failed' order by created_at, id`,
      [from, to],
    )
  ).filter((s) => localMonth(new Date(s.created_at), tz) === month);
  const items = await itemsOf(
    deps,
    settlements.map((s) => s.id),
    from,
    to,
  );
  const linesOf = new Map<string, ItemRow[]>();
  for (const r of items) linesOf.set(r.settlement_id, [...(linesOf.get(r.settlement_id) ?? []), r]);

  const payouts: PayoutsResponse['payouts'] = settlements.map((s) => ({
    id: s.id,
    utr: s.utr,
    amount: s.amount,
    fees: s.fees,
    tax: s.tax,
    settledAt: iso(s.created_at),
    items: [],
  }));
  // Lines whose settlement was not read (it was made outside the read's window): their payout is
  // made of them, so every settled line of the month is in one payout. A settlement that was read
  // (another month's, or a failed one, which Razorpay pays again in a new one) is not made up again.
  const listed = new Set(settlements.map((s) => s.id));
  const unlisted = [...linesOf.keys()].filter((id) => !listed.has(id));
  const stored = new Set(
    unlisted.length
      ? (await deps.database.query<{ id: string }>('select id from razorpay_settlements where id = any($1::text[])', [unlisted])).map(
          (r) => r.id,
        )
      : [],
  );
  for (const [id, lines] of linesOf) {
    if (listed.has(id) || stored.has(id)) continue;
    const settledAt = new Date(Math.max(...lines.map((l) => new Date(l.settled_at).getTime())));
    if (localMonth(settledAt, tz) !== month) continue;
    const sum = (f: (l: ItemRow) => number) => lines.reduce((s, l) => s + f(l), 0);
    payouts.push({
      id,
      utr: lines[0]!.settlement_utr,
      amount: sum((l) => l.net),
      fees: sum((l) => l.fee),
      tax: sum((l) => l.tax),
      settledAt: settledAt.toISOString(),
      items: [],
    });
  }
  payouts.sort((a, b) => a.settledAt.localeCompare(b.settledAt) || a.id.localeCompare(b.id));

  const unknownAtProvider: UnknownSettled[] = [];
  for (const p of payouts) {
    for (const r of linesOf.get(p.id) ?? []) {
      p.items.push({
        type: itemType(r.type),
        paymentId: r.type === 'payment' ? r.entity_id : r.payment_id,
        orderId: r.order_public_id,
        amount: r.amount,
        fee: r.fee,
        tax: r.tax,
      });
      if (isUnknown(r)) {
        unknownAtProvider.push({
          entityId: r.entity_id,
          type: r.type,
          paymentId: r.payment_id,
          providerOrderId: r.provider_order_id,
          amount: r.amount,
          fee: r.fee,
          tax: r.tax,
          settlementId: r.settlement_id,
          utr: r.settlement_utr,
          settledAt: iso(r.settled_at),
        });
      }
    }
  }
  const total = (f: (p: (typeof payouts)[number]) => number) => payouts.reduce((s, p) => s + f(p), 0);
  return {
    payouts,
    unknownAtProvider,
    unsettled: await unsettledOf(deps, month, now),
    totals: { amount: total((p) => p.amount), fees: total((p) => p.fees), tax: total((p) => p.tax) },
  };
}

/**
 * The month's live payments that no settlement line carries `UNSETTLED_AFTER_DAYS` days after they
 * were paid. Only where the month's recon was read: before the first read, every payment would look
 * unsettled.
 */
async function unsettledOf(deps: AppDeps, month: string, now: Date): Promise<UnsettledPayment[]> {
  const [read] = await deps.database.query<{ month: string }>('select month from razorpay_recon_reads where month = $1', [month]);
  if (!read) return [];
  const { from, to } = aroundMonth(month);
  const cutoff = new Date(now.getTime() - UNSETTLED_AFTER_DAYS * DAY_MS);
  const rows = await deps.database.query<{
    payment_id: string;
    public_id: string;
    amount: number;
    currency: string;
    paid_at: Date | string;
  }>(
    `select distinct on (k.payment_id) k.payment_id, o.public_id, k.amount::float8 as amount, k.currency, k.paid_at
       from (${KNOWN_PAYMENTS}) k join orders o on o.id = k.order_id
      where not k.test_mode and k.paid_at >= $1 and k.paid_at < $2 and k.paid_at < $3
        and not exists (select 1 from razorpay_settlement_items s where s.entity_id = k.payment_id)
      order by k.payment_id, k.paid_at`,
    [from, to, cutoff],
  );
  return rows
    .filter((r) => localMonth(new Date(r.paid_at), deps.config.INVOICE_TIME_ZONE) === month)
    .map((r) => ({ paymentId: r.payment_id, orderId: r.public_id, amount: r.amount, currency: r.currency, paidAt: iso(r.paid_at) }))
    .sort((a, b) => a.paidAt.localeCompare(b.paidAt));
}
