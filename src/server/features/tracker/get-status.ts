import { DELIVERY_STAGE, NOT_COMPLETED, STAGES, completedStepsOnWire, formatCustomerDate } from '../../../domain/tracker.ts';
import { toMajor } from '../../../domain/money.ts';
import type { StatusResponse } from '../../../contract/tracker.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../lib/app-error.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import type { LoadedOrder } from './load-order.ts';
import { namedStatement } from '../../lib/named-statement.ts';
import { ledgerTotalsSql } from '../ledger/lines.ts';
import { stagesJsonSql } from './stage-sql.ts';

/** What the customer's status reads show of an order (a part of loadOrder's LoadedOrder). */
export interface OwnOrder {
  /** `total` and `balanceDue` are the order account's (docs/decisions/320-order-ledger.md), not the order row's quote. */
  order: Pick<
    LoadedOrder['order'],
    'id' | 'publicId' | 'currency' | 'total' | 'deliveryUrl' | 'dueDate' | 'uiApprovedAt' | 'cancelledAt'
  > & { balanceDue: number };
  advance: Pick<LoadedOrder['advance'], 'amount' | 'state'>;
  remaining: Pick<LoadedOrder['remaining'], 'amount' | 'state'>;
  stages: Pick<LoadedOrder['stages'][number], 'stage' | 'completedAt' | 'note'>[];
  /** Notices of completed stages the customer has not seen yet (what `order.seen` would mark read). */
  unseenStages: boolean;
  /** `order_reads.version` as read with the rest (docs/decisions/317-order-reads-table.md). */
  version: string;
}

interface OwnOrderRow {
  id: string;
  public_id: string;
  currency: string;
  total: number;
  balance_due: number;
  delivery_url: string | null;
  due_date: string | null;
  ui_approved_at: Date | string | null;
  cancelled_at: Date | string | null;
  adv_amount: number;
  adv_state: LoadedOrder['advance']['state'];
  rem_amount: number;
  rem_state: LoadedOrder['remaining']['state'];
  /** The completed stages, by stage number, as [stage, completed at in epoch ms, note] (./stage-sql.ts). */
  stages: [number, number, string | null][];
  unseen: boolean;
  version: string;
}

// The order, its two installments, its stages and whether it has unseen stage notices (the notices
// feature's SQL on deps.queries; without it, always), in ONE named statement
// (docs/decisions/285-signed-in-read-path.md); drafts read as not found. The stages come as one json
// value (./stage-sql.ts, the one rule for them: docs/decisions/341-one-rule-per-derived-value.md):
// fifteen rows repeating the order's columns cost a fifth of the read's CPU in the driver's row
// parsing (docs/decisions/291-signed-in-reads-one-statement.md). The version is `order_reads`'.
const ownOrderSql = (
  unseen: string,
) => `select o.id, o.public_id, o.currency, lt.charged as total, lt.balance_due, o.delivery_url, o.due_date::text as due_date, o.ui_approved_at, o.cancelled_at,
        a.amount::float8 as adv_amount, a.state as adv_state, r.amount::float8 as rem_amount, r.state as rem_state,
        ${stagesJsonSql('o.id')} as stages, ${unseen} as unseen, rd.version::text as version
   from orders o
   join installments a on a.order_id = o.id and a.kind = 'advance'
   join installments r on r.order_id = o.id and r.kind = 'remaining'
   join order_reads rd on rd.order_id = o.id
   cross join lateral ${ledgerTotalsSql('o.id')} lt
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
      balanceDue: Number(first.balance_due),
      deliveryUrl: first.delivery_url,
      dueDate: first.due_date,
      uiApprovedAt: first.ui_approved_at === null ? null : toDate(first.ui_approved_at),
      cancelledAt: first.cancelled_at === null ? null : toDate(first.cancelled_at),
    },
    advance: { amount: Number(first.adv_amount), state: first.adv_state },
    remaining: { amount: Number(first.rem_amount), state: first.rem_state },
    stages: first.stages.map(([stage, at, note]) => ({ stage, completedAt: new Date(at), note })),
    unseenStages: first.unseen,
    version: first.version,
  };
}

// The same order's version alone, under the same rule (theirs, not a draft): what a kept answer is
// checked against (lib/versioned-answers.ts).
const ownOrderVersionSql = `select rd.version::text as version
   from orders o join order_reads rd on rd.order_id = o.id
  where o.public_id = $1 and o.user_id = $2 and o.state <> 'awaiting_advance'`;

/** The version of the customer's own order `publicId`; 404 when it is not theirs or a draft. */
export async function ownOrderVersion(deps: AppDeps, userId: string, publicId: string): Promise<string> {
  const [row] = await deps.database.query<{ version: string }>(ownOrderVersionSql, [publicId, userId], 'own_order_version');
  if (!row) throw notFound('Order not found.');
  return row.version;
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
    completedAt: STAGES.map((_, i) => byStage.get(i + 1)?.completedAt.toISOString() ?? null),
    // A cancelled order owes nothing more (docs/decisions/321-cancel-and-refund.md).
    remainingAmount: isRemainingPaid || o.order.cancelledAt ? 0 : toMajor(o.remaining.amount, c),
    currency: o.order.currency,
    symbol: c.symbol,
    minorDigits: c.minorDigits,
    total: o.order.total,
    balanceDue: o.order.balanceDue,
    advance: { amount: o.advance.amount, state: o.advance.state },
    remaining: { amount: o.remaining.amount, state: o.remaining.state },
    notes: STAGES.map((_, i) => byStage.get(i + 1)?.note ?? null),
    deliveryUrl: isRemainingPaid && byStage.has(STAGES.length) ? o.order.deliveryUrl : null,
    // Set by the UI approval (decision 147).
    dueDate: o.order.dueDate ?? null,
    uiApprovedAt: o.order.uiApprovedAt ? o.order.uiApprovedAt.toISOString() : null,
    deliveredAt: byStage.get(DELIVERY_STAGE)?.completedAt.toISOString() ?? null,
    cancelledAt: o.order.cancelledAt ? o.order.cancelledAt.toISOString() : null,
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
