import { eq, sql } from 'drizzle-orm';
import type { CancelOrderBody, CancelOrderResponse, OrderRefundsResponse } from '../../../contract/refunds.ts';
import { DEFAULT_REFUND_REASON, defaultCancelRefund } from '../../../domain/cancel.ts';
import { formatMoney } from '../../../domain/money.ts';
import { DELIVERY_STAGE } from '../../../domain/tracker.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { installments, orders } from '../../db/schema/orders.ts';
import { paymentRefunds } from '../../db/schema/ledger.ts';
import { users } from '../../db/schema/platform.ts';
import { badRequest, conflict, notFound } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import { mailCancelSettled } from './cancel-mail.ts';
import { askProvider, listRefunds, refundablePayments, splitRefund } from './refund-flow.ts';

// The owner cancels an order and chooses what goes back (docs/decisions/321-cancel-and-refund.md).

type OrderRow = typeof orders.$inferSelect;

/** Why the order cannot be cancelled now, or null. */
function refusalOf(order: Pick<OrderRow, 'state'>, facts: { remainingPaid: boolean; delivered: boolean }): string | null {
  if (order.state === 'cancelled') return 'This order is already cancelled.';
  if (facts.remainingPaid && facts.delivered) return 'This order is fully paid and delivered: it can no longer be cancelled.';
  return null;
}

async function factsOf(tx: Pick<Tx, 'select'>, order: Pick<OrderRow, 'id' | 'state'>) {
  const [f] = await tx
    .select({
      remainingPaid: sql<boolean>`exists (select 1 from installments i where i.order_id = ${order.id} and i.kind = 'remaining' and i.state = 'paid')`,
      delivered: sql<boolean>`exists (select 1 from order_stages s where s.order_id = ${order.id} and s.stage = ${DELIVERY_STAGE})`,
      stages: sql<number>`(select count(*) from order_stages s where s.order_id = ${order.id})::int`,
      advancePaid: sql<number>`coalesce((select sum(i.amount) from installments i where i.order_id = ${order.id} and i.kind = 'advance' and i.state = 
          'paid'), 0)::float8`,
    })
    .from(installments)
    .where(eq(installments.orderId, order.id))
    .limit(1);
  return {
    remainingPaid: Boolean(f?.remainingPaid),
    delivered: order.state === 'delivered' || Boolean(f?.delivered),
    stages: Number(f?.stages ?? 0),
    advancePaid: Number(f?.advancePaid ?? 0),
  };
}

/**
 * Cancels the order and asks the provider for the refunds: the order, its refund rows (pending),
 * `order.cancelled` and the audit in one transaction; then each refund is asked of the provider
 * (a failure leaves that refund failed, listed with a retry: the cancel stands). With nothing to
 * refund the customer's mail goes in the cancel's transaction; else with the last refund processed.
 */
