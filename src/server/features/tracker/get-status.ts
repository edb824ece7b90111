import { DELIVERY_STAGE, NOT_COMPLETED, STAGES, completedStepsOnWire, formatCustomerDate } from '../../../domain/tracker.ts';
import { toMajor } from '../../../domain/money.ts';
import type { StatusResponse } from '../../../contract/tracker.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../lib/app-error.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import type { LoadedOrder } from './load-order.ts';
import { namedStatement } from '../../lib/named-statement.ts';

/** What the customer's status reads show of an order (a part of loadOrder's LoadedOrder). */
export interface OwnOrder {
  order: Pick<LoadedOrder['order'], 'id' | 'publicId' | 'currency' | 'total' | 'deliveryUrl' | 'dueDate' | 'uiApprovedAt'>;
  advance: Pick<LoadedOrder['advance'], 'amount' | 'state'>;
  remaining: Pick<LoadedOrder['remaining'], 'amount' | 'state'>;
  stages: Pick<LoadedOrder['stages'][number], 'stage' | 'completedAt' | 'note'>[];
  /** Notices of completed stages the customer has not seen yet (what `order.seen` would mark read). */
  unseenStages: boolean;
}

interface OwnOrderRow {
  id: string;
  public_id: string;
  currency: string;
  total: number;
  delivery_url: string | null;
  due_date: string | null;
  ui_approved_at: Date | string | null;
  adv_amount: number;
  adv_state: LoadedOrder['advance']['state'];
  rem_amount: number;
  rem_state: LoadedOrder['remaining']['state'];
  /** The completed stages, by stage number (json: `completedAt` as an ISO string). */
  stages: { stage: number; completedAt: string; note: string | null }[];
  unseen: boolean;
}

// The order, its two installments, its stages and whether it has unseen stage notices (the notices
// feature's SQL on deps.queries; without it, always), in ONE named statement
// (docs/decisions/285-signed-in-read-path.md); drafts read as not found. The stages come as one json
// value, not a row each: fifteen rows repeating the order's columns cost a fifth of the read's CPU in
// the driver's row parsing (docs/decisions/291-signed-in-reads-one-statement.md).
const ownOrderSql = (unseen: string) => `select o.id, o.public_id, o.currency, o.total::float8 as total, o.delivery_url, o.due_date::text as due_date, o.ui_approved_at,
        a.amount::float8 as adv_amount, a.state as adv_state, r.amount::float8 as rem_amount, r.state as rem_state,
        (select coalesce(json_agg(json_build_object('stage', s.stage, 'completedAt', s.completed_at, 'note', s.note) order by s.stage), '[]'::json)
           from order_stages s where s.order_id = o.id) as stages,
        ${unseen} as unseen
   from orders o
   join installments a on a.order_id = o.id and a.kind = 'advance'
   join installments r on r.order_id = o.id and r.kind = 'remaining'
  where o.public_id = $1 and o.user_id = $2 and o.state <> 'awaiting_advance'`;

const toDate = (v: Date | string) => (v instanceof Date ? v : new Date(v));

export async function loadOwnOrder(deps: AppDeps, userId: string, publicId: string): Promise<OwnOrder> {
  const text = ownOrderSql(deps.queries.unseenNoticesSql?.('customer', 'stages', 'o.id') ?? 'true');
  const rows = await deps.database.query<OwnOrderRow>(text, [publicId, userId], namedStatement('own_order_status', text));
  const first = rows[0];
  if (!first) throw notFound('Order not found.');
  return {
    order: {
      id: first.id,
      publicId: first.public_id,
      currency: first.currency,
      total: Number(first.total),
      deliveryUrl: first.delivery_url,
      dueDate: first.due_date,
      uiApprovedAt: first.ui_approved_at === null ? null : toDate(first.ui_approved_at),
    },
    advance: { amount: Number(first.adv_amount), state: first.adv_state },
    remaining: { amount: Number(first.rem_amount), state: first.rem_state },
    stages: first.stages.map((r) => ({ stage: r.stage, completedAt: new Date(r.completedAt), note: r.note })),
    unseenStages: first.unseen,
  };
}

/** status/getStatus/order/:id — spec §3 "Status response", with real amounts and states. */
export function toStatus(deps: AppDeps, o: OwnOrder): StatusResponse {
  const c = displayCurrency(moneyContext(deps), o.order.currency);
  const byStage = new Map(o.stages.map((s) => [s.stage, s]));
  const isRemainingPaid = o.remaining.state === 'paid';
  return {
    success: true,
    order_id: o.order.publicId,
    completed_steps: completedStepsOnWire(o.stages.length),
    statuses: STAGES.map((_, i) => {
      const s = byStage.get(i + 1);
      return s ? formatCustomerDate(s.completedAt) : NOT_COMPLETED;
    }),
    remainingAmount: isRemainingPaid ? 0 : toMajor(o.remaining.amount, c),
    currency: o.order.currency,
    symbol: c.symbol,
    minorDigits: c.minorDigits,
    total: o.order.total,
    advance: { amount: o.advance.amount, state: o.advance.state },
    remaining: { amount: o.remaining.amount, state: o.remaining.state },
    notes: STAGES.map((_, i) => byStage.get(i + 1)?.note ?? null),
    deliveryUrl: isRemainingPaid && byStage.has(STAGES.length) ? o.order.deliveryUrl : null,
    // Set by the UI approval (decision 147).
    dueDate: o.order.dueDate ?? null,
    uiApprovedAt: o.order.uiApprovedAt ? o.order.uiApprovedAt.toISOString() : null,
    deliveredAt: byStage.get(DELIVERY_STAGE)?.completedAt.toISOString() ?? null,
  };
}

export function toStatusDates(o: OwnOrder) {
  const byStage = new Map(o.stages.map((s) => [s.stage, s]));
  return {
    success: true as const,
    order_id: o.order.publicId,
    dates: STAGES.map((name, i) => {
      const s = byStage.get(i + 1);
      return { stage: i + 1, name, completedAt: s ? s.completedAt.toISOString() : null, note: s?.note ?? null };
    }),
  };
}
