import { and, eq } from 'drizzle-orm';
import { formatMoney } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import { installments, orders, paymentAttempts } from '../../db/schema/orders.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error.ts';
import { ProviderUnavailableError } from '../../integrations/payments/provider.ts';
import { formatCustomerDate } from '../../../domain/tracker.ts';
import { notifyAdmins } from '../mail/notify-admins.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';

// A duplicate payment (the remaining paid in two tabs) is told to the customer at
// once, e-mailed to the founder and listed as "Refund needed" in the back office until the founder
// marks it refunded — through the provider's refund API when it has one.

export interface DuplicatePayment {
  orderPublicId: string;
  kind: 'advance' | 'remaining';
  amount: number;
  currency: string;
  paymentId: string;
  customerEmail: string;
  paidAt: Date;
}

export async function mailRefundNeeded(deps: AppDeps, p: DuplicatePayment) {
  const amount = formatMoney(p.amount, displayCurrency(moneyContext(deps), p.currency));
  await notifyAdmins(deps, 'refund-needed', {
    subject: `Refund needed: order ${p.orderPublicId} was paid twice`,
    heading: 'A payment needs a refund',
    paragraphs: [
      `The ${p.kind} of order ${p.orderPublicId} was already paid when a second payment of ${amount} came in (for example from a second browser tab). The customer was told it will be refunded.`,
      'Refund it and mark it refunded on the order page of the back office.',
    ],
    rows: [
      ['Order', p.orderPublicId],
      ['Customer', p.customerEmail],
      ['Amount', amount],
      ['Payment id', p.paymentId],
      ['Received', formatCustomerDate(p.paidAt)],
    ],
    action: { label: 'Open the order', url: `${deps.config.publicUrl}/admin/orders/${encodeURIComponent(p.orderPublicId)}` },
  });
}

/** Duplicate payments still to refund, oldest first (the back office overview). */
export async function refundsNeeded(deps: Pick<AppDeps, 'db'>) {
  const rows = await deps.db
    .select({ orderId: orders.publicId, kind: installments.kind, providerPaymentId: paymentAttempts.providerPaymentId, amount: paymentAttempts.amount, currency: paymentAttempts.currency, paidAt: paymentAttempts.paidAt })
    .from(paymentAttempts)
    .innerJoin(installments, eq(installments.id, paymentAttempts.installmentId))
    .innerJoin(orders, eq(orders.id, installments.orderId))
    .where(eq(paymentAttempts.refundState, 'needed'))
    .orderBy(paymentAttempts.paidAt)
    .limit(50);
  return rows.map((r) => ({ ...r, amount: Number(r.amount), providerPaymentId: r.providerPaymentId ?? '', paidAt: r.paidAt ? r.paidAt.toISOString() : null }));
}

/**
 * The founder confirms a refund. With a provider that refunds (Razorpay keys set) the refund is
 * issued now and its id is the reference; otherwise the founder's own reference is required.
 * Audited; a second call for the same payment is refused (409), so money never goes back twice.
 */
export async function markRefunded(deps: AppDeps, actorUserId: string, orderPublicId: string, input: { providerPaymentId: string; reference?: string }) {
  const { provider } = moneyContext(deps);
  // Lock the row first; the provider call happens with the row still 'needed' so a parallel click waits.
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ attempt: paymentAttempts })
      .from(paymentAttempts)
      .innerJoin(installments, eq(installments.id, paymentAttempts.installmentId))
      .innerJoin(orders, eq(orders.id, installments.orderId))
      .where(and(eq(orders.publicId, orderPublicId), eq(paymentAttempts.providerPaymentId, input.providerPaymentId)))
      .for('update', { of: paymentAttempts })
      .limit(1);
    if (!row) throw notFound('No such payment on this order.');
    const a = row.attempt;
    if (a.refundState === 'refunded') throw conflict('This payment is already marked refunded.');
    if (a.refundState !== 'needed') throw conflict('Only a duplicate payment is refunded here.');
    let reference = input.reference?.trim() || null;
    let via: 'provider' | 'manual' = 'manual';
    if (a.provider === 'razorpay' && provider.name === 'razorpay' && provider.refundPayment) {
      try {
        const refund = await provider.refundPayment({ paymentId: input.providerPaymentId, amount: Number(a.amount), receipt: `refund-${orderPublicId}`.slice(0, 40), notes: { order: orderPublicId, reason: 'duplicate payment' } });
        reference = refund.id;
        via = 'provider';
      } catch (err) {
        if (err instanceof ProviderUnavailableError) {
          deps.log.warn({ err: err.message, order: orderPublicId }, 'refund through the provider failed');
          throw new AppError('UNAVAILABLE', 'The payment provider did not accept the refund just now. Nothing was refunded; try again in a minute.');
        }
        throw err;
      }
    }
    if (!reference) throw badRequest('Enter the refund reference (for example the bank or provider refund id).');
    const now = new Date();
    await tx.update(paymentAttempts).set({ refundState: 'refunded', refundReference: reference, refundedAt: now, refundedBy: actorUserId }).where(eq(paymentAttempts.id, a.id));
    await recordAudit(tx, {
      actorUserId,
      action: 'order.payment.refund',
      entity: 'order',
      entityId: orderPublicId,
      before: { providerPaymentId: input.providerPaymentId, refundState: 'needed' },
      after: { refundState: 'refunded', reference, via, amount: Number(a.amount), currency: a.currency },
    });
    return { providerPaymentId: input.providerPaymentId, refundState: 'refunded' as const, reference, refundedAt: now.toISOString(), via };
  });
}

