import type { AppDeps } from '../../deps.ts';
import { balanceOf, documentOf, postLines, syncOrderCharges } from './post.ts';
import { suppliedLines } from './lines.ts';

/**
 * The order's account follows the order's money events, in their transactions
 * (docs/decisions/320-order-ledger.md): what is charged when the advance makes the order, each
 * payment with its document, each change and maintenance month with its invoice, refunds with
 * their credit, a cancel's write-off. Each posting is keyed by its source, so a retried event adds
 * nothing.
 */
export function subscribeLedger(deps: AppDeps) {
  // An installment paid: the order's charges (the first time, or corrected after a re-pricing at the
  // advance), then the payment with its receipt voucher or invoice.
  deps.events.inTransaction('payment.invoiced', async (e, tx) => {
    const doc = await documentOf(tx, e.invoiceId);
    await syncOrderCharges(deps, tx, e.orderId, e.paidAt, doc.description);
    await postLines(
      deps,
      tx,
      {
        orderId: e.orderId,
        source: `payment:${e.paymentId}`,
        at: e.paidAt,
        currency: e.currency,
        testMode: doc.testMode,
        document: doc,
        providerRef: e.paymentId,
      },
      [{ kind: 'payment', description: e.kind === 'advance' ? 'Advance payment' : 'Remaining payment', amount: -e.amount }],
    );
  });

  deps.events.inTransaction('change.invoiced', async (e, tx) => {
    const doc = await documentOf(tx, e.invoiceId);
    const posting = { orderId: e.orderId, at: e.paidAt, currency: e.currency, testMode: doc.testMode, document: doc };
    await postLines(deps, tx, { ...posting, source: `change:${e.changeId}` }, suppliedLines(`Change: ${e.title}`, doc));
    await postLines(deps, tx, { ...posting, source: `payment:${e.paymentId}`, providerRef: e.paymentId }, [
      { kind: 'payment', description: `Payment for the change "${e.title}"`, amount: -e.amount },
    ]);
  });

  deps.events.inTransaction('maintenance.invoiced', async (e, tx) => {
    const doc = await documentOf(tx, e.invoiceId);
    const posting = { orderId: e.orderId, at: e.paidAt, currency: e.currency, testMode: doc.testMode, document: doc };
    await postLines(deps, tx, { ...posting, source: `maintenance:${e.chargeId}` }, suppliedLines(doc.description, doc));
    await postLines(deps, tx, { ...posting, source: `payment:${e.paymentId}`, providerRef: e.paymentId }, [
      { kind: 'payment', description: 'Maintenance plan payment', amount: -e.amount },
    ]);
  });

  // Money received that pays for nothing (a second payment of a paid installment): owed back until refunded.
  deps.events.inTransaction('payment.duplicate', async (e, tx) => {
    await postLines(
      deps,
      tx,
      { orderId: e.orderId, source: `payment:${e.paymentId}`, at: e.paidAt, currency: e.currency, providerRef: e.paymentId },
      [{ kind: 'payment', description: 'Duplicate payment (to be refunded)', amount: -e.amount }],
    );
  });

  // Money returned: the refund, and the credit of its document (a refund voucher or credit note)
  // — a duplicate payment was never documented, its refund simply returns it.
  deps.events.inTransaction('refund.recorded', async (e, tx) => {
    const doc = e.document ? await documentOf(tx, e.document.id) : null;
    const what =
      e.origin === 'duplicate'
        ? 'Refund of a duplicate payment'
        : e.origin === 'dashboard'
          ? 'Refund (made in the Razorpay dashboard)'
          : 'Refund';
    await postLines(
      deps,
      tx,
      {
        orderId: e.orderId,
        source: `refund:${e.refundId}`,
        at: e.at,
        currency: e.currency,
        testMode: e.testMode,
        document: doc,
        providerRef: e.providerRefundId,
      },
      [
        { kind: 'refund', description: what, amount: e.amount },
        ...(doc
          ? [
              {
                kind: 'credit_note' as const,
                description:
                  doc.kind === 'credit_note'
                    ? 'Credit note: the refunded part is not supplied'
                    : 'Refund voucher: the refunded advance is not supplied',
                amount: -e.amount,
              },
            ]
          : []),
      ],
    );
  });

  // A cancelled order owes nothing more: what was charged and not paid is written off. Refunds
  // asked with the cancel post their own credit when the money has moved (above).
  deps.events.inTransaction('order.cancelled', async (e, tx) => {
    const balance = await balanceOf(tx, e.orderId);
    if (balance <= 0) return;
    await postLines(deps, tx, { orderId: e.orderId, source: 'cancel', at: e.at, currency: e.currency }, [
      { kind: 'credit_note', description: `Order cancelled: the unpaid part is not due (${e.reason})`.slice(0, 300), amount: -balance },
    ]);
  });
}
