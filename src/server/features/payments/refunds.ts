import { randomUUID } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import { formatMoney } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { installments, orders, paymentAttempts } from '../../db/schema/orders.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error.ts';
import { ProviderUnavailableError } from '../../integrations/payments/provider.ts';
import { formatWhen } from '../../../domain/when.ts';
import { mailTimeZone } from '../mail/mail-time.ts';
import { notifyOwners } from '../mail/notify-owners.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import { paymentRefunds } from '../../db/schema/ledger.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { processRefund } from './refund-flow.ts';

// A duplicate payment (the remaining paid in two tabs) is told to the customer at
// once, e-mailed to the founder and listed as "Refund needed" in the back office until the founder
// marks it refunded — through the provider's refund API when it has one.

export interface DuplicatePayment {
  orderPublicId: string;
  kind: 'advance' | 'remaining' | 'change';
  amount: number;
  currency: string;
  paymentId: string;
  customerEmail: string;
  paidAt: Date;
  /** Refunded automatically (a change's payment at a stale quote, docs/decisions/332-change-quote-version.md). */
  automatic?: boolean;
}

export async function mailRefundNeeded(deps: AppDeps, tx: Tx, p: DuplicatePayment) {
  const amount = formatMoney(p.amount, displayCurrency(moneyContext(deps), p.currency));
  await notifyOwners(deps, tx, 'refund-needed', {
    subject: `Refund needed: order ${p.orderPublicId} was paid twice`,
    heading: 'A payment needs a refund',
    paragraphs: [
      p.kind === 'change'
        ? `A payment of ${amount} for a change on order ${p.orderPublicId} came in after the change was already paid, declined, ` +
          `withdrawn or re-quoted (for example from a second browser tab). The customer was told it will be refunded.`
        : `The ${p.kind} of order ${p.orderPublicId} was already paid when a second payment of ${amount} came in (for example ` +
          `from a second browser tab). The customer was told it will be refunded.`,
      p.automatic
        ? 'It is being refunded automatically: the order page of the back office shows the refund, and the overview lists it if the refund fails.'
        : 'Refund it and mark it refunded on the order page of the back office.',
    ],
    rows: [
      ['Order', p.orderPublicId],
      ['Customer', p.customerEmail],
      ['Amount', amount],
      ['Payment id', p.paymentId],
      ['Received', formatWhen(p.paidAt, mailTimeZone(deps.config))],
    ],
    action: { label: 'Open the order', url: `${deps.config.publicUrl}/admin/orders/${encodeURIComponent(p.orderPublicId)}` },
  });
}

/** Duplicate payments still to refund, oldest first (the back office overview). */
export async function refundsNeeded(deps: Pick<AppDeps, 'db'>) {
  const rows = await deps.db
    .select({
      orderId: orders.publicId,
      kind: installments.kind,
      providerPaymentId: paymentAttempts.providerPaymentId,
      amount: paymentAttempts.amount,
      currency: paymentAttempts.currency,
      paidAt: paymentAttempts.paidAt,
      // Asked automatically and not failed (docs/decisions/332-change-quote-version.md).
      refunding: sql<boolean>`exists (select 1 from payment_refunds r where r.provider_payment_id = ${paymentAttempts.providerPaymentId} and 
          r.status <> 'failed')`,
    })
    .from(paymentAttempts)
    .innerJoin(installments, eq(installments.id, paymentAttempts.installmentId))
    .innerJoin(orders, eq(orders.id, installments.orderId))
    .where(eq(paymentAttempts.refundState, 'needed'))
    .orderBy(paymentAttempts.paidAt)
    .limit(50);
  return rows.map((r) => ({
    ...r,
    refunding: Boolean(r.refunding),
    amount: Number(r.amount),
    providerPaymentId: r.providerPaymentId ?? '',
    paidAt: r.paidAt ? r.paidAt.toISOString() : null,
  }));
}

/**
 * The founder refunds one payment whole: a duplicate payment (origin 'duplicate', never documented),
 * or what is left of a received payment outside a cancel (origin 'manual', with its refund voucher
 * or credit note). One case of the refund flow (docs/decisions/321-cancel-and-refund.md): a
 * payment_refunds row, processed at once when the provider says so (or in test mode, or for a
 * refund made by hand with its reference), else when Razorpay's refund.processed webhook comes —
 * and `refund.recorded` then. With a provider that refunds (Razorpay keys set) the refund is asked
 * now and its id is the reference; otherwise the founder's own reference is required. Audited; a
 * second call for the same payment is refused (409), so money never goes back twice.
 */
