import { and, eq } from 'drizzle-orm';
import { findCurrency } from '../../../domain/currencies.ts';
import { referralCashback } from '../../../domain/referral.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { users } from '../../db/schema/platform.ts';
import { cashback, couponRedemptions, installments, orders, paymentAttempts } from '../../db/schema/orders.ts';
import { orderChanges } from '../../db/schema/changes.ts';
import { paymentRefunds } from '../../db/schema/ledger.ts';
import { withoutDiscount } from '../../../domain/pricing.ts';
import { orderTaxOrNone, retax } from '../../lib/tax-context.ts';
import { mayRedeem } from '../coupons/coupon-limits.ts';
import { moneyContext } from '../../lib/money-context.ts';

export type SettleOutcome = 'paid' | 'already_paid' | 'duplicate' | 'amount_mismatch' | 'unknown_order';

export interface SettleResult {
  outcome: SettleOutcome;
  kind?: 'advance' | 'remaining' | 'change';
  orderPublicId?: string;
}

/**
 * Marks the installment of one provider order paid — the only place money state moves. Called by
 * the verified checkout callback, the signed webhook and reconciliation; whichever comes first
 * wins and the others are no-ops, so nothing is paid twice and nothing moves backwards.
 *
 * It publishes what happened — payment.settled (or payment.duplicate) — and knows nothing of who
 * reacts, all in this transaction: the tracker completes the payment's stages (and delivers when
 * the link is there), the invoice is numbered and the receipt queued, the reminders cancelled
 * (decision 100, docs/architecture.md "Events and jobs").
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
      deps.log.warn(
        { providerOrderId: attempt.providerOrderId },
        'payment amount or currency differs from the provider order; not settled',
      );
      return { ...base, outcome: 'amount_mismatch' };
    }
    const now = new Date();
    // A change's payment counts only for the change as quoted when its checkout opened: one declined,
    // withdrawn or re-quoted meanwhile is refunded like a duplicate (docs/decisions/250-change-requests.md).
    const change =
      installment.kind === 'change' && installment.changeId
        ? (await tx.select().from(orderChanges).where(eq(orderChanges.id, installment.changeId)).for('update').limit(1))[0]
        : undefined;
    // Not the quote this checkout was opened at (docs/decisions/332-change-quote-version.md): the
    // payment is for a price that no longer stands. (The amount paid includes the tax of the quote,
    // so it is not compared with the change's net amount.) Attempts older than the version compare times.
    const changeStale =
      installment.kind === 'change' &&
      (!change ||
        change.state !== 'quoted' ||
        (attempt.quoteVersion !== null
          ? attempt.quoteVersion !== change.quoteVersion
          : change.quotedAt !== null && change.quotedAt > attempt.createdAt));
    if (installment.state === 'paid' || changeStale || order.state === 'cancelled') {
      // A second successful payment for an installment already paid, or one for an order cancelled
      // while its checkout was open (docs/decisions/321-cancel-and-refund.md): keep the record for a
      // refund. The founder is e-mailed and sees "Refund needed" until it is refunded.
      await tx
        .update(paymentAttempts)
        .set({ state: 'duplicate', providerPaymentId: input.paymentId, paidAt: now, refundState: 'needed' })
        .where(eq(paymentAttempts.id, attempt.id));
      deps.log.warn({ order: order.publicId, paymentId: input.paymentId }, 'duplicate payment for a paid installment — refund it');
      // A change's payment at a stale quote is refunded at once, through the refund flow: its row is
      // stored here and asked of the provider after the commit (decisions 321 and 332).
      const refundId =
        changeStale && installment.state !== 'paid' && order.state !== 'cancelled'
          ? await storeDuplicateRefund(tx, order.id, attempt, input.paymentId, now)
          : undefined;
      await deps.events.publish(tx, 'payment.duplicate', {
        ...ref,
        kind: installment.kind,
        amount: attempt.amount,
        currency: attempt.currency,
        paymentId: input.paymentId,
        paidAt: now,
        ...(refundId ? { refundId } : {}),
      });
      return { ...base, outcome: 'duplicate' };
    }
    await tx
      .update(paymentAttempts)
      .set({ state: 'paid', providerPaymentId: input.paymentId, paidAt: now })
      .where(eq(paymentAttempts.id, attempt.id));
    await tx
      .update(installments)
      .set({ state: 'paid', providerPaymentId: input.paymentId, paidAt: now })
      .where(eq(installments.id, installment.id));
    if (installment.kind === 'change') {
      // A change is extra work on the order: its stages and state do not move; the change's own
      // subscribers accept it, move the due date, issue its document and mail the receipt.
      await deps.events.publish(tx, 'change.paid', {
        ...ref,
        changeId: change!.id,
        title: change!.title,
        installmentId: installment.id,
        paymentId: input.paymentId,
        amount: attempt.amount,
        currency: attempt.currency,
        extraDays: change!.extraDays,
        paidAt: now,
        testMode: attempt.testMode,
      });
      return { ...base, outcome: 'paid' };
    }
    if (installment.kind === 'advance') {
      await tx.update(orders).set({ state: 'in_progress', updatedAt: now }).where(eq(orders.id, order.id));
      let keepsCode = true;
      if (order.couponId) {
        keepsCode = await mayRedeem(
          tx,
          { id: order.id, userId: order.userId, couponId: order.couponId, couponHoldUntil: order.couponHoldUntil },
          now,
        );
        if (keepsCode) {
          await tx
            .insert(couponRedemptions)
            .values({
              couponId: order.couponId,
              orderId: order.id,
              userId: order.userId,
              discount: order.discount,
              currency: order.currency,
            })
            .onConflictDoNothing();
        } else if (order.discount > 0) {
          // The code's last use went to someone else while this checkout was open (decision 092):
          // the advance stands, the order costs the full price, the remaining carries the difference.
          const tax = orderTaxOrNone(order.tax, order.total);
          const full = withoutDiscount(order.price, attempt.amount, (v) => retax(tax, v));
          await tx
            .update(orders)
            .set({
              discountPercent: 0,
              discount: 0,
              fee: full.fee,
              total: full.total,
              tax: { ...tax, taxableValue: full.taxableValue, taxes: full.taxes },
              referrerUserId: null,
              couponWithdrawnAt: now,
              updatedAt: now,
            })
            .where(eq(orders.id, order.id));
          await tx
            .update(installments)
            .set({ amount: full.remaining })
            .where(and(eq(installments.orderId, order.id), eq(installments.kind, 'remaining')));
          deps.log.warn(
            { order: order.publicId, coupon: order.couponCode },
            'code limit reached before payment: discount withdrawn, difference added to the remaining installment',
          );
        }
      }
      if (order.referrerUserId && keepsCode) {
        const currency = findCurrency(order.currency, moneyContext(deps).currencies) ?? {
          code: order.currency,
          symbol: '',
          factor: 1,
          minorDigits: 2,
        };
        await tx
          .insert(cashback)
          .values({
            referrerUserId: order.referrerUserId,
            orderId: order.id,
            amount: referralCashback(order.discount, currency),
            currency: order.currency,
          })
          .onConflictDoNothing();
      }
    } else {
      await tx
        .update(orders)
        .set({ state: 'paid', updatedAt: now })
        .where(and(eq(orders.id, order.id), eq(orders.state, 'in_progress')));
      // The referred order is now fully paid: the referrer's cashback is earned (spec "only complete payments qualify").
      await tx
        .update(cashback)
        .set({ state: 'earned', earnedAt: now })
        .where(and(eq(cashback.orderId, order.id), eq(cashback.state, 'pending')));
    }
    // Published at the end: the invoice's subscriber must see the final amounts (a discount withdrawn above).
    await deps.events.publish(tx, 'payment.settled', {
      ...ref,
      kind: installment.kind,
      installmentId: installment.id,
      paymentId: input.paymentId,
      amount: attempt.amount,
      currency: attempt.currency,
      paidAt: now,
    });
    return { ...base, outcome: 'paid' };
  });
  deps.metrics?.paymentOutcome(result.outcome);
  return result;
}

/** A whole refund of a duplicate payment, pending until the provider is asked (after the commit). */
async function storeDuplicateRefund(
  tx: Tx,
  orderId: string,
  attempt: typeof paymentAttempts.$inferSelect,
  paymentId: string,
  at: Date,
): Promise<string> {
  const [row] = await tx
    .insert(paymentRefunds)
    .values({
      orderId,
      provider: attempt.provider,
      providerPaymentId: paymentId,
      amount: attempt.amount,
      currency: attempt.currency,
      origin: 'duplicate',
      reason: 'The change was re-quoted, declined or withdrawn while its checkout was open.',
      testMode: attempt.testMode,
      createdAt: at,
    })
    .returning({ id: paymentRefunds.id });
  return row!.id;
}
