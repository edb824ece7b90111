import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { paymentAttempts } from '../../db/schema/orders.ts';
import { paymentRefunds } from '../../db/schema/ledger.ts';
import { AppError } from '../../lib/app-error.ts';
import { failRefund, paymentOf, processRefund, refundRowOf } from './refund-flow.ts';

/** Razorpay's refund entity in a refund.* webhook (https://razorpay.com/docs/webhooks/refunds/). */
export interface RazorpayRefundEntity {
  id?: string;
  payment_id?: string;
  amount?: number;
  currency?: string;
  status?: string;
  notes?: Record<string, string> | unknown[];
  created_at?: number;
}

const REFUND_EVENTS = new Set(['refund.created', 'refund.processed', 'refund.failed']);
export const isRefundEvent = (type: string) => REFUND_EVENTS.has(type);

const noted = (notes: RazorpayRefundEntity['notes'], key: string) =>
  notes && !Array.isArray(notes) && typeof notes[key] === 'string' ? notes[key] : undefined;

/**
 * A refund.* webhook, in the transaction that claimed its event id (so a replay does nothing):
 * - refund.processed: the app's refund (by its id, or the notes it was asked with) is processed —
 *   its document and `refund.recorded`; a refund the app does not know, on a payment it knows, was
 *   made in Razorpay's dashboard and is recorded the same way (origin 'dashboard'; a duplicate
 *   payment's refund as 'duplicate', with its "refund needed" settled).
 * - refund.failed: the app's pending refund is failed (the overview lists it with a retry).
 * - refund.created: nothing moves; the app's refund learns its provider id if it did not yet.
 * Returns the outcome stored with the event.
 */
export async function applyRefundWebhook(deps: AppDeps, tx: Tx, type: string, refund: RazorpayRefundEntity | undefined): Promise<string> {
  if (!refund?.id || !refund.payment_id || !Number.isInteger(refund.amount) || (refund.amount ?? 0) <= 0) return 'ignored';
  const notedId = noted(refund.notes, 'refundId');
  const row = await refundRowOf(tx, refund.id, notedId);
  const at = new Date();
  if (!row && notedId) {
    // Asked by the app, and its answer not stored yet (the asking transaction still open): Razorpay
    // delivers again after a refusal, by when the row is there.
    const [pending] = await tx.select({ id: paymentRefunds.id }).from(paymentRefunds).where(eq(paymentRefunds.id, notedId)).limit(1);
    if (!pending) throw new AppError('UNAVAILABLE', 'This refund is not recorded yet; deliver the event again.');
  }
  if (type === 'refund.created') {
    if (row && !row.providerRefundId)
      await tx.update(paymentRefunds).set({ providerRefundId: refund.id }).where(eq(paymentRefunds.id, row.id));
    return row ? 'noted' : 'ignored';
  }
  if (type === 'refund.failed') {
    if (!row) return 'ignored';
    return failRefund(tx, row.id, 'Razorpay reported the refund failed.', at, refund.id);
  }
  // refund.processed
  if (row) return processRefund(deps, tx, row.id, at, refund.id);
  const payment = await paymentOf(tx, refund.payment_id);
  if (!payment) return 'ignored';
  const duplicate = payment.state === 'duplicate';
  const [created] = await tx
    .insert(paymentRefunds)
    .values({
      orderId: payment.orderId,
      provider: 'razorpay',
      providerPaymentId: refund.payment_id,
      providerRefundId: refund.id,
      amount: refund.amount!,
      currency: refund.currency ?? payment.currency,
      origin: duplicate ? 'duplicate' : 'dashboard',
      reason: 'Refunded in the Razorpay dashboard',
      testMode: payment.testMode,
    })
    .onConflictDoNothing()
    .returning({ id: paymentRefunds.id });
  if (!created) return 'duplicate';
  if (duplicate && payment.refundState === 'needed') {
    await tx
      .update(paymentAttempts)
      .set({ refundState: 'refunded', refundReference: refund.id, refundedAt: at })
      .where(eq(paymentAttempts.id, payment.attemptId));
  }
  return processRefund(deps, tx, created.id, at, refund.id);
}
