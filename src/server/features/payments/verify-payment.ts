import { and, eq } from 'drizzle-orm';
import type { VerifyPaymentResponse } from '../../../contract/payments.ts';
import type { AppDeps } from '../../deps.ts';
import { installments, orders, paymentAttempts } from '../../db/schema/orders.ts';
import { AppError, badRequest, notFound } from '../../lib/app-error.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { settlePayment } from './settle-payment.ts';

/**
 * payment/verify-payment: the checkout's callback. The signature is recomputed over the provider
 * order id WE stored for this customer's attempt (so a signature of another order never matches)
 * and compared in constant time.
 */
export async function verifyPayment(
  deps: AppDeps,
  userId: string,
  input: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string },
): Promise<VerifyPaymentResponse> {
  const { provider } = moneyContext(deps);
  const [row] = await deps.db
    .select({ attempt: paymentAttempts, kind: installments.kind, publicId: orders.publicId })
    .from(paymentAttempts)
    .innerJoin(installments, eq(installments.id, paymentAttempts.installmentId))
    .innerJoin(orders, eq(orders.id, installments.orderId))
    .where(and(eq(paymentAttempts.providerOrderId, input.razorpay_order_id), eq(orders.userId, userId)))
    .limit(1);
  if (!row) throw notFound('Payment not found.');
  if (row.attempt.provider !== provider.name) throw new AppError('CONFLICT', 'This payment was started with another payment provider.');
  if (!provider.isCheckoutSignatureValid(row.attempt.providerOrderId, input.razorpay_payment_id, input.razorpay_signature)) {
    deps.log.warn({ providerOrderId: row.attempt.providerOrderId }, 'checkout signature mismatch');
    throw badRequest('Payment verification failed');
  }
  // A replay of an already verified callback is answered the same way (idempotent).
  const result = await settlePayment(deps, { providerOrderId: row.attempt.providerOrderId, paymentId: input.razorpay_payment_id });
  if (result.outcome === 'amount_mismatch' || result.outcome === 'unknown_order') throw badRequest('Payment verification failed');
  // A second payment for an installment already paid (a second tab): the customer is told, also
  // when the callback is replayed after the webhook recorded it first.
  const isDuplicate =
    result.outcome === 'duplicate' ||
    (result.outcome === 'already_paid' &&
      (await deps.db.select({ state: paymentAttempts.state }).from(paymentAttempts).where(eq(paymentAttempts.id, row.attempt.id)))[0]
        ?.state === 'duplicate');
  return { status: 'ok', success: true, kind: row.kind, orderId: row.publicId, duplicate: isDuplicate };
}
