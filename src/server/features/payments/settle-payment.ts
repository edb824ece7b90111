import { and, eq, sql } from 'drizzle-orm';
import { findCurrency } from '../../../domain/currencies.ts';
import { referralCashback } from '../../../domain/referral.ts';
import { ADVANCE_STAGE, DELIVERY_STAGE, REMAINING_PAYMENT_STAGE } from '../../../domain/tracker.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { users } from '../../db/schema/platform.ts';
import { cashback, couponRedemptions, installments, orderStages, orders, paymentAttempts } from '../../db/schema/orders.ts';
import { withoutDiscount } from '../../../domain/pricing.ts';
import { mayRedeem } from '../coupons/coupon-limits.ts';
import { moneyContext } from '../../lib/money-context.ts';

export type SettleOutcome = 'paid' | 'already_paid' | 'duplicate' | 'amount_mismatch' | 'unknown_order';

export interface SettleResult {
  outcome: SettleOutcome;
  kind?: 'advance' | 'remaining';
  orderPublicId?: string;
}

/**
 * Marks the installment of one provider order paid — the only place money state moves. Called by
 * the verified checkout callback, the signed webhook and reconciliation; whichever comes first
 * wins and the others are no-ops, so nothing is paid twice and nothing moves backwards.
 *
 * It publishes what happened — payment.settled (or payment.duplicate), then the stages it
 * completed and a delivery — and knows nothing of who reacts: the invoice is numbered, the
 * reminders cancelled in this transaction by their subscribers; receipts and notices are sent
 * after commit (decision 100).
 */
