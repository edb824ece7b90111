import type { OrderSummary } from '../../../contract/orders.ts';
import { DELIVERY_STAGE, completedStepsOnWire, formatCustomerDate } from '../../../domain/tracker.ts';
import { toMajor } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import { unreadMessagesSql } from '../order-messages/unread.ts';
import { extensionCoveredUntilSql, supportUntilOf, supportWindow } from '../support/support-window.ts';
import { namedStatement } from '../../lib/named-statement.ts';

interface Row {
  id: string;
  public_id: string;
  created_at: Date | string;
  currency: string;
  total: number;
  coupon_code: string | null;
  adv_amount: number;
  adv_state: 'due' | 'pending' | 'paid';
  rem_amount: number;
  rem_state: 'due' | 'pending' | 'paid';
  stages: number;
  delivered_at: Date | string | null;
  /** What a plan paid for (support-window's extensions); undefined when they have no SQL form. */
  covered_until?: Date | string | null;
  unread: number;
}

/**
 * The list in ONE statement (docs/decisions/285-signed-in-read-path.md): the installments, the stage
 * count, the delivery (order_stages' key) and the unread count, and for a delivered order the support
 * window's extensions, which give their part as SQL.
 */
function listSql(covered: string | undefined) {
  return `select o.id, o.public_id, o.created_at, o.currency, o.total::float8 as total, o.coupon_code,
            a.amount::float8 as adv_amount, a.state as adv_state, r.amount::float8 as rem_amount, r.state as rem_state,
            (select count(*)::int from order_stages s where s.order_id = o.id) as stages,
            d.completed_at as delivered_at,
            ${covered === undefined ? '' : `case when d.completed_at is null then null else ${covered} end as covered_until,`}
            ${unreadMessagesSql('customer', 'o.id')} as unread
       from orders o
       join installments a on a.order_id = o.id and a.kind = 'advance'
       join installments r on r.order_id = o.id and r.kind = 'remaining'
       left join order_stages d on d.order_id = o.id and d.stage = ${DELIVERY_STAGE}
      where o.user_id = $1 and o.state <> 'awaiting_advance' and ($2::text is null or o.public_id = $2)
      order by o.created_at desc
      limit 100`;
}

const toDate = (v: Date | string) => (v instanceof Date ? v : new Date(v));

/** The customer's orders whose advance is paid, newest first (spec §2 "My Orders"). */
export async function listOrders(deps: AppDeps, userId: string, publicId?: string): Promise<OrderSummary[]> {
  const ctx = moneyContext(deps);
  const covered = extensionCoveredUntilSql(deps.queries.supportExtension, 'o.id');
  const text = listSql(covered);
  const rows = await deps.database.query<Row>(text, [userId, publicId ?? null], namedStatement('list_orders', text));
  // The support window of each delivered order (null until delivered).
  const now = new Date();
  const supportUntil = new Map<string, string>();
  for (const r of rows) {
    if (!r.delivered_at) continue;
    if (covered !== undefined) {
      const paid = r.covered_until ? toDate(r.covered_until) : null;
      supportUntil.set(r.id, supportUntilOf(toDate(r.delivered_at), deps.config.SUPPORT_DAYS, paid).toISOString());
      continue;
    }
    // An extension without a SQL form: asked per order, as before.
    const window = await supportWindow(deps.db, deps.queries.supportExtension, deps.config.SUPPORT_DAYS, r.id, now);
    if (window.supportUntil) supportUntil.set(r.id, window.supportUntil.toISOString());
  }
  return rows.map((r) => {
    const c = displayCurrency(ctx, r.currency);
    return {
      order_id: r.public_id,
      date: formatCustomerDate(new Date(r.created_at)),
      total_amount: toMajor(r.total, c),
      currency: r.currency,
      symbol: c.symbol,
      minorDigits: c.minorDigits,
      total: r.total,
      advance: { amount: r.adv_amount, state: r.adv_state },
      remaining: { amount: r.rem_amount, state: r.rem_state },
      advance_status: r.adv_state === 'paid' ? 'Paid' : 'Due',
      remaining_status: r.rem_state === 'paid' ? 'Paid' : 'Due',
      completed_steps: completedStepsOnWire(r.stages),
      coupon_code: r.coupon_code,
      unreadMessages: Number(r.unread ?? 0),
      supportUntil: supportUntil.get(r.id) ?? null,
    };
  });
}