export async function cancelOrder(
  deps: AppDeps,
  actorUserId: string,
  publicId: string,
  body: CancelOrderBody,
): Promise<CancelOrderResponse> {
  const ctx = moneyContext(deps);
  const created = await deps.events.transaction(async (tx) => {
    const [row] = await tx
      .select({ order: orders, email: users.email })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(eq(orders.publicId, publicId))
      .for('update', { of: orders })
      .limit(1);
    if (!row || row.order.state === 'awaiting_advance') throw notFound('Order not found.');
    const { order } = row;
    const refusal = refusalOf(order, await factsOf(tx, order));
    if (refusal) throw conflict(refusal);
    const payments = await refundablePayments(tx, order.id);
    const max = payments.reduce((s, p) => s + p.amount - p.refunded, 0);
    if (body.refundAmount > max) {
      const most = formatMoney(max, displayCurrency(ctx, order.currency));
      const message = `The refund can be at most ${most}: what was paid, net of earlier refunds.`;
      throw badRequest(message, [{ path: 'refundAmount', message }]);
    }
    const now = new Date();
    const parts = splitRefund(payments, body.refundAmount);
    const rows = parts.length
      ? await tx
          .insert(paymentRefunds)
          .values(
            parts.map((p, i) => ({
              orderId: order.id,
              provider: p.payment.provider,
              providerPaymentId: p.payment.providerPaymentId,
              amount: p.amount,
              currency: order.currency,
              origin: 'cancel' as const,
              reason: body.reason,
              testMode: p.payment.testMode,
              requestedBy: actorUserId,
              // A millisecond apart: the list shows them in the split's order.
              createdAt: new Date(now.getTime() + i),
            })),
          )
          .returning()
      : [];
    await tx
      .update(orders)
      .set({ state: 'cancelled', cancelledAt: now, cancelReason: body.reason, cancelledBy: actorUserId, updatedAt: now })
      .where(eq(orders.id, order.id));
    await deps.events.publish(tx, 'order.cancelled', {
      orderId: order.id,
      orderPublicId: order.publicId,
      customerEmail: row.email,
      reason: body.reason,
      refundAmount: body.refundAmount,
      currency: order.currency,
      byUserId: actorUserId,
      at: now,
    });
    await recordAudit(tx, {
      actorUserId,
      action: 'order.cancel',
      entity: 'order',
      entityId: order.publicId,
      before: { state: order.state },
      after: {
        state: 'cancelled',
        reason: body.reason,
        refundAmount: body.refundAmount,
        currency: order.currency,
        refunds: rows.map((r) => ({ id: r.id, paymentId: r.providerPaymentId, amount: Number(r.amount) })),
      },
    });
    if (rows.length === 0) {
      await mailCancelSettled(deps, tx, row.email, {
        orderPublicId: order.publicId,
        reason: body.reason,
        currency: order.currency,
        refunded: 0,
        documents: [],
      });
    }
    return { orderId: order.id, ids: rows.map((r) => r.id) };
  });
  // One at a time, in the split's order: each answer is stored before the next is asked.
  for (const id of created.ids) await askProvider(deps, id, publicId);
  const listed = new Map((await listRefunds(deps, { orderId: created.orderId })).map((r) => [r.id, r]));
  const refunds = created.ids.map((id) => listed.get(id)!);
  return {
    order: { state: 'cancelled' },
    refunds: refunds.map((r) => ({ id: r.id, paymentId: r.paymentId, amount: r.amount, status: r.status })),
  };
}

/** The order's refunds and what a cancel may do now (the back office's cancel panel). */
export async function orderRefunds(deps: AppDeps, publicId: string): Promise<OrderRefundsResponse> {
  const [order] = await deps.db.select().from(orders).where(eq(orders.publicId, publicId)).limit(1);
  if (!order || order.state === 'awaiting_advance') throw notFound('Order not found.');
  const facts = await factsOf(deps.db, order);
  const payments = await deps.db.transaction((tx) => refundablePayments(tx, order.id));
  const max = payments.reduce((s, p) => s + p.amount - p.refunded, 0);
  const advanceRefunded = payments.filter((p) => p.kind === 'advance').reduce((s, p) => s + p.refunded, 0);
  const def = defaultCancelRefund({ advancePaid: facts.advancePaid, completedStages: facts.stages, alreadyRefunded: advanceRefunded });
  const refusal = refusalOf(order, facts);
  return {
    currency: order.currency,
    refunds: await listRefunds(deps, { orderId: order.id }),
    cancel: {
      cancelledAt: order.cancelledAt?.toISOString() ?? null,
      reason: order.cancelReason,
      allowed: refusal === null,
      refusal,
      maxRefund: max,
      defaultRefund: Math.min(def.amount, max),
      defaultReason: DEFAULT_REFUND_REASON[def.reason],
    },
  };
}

/** Refuses a customer's write on a cancelled order (changes, reviews, paying the remaining). */
export const cancelledOrderConflict = () => conflict('This order is cancelled: nothing more can be changed or paid on it.');

export const isCancelled = (o: { state: string }) => o.state === 'cancelled';
