import { NOT_COMPLETED, STAGES, completedStepsOnWire, formatCustomerDate } from '../../../domain/tracker.ts';
import { toMajor } from '../../../domain/money.ts';
import type { StatusResponse } from '../../../contract/tracker.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../lib/app-error.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import { type LoadedOrder, loadOrder } from './load-order.ts';

export async function loadOwnOrder(deps: AppDeps, userId: string, publicId: string): Promise<LoadedOrder> {
  const o = await loadOrder(deps.db, publicId, userId);
  if (!o) throw notFound('Order not found.');
  return o;
}

/** status/getStatus/order/:id — spec §3 "Status response", with real amounts and states. */
export function toStatus(deps: AppDeps, o: LoadedOrder): StatusResponse {
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
  };
}

export function toStatusDates(o: LoadedOrder) {
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
