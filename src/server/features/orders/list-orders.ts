import type { OrderSummary } from '../../../contract/orders.ts';
import { completedStepsOnWire, formatCustomerDate } from '../../../domain/tracker.ts';
import { toMajor } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import { unreadMessagesSql } from '../order-messages/unread.ts';
import { extensionCoveredUntilSql, supportUntilOf, supportWindow } from '../support/support-window.ts';
import { namedStatement } from '../../lib/named-statement.ts';
import { ledgerTotalsSql } from '../ledger/lines.ts';
import { deliveredAtSql, stageCountSql } from '../tracker/stage-sql.ts';

interface Row {
  id: string;
  public_id: string;
  created_at: Date | string;
  currency: string;
  total: number;
  balance_due: number;
  coupon_code: string | null;
  adv_amount: number;
  adv_state: 'due' | 'pending' | 'paid';
  rem_amount: number;
  rem_state: 'due' | 'pending' | 'paid';
  stages: number;
  delivered_at: Date | string | null;
  cancelled_at: Date | string | null;
  /** What a plan paid for (support-window's extensions); undefined when they have no SQL form. */
  covered_until?: Date | string | null;
  unread: number;
  version: string;
}

/**
 * The list in ONE statement (docs/decisions/285-signed-in-read-path.md): the installments, the stage
 * count and the delivery, the unread count (each by its feature's one SQL form,
 * docs/decisions/341-one-rule-per-derived-value.md), and for a delivered order the support window's
 * extensions, which give their part as SQL; the version is `order_reads`' (decision 317).
 */
function listSql(covered: string | undefined) {
  return `select o.id, o.public_id, o.created_at, o.currency, lt.charged as total, lt.balance_due, o.coupon_code, o.cancelled_at,
            a.amount::float8 as adv_amount, a.state as adv_state, r.amount::float8 as rem_amount, r.state as rem_state,
            ${stageCountSql('o.id')} as stages, d.delivered_at,
            ${covered === undefined ? '' : `case when d.delivered_at is null then null else ${covered} end as covered_until,`}
            ${unreadMessagesSql('customer', 'o.id')} as unread, rd.version::text as version
       from orders o
       join installments a on a.order_id = o.id and a.kind = 'advance'
       join installments r on r.order_id = o.id and r.kind = 'remaining'
       join order_reads rd on rd.order_id = o.id
       cross join lateral (select ${deliveredAtSql('o.id')} as delivered_at) d
       cross join lateral ${ledgerTotalsSql('o.id')} lt
      where o.user_id = $1 and o.state <> 'awaiting_advance' and ($2::text is null or o.public_id = $2)
      order by o.created_at desc, o.id
      limit 100`;
}

/**
 * The versions of the orders the list shows, in its order, as one text (`id:version,…`): what a kept
 * list is checked against (lib/versioned-answers.ts, docs/decisions/317-order-reads-table.md). A new
 * order, a gone one or any change to one changes it.
 */
const listVersionSql = `select coalesce(string_agg(v.id::text || ':' || v.version, ',' order by v.created_at desc, v.id), '') as versions
   from (select o.id, o.created_at, rd.version
           from orders o join order_reads rd on rd.order_id = o.id
          where o.user_id = $1 and o.state <> 'awaiting_advance'
          order by o.created_at desc, o.id
          limit 100) v`;

/** listVersions' text for `userId`, or null when a list would not be kept (readOrders' `versions`). */
export async function listVersions(deps: AppDeps, userId: string): Promise<string | null> {
  if (extensionCoveredUntilSql(deps.queries.supportExtension, 'o.id') === undefined) return null;
  const [row] = await deps.database.query<{ versions: string }>(listVersionSql, [userId], 'own_orders_versions');
  return row?.versions ?? '';
}

const versionsOf = (rows: Row[]) => rows.map((r) => `${r.id}:${r.version}`).join(',');

const toDate = (v: Date | string) => (v instanceof Date ? v : new Date(v));

/** The customer's orders whose advance is paid, newest first (spec §2 "My Orders"). */
export async function listOrders(deps: AppDeps, userId: string, publicId?: string): Promise<OrderSummary[]> {
  return (await readOrders(deps, userId, publicId)).orders;
}

/**
 * listOrders with the versions it was read at (listVersions' form), or null when the list holds a
 * support window read outside the statement (an extension without a SQL form), which no version covers.
 */
export async function readOrders(
  deps: AppDeps,
  userId: string,
  publicId?: string,
): Promise<{ orders: OrderSummary[]; versions: string | null }> {
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
  const orders = rows.map((r): OrderSummary => {
    const c = displayCurrency(ctx, r.currency);
    return {
      order_id: r.public_id,
      date: formatCustomerDate(new Date(r.created_at)),
      createdAt: toDate(r.created_at).toISOString(),
      total_amount: toMajor(Number(r.total), c),
      currency: r.currency,
      symbol: c.symbol,
      minorDigits: c.minorDigits,
      total: Number(r.total),
      balanceDue: Number(r.balance_due),
      advance: { amount: r.adv_amount, state: r.adv_state },
      remaining: { amount: r.rem_amount, state: r.rem_state },
      advance_status: r.adv_state === 'paid' ? 'Paid' : 'Due',
      remaining_status: r.rem_state === 'paid' ? 'Paid' : r.cancelled_at ? 'Cancelled' : 'Due',
      completed_steps: completedStepsOnWire(r.stages),
      coupon_code: r.coupon_code,
      unreadMessages: Number(r.unread ?? 0),
      supportUntil: supportUntil.get(r.id) ?? null,
      cancelledAt: r.cancelled_at ? toDate(r.cancelled_at).toISOString() : null,
    };
  });
  return { orders, versions: covered === undefined ? null : versionsOf(rows) };
}