export async function markRefunded(
  deps: AppDeps,
  actorUserId: string,
  orderPublicId: string,
  input: { providerPaymentId: string; reference?: string },
) {
  const { provider } = moneyContext(deps);
  // Lock the row first; the provider call happens with the row still locked so a parallel click waits.
  return deps.events.transaction(async (tx) => {
    const [row] = await tx
      .select({ attempt: paymentAttempts, orderId: orders.id })
      .from(paymentAttempts)
      .innerJoin(installments, eq(installments.id, paymentAttempts.installmentId))
      .innerJoin(orders, eq(orders.id, installments.orderId))
      .where(and(eq(orders.publicId, orderPublicId), eq(paymentAttempts.providerPaymentId, input.providerPaymentId)))
      .for('update', { of: paymentAttempts })
      .limit(1);
    if (!row) throw notFound('No such payment on this order.');
    const a = row.attempt;
    if (a.refundState === 'refunded') throw conflict('This payment is already refunded.');
    const duplicate = a.refundState === 'needed';
    if (!duplicate && a.state !== 'paid') throw conflict('Only a received payment is refunded here.');
    // A received payment: what earlier refunds (a cancel's, the dashboard's) left of it.
    const [taken] = await tx
      .select({ sum: sql<number>`coalesce(sum(${paymentRefunds.amount}), 0)::float8` })
      .from(paymentRefunds)
      .where(and(eq(paymentRefunds.providerPaymentId, input.providerPaymentId), ne(paymentRefunds.status, 'failed')));
    const amount = Number(a.amount) - Number(taken?.sum ?? 0);
    if (amount <= 0) throw conflict('This payment is already refunded.');
    const refundId = randomUUID();
    let reference = input.reference?.trim() || null;
    let via: 'provider' | 'manual' = 'manual';
    let processed = true;
    if (a.provider === 'razorpay' && provider.name === 'razorpay' && provider.refundPayment) {
      try {
        const refund = await provider.refundPayment({
          paymentId: input.providerPaymentId,
          amount,
          speed: 'normal',
          receipt: `rf_${refundId.replaceAll('-', '')}`,
          notes: { orderId: orderPublicId, refundId, reason: duplicate ? 'duplicate payment' : 'refund' },
        });
        reference = refund.id;
        via = 'provider';
        // Razorpay's test keys move no money: recorded at once; a live refund waits for its webhook.
        processed = refund.status === 'processed' || a.testMode;
      } catch (err) {
        if (err instanceof ProviderUnavailableError) {
          deps.log.warn({ err: err.message, order: orderPublicId }, 'refund through the provider failed');
          throw new AppError(
            'UNAVAILABLE',
            'The payment provider did not accept the refund just now. Nothing was refunded; try again in a minute.',
          );
        }
        throw err;
      }
    }
    if (!reference) throw badRequest('Enter the refund reference (for example the bank or provider refund id).');
    if (
      via === 'manual' &&
      (await tx.select({ id: paymentRefunds.id }).from(paymentRefunds).where(eq(paymentRefunds.providerRefundId, reference)).limit(1))
        .length
    ) {
      throw badRequest('This reference is already recorded for another refund.');
    }
    const now = new Date();
    await tx.insert(paymentRefunds).values({
      id: refundId,
      orderId: row.orderId,
      provider: via === 'provider' ? 'razorpay' : 'manual',
      providerPaymentId: input.providerPaymentId,
      providerRefundId: reference,
      amount,
      currency: a.currency,
      origin: duplicate ? 'duplicate' : 'manual',
      testMode: a.testMode,
      requestedBy: actorUserId,
      attempts: via === 'provider' ? 1 : 0,
      createdAt: now,
    });
    if (duplicate)
      await tx
        .update(paymentAttempts)
        .set({ refundState: 'refunded', refundReference: reference, refundedAt: now, refundedBy: actorUserId })
        .where(eq(paymentAttempts.id, a.id));
    // Its document and refund.recorded, in this transaction when the money has moved; else with the webhook.
    if (processed) await processRefund(deps, tx, refundId, now, reference);
    const [doc] = await tx
      .select({ number: invoices.number })
      .from(paymentRefunds)
      .innerJoin(invoices, eq(invoices.id, paymentRefunds.documentId))
      .where(eq(paymentRefunds.id, refundId));
    await recordAudit(tx, {
      actorUserId,
      action: 'order.payment.refund',
      entity: 'order',
      entityId: orderPublicId,
      before: { providerPaymentId: input.providerPaymentId, refundState: a.refundState },
      after: {
        refundState: 'refunded',
        reference,
        via,
        amount,
        currency: a.currency,
        status: processed ? 'processed' : 'pending',
        document: doc?.number ?? null,
      },
    });
    return { providerPaymentId: input.providerPaymentId, refundState: 'refunded' as const, reference, refundedAt: now.toISOString(), via };
  });
}
