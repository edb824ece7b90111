import { and, eq, sql } from 'drizzle-orm';
import { findCurrency } from '../../../domain/currencies.ts';
import { referralCashback } from '../../../domain/referral.ts';
import { ADVANCE_STAGE, DELIVERY_STAGE, REMAINING_PAYMENT_STAGE } from '../../../domain/tracker.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../invoices/issue-invoice.ts';
import { users } from '../../db/schema/platform.ts';
import { cashback, couponRedemptions, installments, orderStages, orders, paymentAttempts } from '../../db/schema/orders.ts';
import { mailReceipt, mailStageCompleted } from '../tracker/notify.ts';
import { issueInvoice } from '../invoices/issue-invoice.ts';
import { cancelRemindersOnPayment } from '../reminders/schedule.ts';
import { mailRefundNeeded } from './refunds.ts';
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
 */
export async function settlePayment(
  deps: AppDeps,
  input: { providerOrderId: string; paymentId: string; amount?: number; currency?: string },
  /** Settle inside the caller's transaction; its mails are queued for the caller to send after commit. */
  within?: { tx: Tx; mails: (() => Promise<void>)[] },
): Promise<SettleResult> {
  const mails: (() => Promise<void>)[] = within?.mails ?? [];
  const run = (fn: (tx: Tx) => Promise<SettleResult>) => (within ? fn(within.tx) : deps.db.transaction(fn));
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
      // The founder is e-mailed and sees "Refund needed" until it is marked refunded (issue 12 item 6).
      await tx
        .update(paymentAttempts)
        .set({ state: 'duplicate', providerPaymentId: input.paymentId, paidAt: now, refundState: 'needed' })
        .where(eq(paymentAttempts.id, attempt.id));
      deps.log.warn({ order: order.publicId, paymentId: input.paymentId }, 'duplicate payment for a paid installment — refund it');
      mails.push(() =>
        mailRefundNeeded(deps, { orderPublicId: order.publicId, kind: installment.kind, amount: attempt.amount, currency: attempt.currency, paymentId: input.paymentId, customerEmail: row.email, paidAt: now }),
      );
      return { ...base, outcome: 'duplicate' };
    }
    await tx.update(paymentAttempts).set({ state: 'paid', providerPaymentId: input.paymentId, paidAt: now }).where(eq(paymentAttempts.id, attempt.id));
    await tx.update(installments).set({ state: 'paid', providerPaymentId: input.paymentId, paidAt: now }).where(eq(installments.id, installment.id));
    // Issue 14: reminders for the remaining amount stop the moment it is captured.
    if (installment.kind === 'remaining') await cancelRemindersOnPayment(tx, order.id);
    // The receipt goes first; it waits for the invoice, which is issued below from the final amounts.
    const receiptAt = mails.length;

    if (installment.kind === 'advance') {
      await tx.update(orders).set({ state: 'in_progress', updatedAt: now }).where(eq(orders.id, order.id));
      await tx.insert(orderStages).values({ orderId: order.id, stage: ADVANCE_STAGE, completedAt: now }).onConflictDoNothing();
      mails.push(() => mailStageCompleted(deps, row.email, order.publicId, ADVANCE_STAGE, null, now));
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
        await tx.insert(orderStages).values({ orderId: order.id, stage: REMAINING_PAYMENT_STAGE, completedAt: now }).onConflictDoNothing();
        mails.push(() => mailStageCompleted(deps, row.email, order.publicId, REMAINING_PAYMENT_STAGE, null, now));
        if (order.deliveryUrl) {
          // The founder attached the link already: the site is delivered with the last payment.
          await tx.insert(orderStages).values({ orderId: order.id, stage: DELIVERY_STAGE, completedAt: now }).onConflictDoNothing();
          await tx.update(orders).set({ state: 'delivered', updatedAt: now }).where(eq(orders.id, order.id));
          mails.push(() => mailStageCompleted(deps, row.email, order.publicId, DELIVERY_STAGE, null, now));
        }
      }
    }
    // The tax invoice is numbered in this transaction (no gap if it rolls back), after the coupon
    // check above may have withdrawn the discount: it prints the order's final total and remaining.
    const invoice = await issueInvoice(deps, tx, { installmentId: installment.id, paymentId: input.paymentId, paidAt: now });
    mails.splice(receiptAt, 0, () =>
      mailReceipt(deps, row.email, { orderPublicId: order.publicId, kind: installment.kind, amount: attempt.amount, currency: attempt.currency, paymentId: input.paymentId, paidAt: now, invoice }),
    );
    return { ...base, outcome: 'paid' };
  });
  deps.metrics?.paymentOutcome(result.outcome);
  if (within) return result;
  // Mail after commit: a rolled-back payment never sends a receipt.
  for (const send of mails) await send().catch((err) => deps.log.error({ err }, 'could not queue a payment e-mail'));
  return result;
}