export async function settlePayment(
  deps: AppDeps,
  input: { providerOrderId: string; paymentId: string; amount?: number; currency?: string },
  /** Settle inside the caller's transaction (opened by `deps.events.transaction` or `savepoint`). */
  within?: Tx,
): Promise<SettleResult> {
  const run = (fn: (tx: Tx) => Promise<SettleResult>) => (within ? fn(within) : deps.events.transaction(fn));
  const result = await run(async (tx): Promise<SettleResult> => {
    const [row] = await tx
      .select({ attempt: paymentAttempts, installment: installments, order: orders, email: users.email })
      .from(paymentAttempts)
      .innerJoin(installments, eq(installments.id, paymentAttempts.installmentId))
      .innerJoin(orders, eq(orders.id, installments.orderId))
      .innerJoin(users, eq(users.id, orders.userId))
      .where(eq(paymentAttempts.providerOrderId, input.providerOrderId))
      .for('update', { of: [paymentAttempts, installments, orders] })
      .limit(1);
    if (!row) return { outcome: 'unknown_order' };
    const { attempt, installment, order } = row;
    const base = { kind: installment.kind, orderPublicId: order.publicId };
    const ref = { orderId: order.id, orderPublicId: order.publicId, customerEmail: row.email };
    if (attempt.state !== 'created') return { ...base, outcome: 'already_paid' };
    if (
      (input.amount !== undefined && input.amount !== attempt.amount) ||
      (input.currency !== undefined && input.currency !== attempt.currency)
    ) {
      deps.log.warn({ providerOrderId: attempt.providerOrderId }, 'payment amount or currency differs from the provider order; not settled');
      return { ...base, outcome: 'amount_mismatch' };
    }
    const now = new Date();
    if (installment.state === 'paid') {
      // A second successful payment for an installment already paid: keep the record for a refund.
      // The founder is e-mailed and sees "Refund needed" until it is marked refunded.
      await tx
        .update(paymentAttempts)
        .set({ state: 'duplicate', providerPaymentId: input.paymentId, paidAt: now, refundState: 'needed' })
        .where(eq(paymentAttempts.id, attempt.id));
      deps.log.warn({ order: order.publicId, paymentId: input.paymentId }, 'duplicate payment for a paid installment — refund it');
      await deps.events.publish(tx, 'payment.duplicate', { ...ref, kind: installment.kind, amount: attempt.amount, currency: attempt.currency, paymentId: input.paymentId, paidAt: now });
      return { ...base, outcome: 'duplicate' };
    }
    await tx.update(paymentAttempts).set({ state: 'paid', providerPaymentId: input.paymentId, paidAt: now }).where(eq(paymentAttempts.id, attempt.id));
    await tx.update(installments).set({ state: 'paid', providerPaymentId: input.paymentId, paidAt: now }).where(eq(installments.id, installment.id));
    // Published after payment.settled, at the end: the invoice's subscriber must see the final
    // amounts (a discount withdrawn below), and the receipt is e-mailed before the stage e-mails.
    const stageEvents: (() => Promise<void>)[] = [];
    const completeStage = async (stage: number) => {
      await tx.insert(orderStages).values({ orderId: order.id, stage, completedAt: now }).onConflictDoNothing();
      stageEvents.push(() => deps.events.publish(tx, 'stage.completed', { ...ref, stage, at: now, note: null }));
    };

    if (installment.kind === 'advance') {
      await tx.update(orders).set({ state: 'in_progress', updatedAt: now }).where(eq(orders.id, order.id));
      await completeStage(ADVANCE_STAGE);
      let keepsCode = true;
      if (order.couponId) {
        keepsCode = await mayRedeem(tx, { id: order.id, userId: order.userId, couponId: order.couponId, couponHoldUntil: order.couponHoldUntil }, now);
        if (keepsCode) {
          await tx
            .insert(couponRedemptions)
            .values({ couponId: order.couponId, orderId: order.id, userId: order.userId, discount: order.discount, currency: order.currency })
            .onConflictDoNothing();
        } else if (order.discount > 0) {
          // The code's last use went to someone else while this checkout was open (decision 092):
          // the advance stands, the order costs the full price, the remaining carries the difference.
          const full = withoutDiscount(order.price, attempt.amount);
          await tx
            .update(orders)
            .set({ discountPercent: 0, discount: 0, fee: full.fee, total: full.total, referrerUserId: null, couponWithdrawnAt: now, updatedAt: now })
            .where(eq(orders.id, order.id));
          await tx.update(installments).set({ amount: full.remaining }).where(and(eq(installments.orderId, order.id), eq(installments.kind, 'remaining')));
          deps.log.warn({ order: order.publicId, coupon: order.couponCode }, 'code limit reached before payment: discount withdrawn, difference added to the remaining installment');
        }
      }
      if (order.referrerUserId && keepsCode) {
        const currency = findCurrency(order.currency, moneyContext(deps).currencies) ?? { code: order.currency, symbol: '', factor: 1, minorDigits: 2 };
        await tx
          .insert(cashback)
          .values({ referrerUserId: order.referrerUserId, orderId: order.id, amount: referralCashback(order.discount, currency), currency: order.currency })
          .onConflictDoNothing();
      }
    } else {
      await tx.update(orders).set({ state: 'paid', updatedAt: now }).where(and(eq(orders.id, order.id), eq(orders.state, 'in_progress')));
      // The referred order is now fully paid: the referrer's cashback is earned (spec "only complete payments qualify").
      await tx.update(cashback).set({ state: 'earned', earnedAt: now }).where(and(eq(cashback.orderId, order.id), eq(cashback.state, 'pending')));
      const [done] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(orderStages)
        .where(eq(orderStages.orderId, order.id));
      if ((done?.n ?? 0) === REMAINING_PAYMENT_STAGE - 1) {
        await completeStage(REMAINING_PAYMENT_STAGE);
        if (order.deliveryUrl) {
          // The founder attached the link already: the site is delivered with the last payment.
          await completeStage(DELIVERY_STAGE);
          await tx.update(orders).set({ state: 'delivered', updatedAt: now }).where(eq(orders.id, order.id));
          const deliveryUrl = order.deliveryUrl;
          stageEvents.push(() => deps.events.publish(tx, 'order.delivered', { ...ref, deliveryUrl, at: now }));
        }
      }
    }
    await deps.events.publish(tx, 'payment.settled', {
      ...ref,
      kind: installment.kind,
      installmentId: installment.id,
      paymentId: input.paymentId,
      amount: attempt.amount,
      currency: attempt.currency,
      paidAt: now,
    });
    for (const publish of stageEvents) await publish();
    return { ...base, outcome: 'paid' };
  });
  deps.metrics?.paymentOutcome(result.outcome);
  return result;
}
